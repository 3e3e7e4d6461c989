/**
 * The home sitter's answer to a search, written from what was found and nothing else: how often, who or
 * what, when and on which camera, citing up to five of the most relevant moments; and, when nothing
 * matched, saying so plainly ("I didn't see anyone at the Front Door today."). A window that has not begun
 * is never answered with "nothing" ("It's only 10:12 AM — 3 PM hasn't come yet today."), one still running
 * is answered "so far", and "while I was out" with no known time away asks when. English and German.
 */
import {
  dayName,
  formatClock,
  localDayNumber,
  describeActivity,
  type DetectedObject,
  type RecognisedName,
  capitalise,
  enArticle,
  joinList,
  kindOfLabel,
  normaliseLabel,
  nounFor,
  numberWord,
  type Language,
  type ObjectKind,
  deWhere,
  enWhere,
  placeOf,
  siteWhere,
  type UnusualFacts,
} from '../language/language.module.js';
import type { ParsedQuestion } from './question.js';
import type { WindowLabel } from './time-phrases.js';
import { DE_PART, hourIn, windowPhrase } from './window-label.js';

/** An activity the search found, with what the AI stored about it. */
export interface FoundActivity {
  id: string;
  cameraName: string;
  siteId: string | null;
  occurredAt: Date;
  mediaKind: 'image' | 'video' | 'none';
  objects: DetectedObject[];
  recognised: (RecognisedName & { memory_uuid?: string })[];
  /** The stored sentence in English, and in the user's language when that is not English. */
  description?: string | null;
  descriptionLocalized?: string | null;
  /** How it compares with its camera's routine; null or absent: not judged (too little history). */
  routine?: { unusual: UnusualFacts | null } | null;
}

export interface AnswerContext {
  language: Language;
  timezone: string | null | undefined;
  now: Date;
  /** Property names by id. */
  siteNames: Record<string, string>;
  /** Names of the memories asked about, by uuid. */
  memoryNames: Record<string, string>;
  /** Speak of each property on its own (the user has several and asked about none in particular). */
  groupByProperty: boolean;
  /** Notes from the user's memories that bear on the question, quoted at the end. */
  notes?: string[];
  /** How many matched in all, when `found` holds only the newest of them. */
  total?: number;
}

export interface ComposedAnswer {
  text: string;
  /** The activities the answer cites, in the order it lists them (at most `MAX_CITED`). */
  cited: FoundActivity[];
}

export const MAX_CITED = 5;

type Search = ParsedQuestion & { intent: 'search' };

/** The nouns of what was asked for: labels where given ("cars"), else the kind ("vehicles"). */
function askedNouns(q: Search): { kind: ObjectKind; label?: string }[] {
  return (q.kinds ?? []).flatMap((kind) => {
    const labels = (q.labels ?? []).filter((l) => kindOfLabel(l) === kind);
    return labels.length ? labels.map((label) => ({ kind, label })) : [{ kind }];
  });
}

/** Whether a detection is of what was asked: its kind, and its label when labels of that kind were named. */
export function objectMatches(
  q: Pick<ParsedQuestion, 'kinds' | 'labels' | 'colours'>,
  o: DetectedObject,
): boolean {
  if (!q.kinds?.includes(o.kind)) return false;
  // "The white car": a vehicle of another colour (or none known) is not the one asked about.
  if (o.kind === 'vehicle' && q.colours?.length && !q.colours.includes((o.color ?? '').trim().toLowerCase()))
    return false;
  const wanted = (q.labels ?? []).filter((l) => kindOfLabel(l) === o.kind);
  return wanted.length === 0 || wanted.includes(normaliseLabel(o.kind, o.label));
}

/** How well an activity answers the question: the memories asked about first, then the kinds, then anyone known. */
function relevance(q: Search, a: FoundActivity): number {
  let score = 0;
  if (q.memoryIds?.length && a.recognised.some((r) => r.memory_uuid && q.memoryIds!.includes(r.memory_uuid)))
    score += 8;
  if (q.kinds?.length && a.objects.some((o) => objectMatches(q, o))) score += 4;
  if (a.recognised.length > 0) score += 2;
  return score + Math.min(a.objects.length, 5) * 0.1;
}

