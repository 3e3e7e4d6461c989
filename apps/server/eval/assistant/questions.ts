/**
 * The eval's question set (`questions.json`): its shape, its variety, and how one answer is scored. No server
 * here, so the shape and variety checks run as a fast unit test (scripts/eval-assistant.test.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KINDS = [
  'events',
  'time',
  'unseen',
  'cannot_detect',
  'count',
  'household',
  'remember',
  'correction',
  'smalltalk',
  'off_topic',
  'unclear',
  'follow_up',
  'near_match',
  'live',
  'refusal',
  'away',
  'reply',
] as const;
export type Kind = (typeof KINDS)[number];

export interface Question {
  id: string;
  lang: 'en' | 'de';
  kind: Kind;
  q: string;
  /** "now", "now+2h", "now+7h15m", or a Berlin wall time on the household's day ("10:15", "+1d 08:00"). */
  ask_at: string;
  /** Asked before `q`, in the same conversation, a minute apart. */
  thread?: string[];
  /** `q` is a reply to the alert about this planted event (household.ts EVENTS key), posted just before. */
  reply_to?: string;
  /** Each must appear in a right answer: a phrase (folded, case-insensitive) or "/regex/". */
  must: string[];
  /** None may appear: a phrase or "/regex/". */
  must_not?: string[];
  /** The window asked about had matching events: a "nothing / no one" answer is a false all-clear. */
  window_has_events?: boolean;
  note?: string;
}

export interface QuestionSet {
  about: string;
  questions: Question[];
}

const here = dirname(fileURLToPath(import.meta.url));
export const QUESTIONS_PATH = join(here, 'questions.json');
/**
 * Questions written before the code was changed for them (issue 32) and scored on their own, so a fix tuned
 * to the main set shows whether it carries over to how people really ask.
 */
export const HELD_OUT_PATH = join(here, 'questions.heldout.json');

export function loadQuestions(path = QUESTIONS_PATH): Question[] {
  return (JSON.parse(readFileSync(path, 'utf8')) as QuestionSet).questions;
}

/** The main set and the held-out one, each question marked with where it comes from. */
export function loadAllQuestions(): (Question & { heldOut: boolean })[] {
  return [
    ...loadQuestions().map((q) => ({ ...q, heldOut: false })),
    ...loadQuestions(HELD_OUT_PATH).map((q) => ({ ...q, heldOut: true })),
  ];
}