/** The most relevant activities, at most `limit`, listed oldest first. */
export function pickCited(q: Search, found: FoundActivity[], limit = MAX_CITED): FoundActivity[] {
  return [...found]
    .sort((a, b) => relevance(q, b) - relevance(q, a) || b.occurredAt.getTime() - a.occurredAt.getTime())
    .slice(0, limit)
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

function times(n: number, language: Language): string {
  if (language === 'en') return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
  return n <= 12 ? `${n === 1 ? 'ein' : numberWord(n, 'de')}mal` : `${n}-mal`;
}

/** Where the question looked: the named cameras, else the named property, else nowhere in particular. */
function wherePhrase(q: Search, ctx: AnswerContext, siteId: string | undefined): string | undefined {
  const en = ctx.language === 'en';
  const cams = q.cameraNames ?? [];
  if (cams.length === 1) {
    const place = placeOf(cams[0]!, ctx.language);
    return en ? enWhere(place) : deWhere(place);
  }
  if (cams.length > 1)
    return en ? `on the ${joinList(cams, 'en')} cameras` : `an den Kameras ${joinList(cams, 'de')}`;
  const site = siteId ?? (q.siteIds?.length === 1 ? q.siteIds[0] : undefined);
  const name = site ? ctx.siteNames[site] : undefined;
  if (!name || ctx.groupByProperty) return undefined;
  return siteWhere(name, ctx.language);
}

type TimingContext = Pick<AnswerContext, 'language' | 'timezone' | 'now'>;

/**
 * The answer when there is nothing to search: a window that has not begun ("It's only 10:12 AM — 3 PM
 * hasn't come yet today."), or "while I was out" with no known time away (asks when). Undefined otherwise.
 */
export function timingReply(
  q: Pick<ParsedQuestion, 'timing' | 'window'>,
  ctx: TimingContext,
): string | undefined {
  const en = ctx.language === 'en';
  if (q.timing === 'ask')
    return en
      ? 'When were you out? You can say “between 2 and 5 PM” or “this morning”.'
      : 'Wann warst du weg? Du kannst zum Beispiel „zwischen 14 und 17 Uhr“ oder „heute Vormittag“ sagen.';
  if (q.timing !== 'ahead' || !q.window) return undefined;
  if (q.window.type === 'future') return futureReply(q.window.what, ctx.language);
  const clock = formatClock(ctx.now, ctx.timezone, ctx.language);
  const start = en ? `It's only ${clock} —` : `Es ist erst ${clock} Uhr –`;
  const label = q.window;
  if (label.type === 'day') {
    const at = label.around ?? label.after ?? label.since;
    if (at)
      return en
        ? `${start} ${hourIn(at, 'en')} hasn't come yet today.`
        : `${start} heute war es noch nicht ${hourIn(at, 'de')}.`;
    if (label.part)
      return en
        ? `${start} this ${label.part} hasn't started yet.`
        : `${start} der ${DE_PART[label.part]} hat noch nicht begonnen.`;
  }
  if (label.type === 'night')
    return en ? `${start} tonight hasn't begun yet.` : `${start} die Nacht hat noch nicht begonnen.`;
  return en ? `${start} that time hasn't come yet.` : `${start} diese Zeit ist noch nicht gekommen.`;
}

/**
 * A time still to come: say it has not happened, what the home sitter can do instead (a note for a visit
 * the user expects), and that it can be asked to watch.
 */
export function futureReply(what: 'tomorrow' | 'later', language: Language): string {
  if (language === 'en')
    return what === 'tomorrow'
      ? "I can't see ahead: tomorrow hasn't happened yet, so I only know what your cameras have already seen. If you expect someone, tell me “Remember that …”, or ask me tomorrow."
      : "That hasn't happened yet: I can only tell you what your cameras have already seen. Ask me “tell me when …” and I'll let you know, or ask again later.";
  return what === 'tomorrow'
    ? 'In die Zukunft sehen kann ich nicht: Morgen ist noch nicht da, ich weiß nur, was deine Kameras schon gesehen haben. Wenn du jemanden erwartest, sag mir „Merk dir, dass …“, oder frag mich morgen.'
    : 'Das ist noch nicht passiert: Ich kann dir nur sagen, was deine Kameras schon gesehen haben. Sag mir „Sag mir Bescheid, wenn …“, oder frag später noch einmal.';
}

/** The window said back; "so far" / "bisher" when it was cut at now. */
function whenPhrase(q: Search, ctx: AnswerContext, label: WindowLabel): string {
  const when = windowPhrase(label, ctx.language);
  if (q.timing !== 'so_far') return when;
  return `${when} ${ctx.language === 'en' ? 'so far' : 'bisher'}`;
}

/** Where and when a search looked, as the answers say it: "at the Front Door today", "an der Haustür heute". */
export function scopePhrase(q: Search, ctx: AnswerContext): { where?: string; when: string } {
  const label: WindowLabel = q.window ?? { type: 'recent', amount: 24, unit: 'hour', implicit: true };
  const where = wherePhrase(q, ctx, undefined);
  return { ...(where ? { where } : {}), when: whenPhrase(q, ctx, label) };
}

function nothingSentence(q: Search, ctx: AnswerContext, label: WindowLabel): string {
  const en = ctx.language === 'en';
  const when = whenPhrase(q, ctx, label);
  // English says a window still running in the present perfect: "I haven't seen anyone this afternoon so far."
  const didntSee = q.timing === 'so_far' ? "I haven't seen" : "I didn't see";
  const where = wherePhrase(q, ctx, undefined);
  const tail = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');
  const names = (q.memoryIds ?? []).map((id) => ctx.memoryNames[id]).filter((n): n is string => Boolean(n));
  if (names.length > 0) {
    const who = joinList(names, ctx.language);
    return en
      ? `${didntSee} ${tail([who, where, when])}.`
      : `Ich habe ${tail([who, when, 'nicht', where])} gesehen.`;
  }
  const nouns = askedNouns(q);
  if (nouns.length === 0)
    return en
      ? `${didntSee} anything ${tail([where, when])}.`
      : `Ich habe ${tail([when, 'nichts', where])} gesehen.`;
  const what = nouns.map(({ kind, label }) => {
    if (kind === 'person') return en ? 'anyone' : 'niemanden';
    const noun = nounFor(kind, label);
    return en ? `any ${noun.en.other}` : `keine ${noun.de.other}`;
  });
  const list = en ? new Intl.ListFormat('en-US', { type: 'disjunction' }).format(what) : joinList(what, 'de');
  return en ? `${didntSee} ${tail([list, where, when])}.` : `Ich habe ${tail([when, list, where])} gesehen.`;
}

/** The most things of the asked kind in the foreground of one found event. */
function mostAtOnce(found: FoundActivity[], q: Search, kind: ObjectKind): number {
  return Math.max(
    0,
    ...found.map(
      (a) => a.objects.filter((o) => o.kind === kind && !o.background && objectMatches(q, o)).length,
    ),
  );
}

function headline(
  q: Search,
  ctx: AnswerContext,
  label: WindowLabel,
  found: FoundActivity[],
  total: number,
  siteId?: string,
) {
  const en = ctx.language === 'en';
  const when = whenPhrase(q, ctx, label);
  const soFar = q.timing === 'so_far';
  const saw = soFar ? "I've seen" : 'I saw';
  const where = wherePhrase(q, ctx, siteId);
  const tail = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');
  const names = (q.memoryIds ?? []).map((id) => ctx.memoryNames[id]).filter((n): n is string => Boolean(n));
  if (names.length > 0) {
    const seen = found.filter((a) =>
      a.recognised.some((r) => r.memory_uuid && q.memoryIds!.includes(r.memory_uuid)),
    );
    const n = seen.length === found.length ? total : seen.length || total;
    const who = joinList(names, ctx.language);
    return en
      ? `${saw} ${tail([who, where, times(n, 'en'), when])}:`
      : `Ich habe ${tail([who, when, times(n, 'de'), where])} gesehen:`;
  }
  const nouns = askedNouns(q);
  const n = total;
  if (nouns.length === 1) {
    const { kind, label: l } = nouns[0]!;
    // One event with several of them: the headline counts them ("I saw three people", never "someone"
    // above "Three people walked up …", nor "a car" above "18 silver cars").
    const most = n === 1 ? mostAtOnce(found, q, kind) : 1;
    if (most > 1) {
      const noun = nounFor(kind, l);
      const many = `${most < 13 ? numberWord(most, ctx.language) : most} ${noun[ctx.language].other}`;
      return en ? `${saw} ${tail([many, where, when])}:` : `Ich habe ${tail([when, many, where])} gesehen:`;
    }
    if (kind === 'person') {
      if (n === 1)
        return en
          ? `${saw} someone ${tail([where, when])}:`
          : `Ich habe ${tail([when, 'jemanden', where])} gesehen:`;
      return en
        ? `${saw} people ${tail([where, times(n, 'en'), when])}:`
        : `Ich habe ${tail([when, times(n, 'de'), 'Personen', where])} gesehen:`;
    }
    const noun = nounFor(kind, l);
    if (n === 1) {
      const enOne = `${enArticle(noun.en.one)} ${noun.en.one}`;
      const deOne = `${{ m: 'einen', f: 'eine', n: 'ein' }[noun.de.gender]} ${noun.de.one}`;
      return en ? `${saw} ${tail([enOne, where, when])}:` : `Ich habe ${tail([when, deOne, where])} gesehen:`;
    }
    return en
      ? `${saw} ${tail([noun.en.other, where, times(n, 'en'), when])}:`
      : `Ich habe ${tail([when, times(n, 'de'), noun.de.other, where])} gesehen:`;
  }
  if (en) {
    const [was, were] = soFar ? ['has been', 'have been'] : ['was', 'were'];
    const events = n === 1 ? `${was} one event` : `${were} ${numberWord(n, 'en')} events`;
    return `There ${tail([events, where, when])}:`;
  }
  const events = n === 1 ? 'ein Ereignis' : `${numberWord(n, 'de')} Ereignisse`;
  return `Es gab ${tail([when, events, where])}:`;
}

/** "Recognised: Rose (2×), Bella." over everything found (not only the cited moments). */
function recognisedLine(found: FoundActivity[], language: Language): string | undefined {
  const counts = new Map<string, number>();
  for (const a of found) {
    const names = new Set(a.recognised.map((r) => r.name.trim()).filter(Boolean));
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return undefined;
  const list = [...counts].map(([name, n]) => (n > 1 ? `${name} (${n}×)` : name));
  return `${language === 'en' ? 'Recognised' : 'Erkannt'}: ${joinList(list, language)}.`;
}

/** The stored sentence when it is in the answer's language, else one composed from the facts. */
export function sentenceOf(a: FoundActivity, ctx: Pick<AnswerContext, 'language' | 'timezone'>): string {
  const stored = ctx.language === 'en' ? a.description : (a.descriptionLocalized ?? undefined);
  if (stored?.trim()) return stored.trim();
  return describeActivity(
    {
      cameraName: a.cameraName,
      occurredAt: a.occurredAt,
      timezone: ctx.timezone,
      objects: a.objects,
      recognised: a.recognised,
      mediaKind: a.mediaKind,
    },
    ctx.language,
  );
}

function section(
  q: Search,
  ctx: AnswerContext,
  label: WindowLabel,
  found: FoundActivity[],
  limit: number,
  count: number,
  siteId?: string,
) {
  const cited = pickCited(q, found, limit);
  const today = localDayNumber(ctx.now, ctx.timezone);
  const needDay =
    label.type !== 'day' && found.some((a) => localDayNumber(a.occurredAt, ctx.timezone) !== today);
  const lines = [headline(q, ctx, label, found, count, siteId)];
  for (const a of cited) {
    const day = needDay ? `${dayName(a.occurredAt, ctx.now, ctx.timezone, ctx.language)}: ` : '';
    lines.push(`• ${day}${sentenceOf(a, ctx)}`);
  }
  const more = count - cited.length;
  if (more > 0) lines.push(ctx.language === 'en' ? `…and ${more} more.` : `… und ${more} weitere.`);
  if (!q.memoryIds?.length) {
    const recognised = recognisedLine(found, ctx.language);
    if (recognised) lines.push(recognised);
  }
  return { lines, cited };
}

function notesLines(ctx: AnswerContext): string[] {
  const notes = (ctx.notes ?? []).map((n) => n.trim()).filter(Boolean);
  if (notes.length === 0) return [];
  const quoted = notes.map((n) => (ctx.language === 'en' ? `“${n}”` : `„${n}“`));
  return [`${ctx.language === 'en' ? 'From your notes' : 'Aus deinen Notizen'}: ${quoted.join(' ')}`];
}

/** The answer to a search, from the activities it found (newest first, as the search returns them). */
export function composeAnswer(q: Search, found: FoundActivity[], ctx: AnswerContext): ComposedAnswer {
  const label: WindowLabel = q.window ?? { type: 'recent', amount: 24, unit: 'hour', implicit: true };
  const instead = timingReply(q, ctx);
  if (instead) return { text: [instead, ...notesLines(ctx)].join('\n'), cited: [] };
  if (found.length === 0) {
    const text = [capitalise(nothingSentence(q, ctx, label)), ...notesLines(ctx)].join('\n');
    return { text, cited: [] };
  }
  if (!ctx.groupByProperty) {
    const count = Math.max(found.length, ctx.total ?? 0);
    const { lines, cited } = section(q, ctx, label, found, MAX_CITED, count);
    return {
      text: [...lines.map((l, i) => (i === 0 ? capitalise(l) : l)), ...notesLines(ctx)].join('\n'),
      cited,
    };
  }
  // Several properties, none named: each is spoken of on its own, so their contexts never mix (docs/product.md §1).
  const bySite = new Map<string, FoundActivity[]>();
  for (const a of found) {
    const key = a.siteId ?? '';
    bySite.set(key, [...(bySite.get(key) ?? []), a]);
  }
  const noProperty = ctx.language === 'en' ? 'No property' : 'Kein Objekt';
  const groups = [...bySite].sort(([a], [b]) =>
    (ctx.siteNames[a] ?? noProperty).localeCompare(ctx.siteNames[b] ?? noProperty),
  );
  // The five citations are shared out: the same number each, the rest to the busiest properties.
  const limits = new Map(groups.map(([siteId]) => [siteId, Math.floor(MAX_CITED / groups.length)]));
  const busiest = [...groups].sort(([, a], [, b]) => b.length - a.length);
  for (let i = 0; i < MAX_CITED % groups.length; i++) {
    const siteId = busiest[i]![0];
    limits.set(siteId, limits.get(siteId)! + 1);
  }
  const blocks: string[] = [];
  const cited: FoundActivity[] = [];
  for (const [siteId, list] of groups) {
    const { lines, cited: groupCited } = section(
      q,
      ctx,
      label,
      list,
      limits.get(siteId)!,
      list.length,
      siteId || undefined,
    );
    cited.push(...groupCited);
    const name = ctx.siteNames[siteId] ?? noProperty;
    blocks.push([`${name}: ${lines[0]!}`, ...lines.slice(1)].join('\n'));
  }
  return { text: [...blocks, ...notesLines(ctx)].join('\n\n'), cited };
}