/**
 * Lower case, accents and umlauts folded (ü → u), ß → ss, punctuation to spaces. The scorer's own, not
 * language/fold.ts: what judges the answers must not share the parser's reading of text.
 */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[’']/g, "'")
    .replace(/[^\p{L}\p{N}':]+/gu, ' ')
    .trim();
}

/** A `must` / `must_not` entry as a test on an answer. */
export function matcher(entry: string): (answer: string) => boolean {
  const re = /^\/(.+)\/([a-z]*)$/s.exec(entry);
  if (re) {
    const pattern = new RegExp(re[1]!, re[2]!.includes('i') ? re[2] : `${re[2]}i`);
    return (answer) => pattern.test(answer) || pattern.test(fold(answer));
  }
  const phrase = fold(entry);
  return (answer) => ` ${fold(answer)} `.includes(phrase.length <= 3 ? ` ${phrase} ` : phrase);
}

const ASK_AT = /^(now(\+(\d+h)?(\d+m)?)?|(\+\d+d )?\d{1,2}:\d{2})$/;

/** Shape problems of the set, one line each (empty: fine). */
export function shapeProblems(questions: Question[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const item of questions) {
    const at = `${item.id ?? '?'}: `;
    if (!item.id || ids.has(item.id)) problems.push(`${at}missing or duplicate id`);
    ids.add(item.id);
    if (item.lang !== 'en' && item.lang !== 'de') problems.push(`${at}lang must be en or de`);
    if (!KINDS.includes(item.kind)) problems.push(`${at}unknown kind ${String(item.kind)}`);
    if (typeof item.q !== 'string' || item.q.trim().length < 2) problems.push(`${at}no question`);
    if (typeof item.ask_at !== 'string' || !ASK_AT.test(item.ask_at)) problems.push(`${at}bad ask_at`);
    if (!Array.isArray(item.must) || item.must.length === 0) problems.push(`${at}no must`);
    for (const m of [...(item.must ?? []), ...(item.must_not ?? [])]) {
      try {
        matcher(m);
      } catch {
        problems.push(`${at}bad pattern ${m}`);
      }
    }
    if (item.kind === 'follow_up' && !item.thread?.length) problems.push(`${at}a follow-up needs a thread`);
    if (item.kind === 'reply' && !item.reply_to) problems.push(`${at}a reply needs reply_to (an event key)`);
    if (item.window_has_events && !(item.must_not ?? []).length)
      problems.push(`${at}a window with events needs must_not (the all-clear it must not give)`);
  }
  return problems;
}

export interface Variety {
  total: number;
  byLang: Record<string, number>;
  byKind: Record<string, number>;
  /** Share of distinct first three folded words. */
  distinctOpenings: number;
  /** Share of distinct questions once names and objects are replaced by a placeholder. */
  distinctTemplates: number;
  withTypos: number;
  problems: string[];
}

/** Nouns a lazy set would swap in the same sentence: cameras, places, people, objects. */
const SWAPPABLE =
  /\b(front door|door|haustur|tur|driveway|einfahrt|backyard|garten|cabin porch|porch|cabin|hutte|home|zu hause|barack|michelle|tom|person|people|someone|anyone|jemand|car|cars|auto|autos|truck|dog|hund|cat|katze|bear|bar|fox|fuchs|package|paket|delivery|lieferung|bike|fahrrad)\b/g;

/** Checks the set is varied: both languages, every kind ≥ 5, openings and templates mostly distinct. */
export function variety(questions: Question[], typoIds: Set<string> = new Set()): Variety {
  const byLang: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  const openings = new Set<string>();
  const templates = new Set<string>();
  for (const item of questions) {
    byLang[item.lang] = (byLang[item.lang] ?? 0) + 1;
    byKind[item.kind] = (byKind[item.kind] ?? 0) + 1;
    const words = fold(item.q).split(' ').filter(Boolean);
    openings.add(words.slice(0, 3).join(' '));
    templates.add(fold(item.q).replace(SWAPPABLE, '_'));
  }
  const total = questions.length;
  const v: Variety = {
    total,
    byLang,
    byKind,
    distinctOpenings: openings.size / Math.max(1, total),
    distinctTemplates: templates.size / Math.max(1, total),
    withTypos: typoIds.size,
    problems: [],
  };
  if (total < 150) v.problems.push(`only ${total} questions (at least 150)`);
  const de = (byLang.de ?? 0) / Math.max(1, total);
  if (!byLang.en || !byLang.de) v.problems.push('both English and German questions are needed');
  else if (de < 0.25 || de > 0.45) v.problems.push(`German share ${(de * 100).toFixed(0)} % (about a third)`);
  for (const k of KINDS)
    if ((byKind[k] ?? 0) < 5) v.problems.push(`kind ${k}: ${byKind[k] ?? 0} questions (at least 5)`);
  if (v.distinctOpenings < 0.6)
    v.problems.push(`distinct openings ${(v.distinctOpenings * 100).toFixed(0)} % (at least 60 %)`);
  if (v.distinctTemplates < 0.95)
    v.problems.push(
      `distinct templates ${(v.distinctTemplates * 100).toFixed(0)} % (at least 95 %: same sentence, swapped noun)`,
    );
  return v;
}

// ------------------------------------------------------------------------------------------------ scoring

export type Verdict = 'right' | 'half' | 'wrong' | 'unhelpful' | 'hallucinated';

export interface HouseholdFacts {
  cameras: string[];
  sites: string[];
  people: string[];
  /** Activity ids the household has. */
  activityIds: Set<string>;
  /** Clock times ("3:04", "03:04", "15:04") of events, the ask time and the whole/half hours are allowed. */
  eventTimes: Date[];
  timezone: string;
}

export interface Scored {
  verdict: Verdict;
  falseAllClear: boolean;
  recap: boolean;
  reasons: string[];
}

/** "I didn't see …", "nothing", "no one", "Ich habe niemanden gesehen", "nichts" … */
const ALL_CLEAR =
  /\b(didn'?t see|did not see|haven'?t seen|not seen|saw nothing|nothing|no one|nobody|no events?|no activity|all quiet|keine?n? (ereignisse|bewegung|personen|autos?)|niemand(en)?|nichts)\b/i;
/**
 * The generic recap every misunderstood question used to get: an answer that *opens* with the listing of the
 * last 24 hours ("There were six events in the last 24 hours:" then moments, maybe after a property's name).
 * One that opens with its own answer ("No bear was seen …; the cameras saw … instead:", "I don't know a
 * Michelle …") and then lists the moments as evidence is not the recap. A recap that misses some of what it
 * must say is unhelpful rather than half right (one that says all of it is right: the window was the default
 * one).
 */
const RECAP = /^(?:[^\n•]*:[ \t])?[^\n•]*(last 24 hours|letzten 24 stunden)[^\n•]*\n\s*•/i;
/**
 * Only a plain question about events may be answered by a listing of the default 24 hours; for a question
 * with its own time, a count, a follow-up or anything else that listing is the recap, unhelpful.
 */
const RECAP_MAY_ANSWER = new Set<Kind>(['events']);
/** An English answer to a German question (or the reverse): at most half right; German questions want German. */
const ENGLISH_WORDS = /\b(the|your|you|i|i'm|is|are|of|and|what|did|saw|there|none|sorry|it)\b/g;
const GERMAN_WORDS =
  /\b(der|die|das|du|ich|ist|sind|und|von|habe|deine?|nicht|wurde|wurden|es|gab|keine?)\b/g;
function languageOfAnswer(text: string): 'en' | 'de' | undefined {
  const folded = fold(text);
  const en = folded.match(ENGLISH_WORDS)?.length ?? 0;
  const de = folded.match(GERMAN_WORDS)?.length ?? 0;
  if (en === de) return undefined;
  return en > de ? 'en' : 'de';
}
/** Names the answers must never make up: people, and cameras or places the household does not have. */
const FOREIGN_PEOPLE = [
  'Michelle',
  'Tom',
  'Anna',
  'Peter',
  'Sarah',
  'John',
  'Maria',
  'Lisa',
  'Thomas',
  'Rose',
  'Klaus',
  'Emma',
];
const FOREIGN_PLACES = [
  'Back Door',
  'Garage',
  'Side Gate',
  'Patio',
  'Deck',
  'Kitchen',
  'Living Room',
  'Garden Gate',
  'Beach House',
  'Office',
  'Hintertür',
  'Terrasse',
];

function clockTimes(text: string): { h: number; m: number }[] {
  const out: { h: number; m: number }[] = [];
  for (const m of text.matchAll(/\b(\d{1,2}):(\d{2})\s*(AM|PM)?/gi)) {
    let h = Number(m[1]);
    const min = Number(m[2]);
    const ap = m[3]?.toUpperCase();
    if (ap === 'PM' && h < 12) h += 12;
    if (ap === 'AM' && h === 12) h = 0;
    out.push({ h, m: min });
  }
  return out;
}

function wall(at: Date, timeZone: string): { h: number; m: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  return {
    h: Number(parts.find((p) => p.type === 'hour')!.value),
    m: Number(parts.find((p) => p.type === 'minute')!.value),
  };
}

/** Scores one answer. `asked` holds the question and its thread (names said there may be repeated). */
export function score(
  item: Question,
  answer: { text: string; cited: string[] },
  facts: HouseholdFacts,
  askedAt: Date,
): Scored {
  const reasons: string[] = [];
  const text = answer.text;
  const asked = fold([item.q, ...(item.thread ?? [])].join(' '));
  // Hallucinations: a cited event the household does not have, a name or place it does not know, a time of
  // day no event, window or question has.
  for (const id of answer.cited) if (!facts.activityIds.has(id)) reasons.push(`cites unknown activity ${id}`);
  const said = ` ${fold(text)} `;
  for (const name of FOREIGN_PEOPLE)
    if (said.includes(` ${fold(name)} `) && !facts.people.includes(name)) {
      const inQuestion = ` ${asked} `.includes(` ${fold(name)} `);
      // Naming someone the user asked about is fine only to say they are not known / not seen.
      if (!inQuestion) reasons.push(`names ${name}, who is not in the household`);
    }
  for (const place of FOREIGN_PLACES)
    if (said.includes(` ${fold(place)} `) && !` ${asked} `.includes(` ${fold(place)} `))
      reasons.push(`names "${place}", which the household does not have`);
  const allowed = [...facts.eventTimes, askedAt].map((d) => wall(d, facts.timezone));
  for (const t of clockTimes(text)) {
    const ok =
      t.m === 0 ||
      t.m === 30 ||
      allowed.some((a) => a.h === t.h && Math.abs(a.m - t.m) <= 1) ||
      asked.includes(`${t.h}:${String(t.m).padStart(2, '0')}`);
    if (!ok) reasons.push(`gives the time ${t.h}:${String(t.m).padStart(2, '0')}, which no event has`);
  }
  const recap = RECAP.test(text) && !/24|day|tag/i.test(item.q);
  const language = languageOfAnswer(text);
  if (language && language !== item.lang)
    reasons.push(`answered in ${language === 'en' ? 'English' : 'German'}`);
  const falseAllClear = Boolean(item.window_has_events) && ALL_CLEAR.test(text) && answer.cited.length === 0;
  const mustHits = item.must.filter((m) => matcher(m)(text)).length;
  const mustNotHits = (item.must_not ?? []).filter((m) => matcher(m)(text));
  let verdict: Verdict;
  const invented = reasons.filter((r) => !r.startsWith('answered in'));
  if (invented.length > 0) verdict = 'hallucinated';
  else if (recap && (mustHits === 0 || !RECAP_MAY_ANSWER.has(item.kind)) && !falseAllClear) {
    verdict = 'unhelpful';
    reasons.push('the generic recap');
  } else if (mustNotHits.length > 0 || falseAllClear) {
    verdict = 'wrong';
    if (falseAllClear) reasons.push('false all-clear');
    for (const m of mustNotHits) reasons.push(`contains ${m}`);
  } else if (mustHits === item.must.length && !reasons.length) verdict = 'right';
  else if (mustHits === item.must.length) verdict = 'half';
  else if (mustHits > 0 && !recap) {
    verdict = 'half';
    reasons.push(`misses ${item.must.filter((m) => !matcher(m)(text)).join(' · ')}`);
  } else {
    verdict = 'unhelpful';
    reasons.push(recap ? 'the generic recap' : 'none of what it must say');
  }
  return { verdict, falseAllClear, recap, reasons };
}

/** The instant an `ask_at` means, for a household whose now is `now` (Berlin wall times, +01:00 in November). */
export function askInstant(askAt: string, now: Date, offset = '+01:00'): Date {
  if (askAt === 'now') return now;
  const rel = /^now\+(?:(\d+)h)?(?:(\d+)m)?$/.exec(askAt);
  if (rel) return new Date(now.getTime() + (Number(rel[1] ?? 0) * 60 + Number(rel[2] ?? 0)) * 60_000);
  const wallTime = /^(?:\+(\d+)d )?(\d{1,2}):(\d{2})$/.exec(askAt);
  if (!wallTime) throw new Error(`bad ask_at ${askAt}`);
  const day = new Date(now.getTime());
  const iso = new Date(
    `${day.toISOString().slice(0, 10)}T${wallTime[2]!.padStart(2, '0')}:${wallTime[3]}:00${offset}`,
  );
  return new Date(iso.getTime() + Number(wallTime[1] ?? 0) * 86_400_000);
}
