/**
 * Watch requests as people phrase them, English and German (docs/assistant.md, "Watch requests"): "tell me
 * when a car arrives in the driveway in the next two hours", "text me if anyone is at the cabin tonight",
 * "sag mir Bescheid, wenn heute Abend jemand an der Hütte ist", "every time someone is at the door, text me";
 * "what are you watching for?" / "Worauf achtest du?"; "stop", "cancel that", "forget the driveway watch",
 * "hör auf". Part of the intent step (intent.ts). What to watch for (kinds, labels, memories, cameras,
 * properties) is read by the question parser, so names, aliases across languages and typos work the same;
 * the time is read forwards from now, unlike a question's.
 */
import { detectLanguage } from './detect.js';
import {
  instantOnDay,
  localDayNumber,
  localHour,
  zoneOrUtc,
  fold,
  type Language,
  type ObjectKind,
  numberFromWord,
} from '../language/language.module.js';
import { parseQuestion, type QuestionContext } from './question.js';
import { fixTypos } from './words.js';

/** How long a watch lasts when no time was said. */
export const DEFAULT_WATCH_HOURS = 24;

export type WatchRepeat = 'once' | 'every_time';
/** `sms`: "text me" (a text, as the user's settings allow); `usual`: "tell me", the user's alert channels. */
export type WatchChannel = 'sms' | 'usual';

/** What to watch for and where, as the question parser read it (empty: anything worth an alert). */
export interface WatchSubject {
  kinds?: ObjectKind[];
  labels?: string[];
  memoryIds?: string[];
  cameraNames?: string[];
  siteIds?: string[];
}

export interface WatchRequest extends WatchSubject {
  from: Date;
  to: Date;
  /** No time was said: the watch lasts DEFAULT_WATCH_HOURS (the reply says so). */
  defaulted: boolean;
  repeat: WatchRepeat;
  channel: WatchChannel;
  language: Language;
}

/** Which watch a "stop" means: the latest (bare "stop"), all, or those naming a place or subject. */
export type WatchTarget = { type: 'latest' } | { type: 'all' } | ({ type: 'named' } & WatchSubject);

export type WatchAction =
  | { action: 'create'; request: WatchRequest }
  /** The window asked for is over already ("yesterday", "this morning" asked at 2 PM). */
  | { action: 'refuse_past'; language: Language }
  | { action: 'list'; language: Language }
  | { action: 'cancel'; target: WatchTarget; language: Language };

const w = (list: string) => new RegExp(`(?<![a-z0-9])(?:${list})(?![a-z0-9])`);

// ---- creating ------------------------------------------------------------------------------------------

const WHEN = '(?:when|whenever|if|once|as soon as|the moment|wenn|ob|sobald|falls|sowie)';
const ASK_EN =
  '(?:(?:please|pls|can you|could you|would you|will you|ok|okay|and|hey)\\s+)*' +
  '(?:tell me|let me know|text me|message me|notify me|alert me|ping me|warn me|send me (?:a |an )?(?:text|sms|message|alert)|' +
  'give me a (?:shout|heads up)|sms me)';
const ASK_DE =
  '(?:(?:bitte|kannst du|konntest du|ok|okay|und|hey)\\s+)*' +
  '(?:sag(?:e)? mir(?: bitte)?(?: bescheid)?|gib mir(?: bitte)? bescheid|schreib(?:e)? mir|sms mir|' +
  'schick(?:e)? mir (?:eine )?(?:sms|nachricht)|benachrichtige mich|informier(?:e)? mich|melde dich|' +
  'warne mich|sag bescheid)';
const ASK = new RegExp(`^(?:${ASK_EN}|${ASK_DE})(?:\\s+(?:please|bitte))?\\s+${WHEN}\\b`);
/** "every time someone is at the door, text me": the condition first, the ask after it. */
const CONDITION_FIRST = new RegExp(
  `^(?:every time|each time|whenever|if|when|once|as soon as|jedes mal wenn|immer wenn|wenn|sobald|falls)\\b.*\\b(?:${ASK_EN}|${ASK_DE})$`,
);
/** "watch for cars in the driveway", "keep an eye out for the dog", "pass auf, ob jemand kommt". */
const WATCH_FOR = new RegExp(
  '^(?:(?:please|bitte)\\s+)?(?:watch (?:out )?for|keep an eye out for|look out for|be on the lookout for|' +
    'pass auf(?: ob| wenn)?|achte darauf(?: ob| wenn)?|achte auf)\\b',
);
const EVERY_TIME = w(
  'every time|each time|whenever|everytime|every single time|jedes mal|jedesmal|immer wenn|immer dann wenn',
);
const TEXT_ME = w(
  'text me|sms|send me a text|schreib(?:e)? mir|sms mir|schick(?:e)? mir (?:eine )?(?:sms|nachricht)|' +
    'message me|send me a message',
);
/** A condition in the past is a question ("let me know if anyone came yesterday"), not a watch. */
const PAST = w(
  'came|was|were|did|had|happened|arrived|visited|showed up|stopped by|been|war|waren|kam|kamen|gewesen|' +
    'gekommen|passiert|gab',
);

// ---- listing and cancelling ----------------------------------------------------------------------------

const LIST = new RegExp(
  '^(?:(?:so|and|ok|und)\\s+)?(?:what|which|wat)\\s+(?:are|r)\\s+(?:you|u)\\s+(?:watching|keeping an eye on|looking out for|on the lookout for)(?:\\s+for)?(?:\\s+(?:now|right now|at the moment))?$|' +
    '^(?:what|which|list|show)(?: are| me)?\\s+(?:my|the|your)?\\s*(?:active\\s+)?watch(?:es| requests)\\b|^(?:my|active) watches$|' +
    '^(?:worauf|wonach)\\s+(?:achtest|passt|schaust)\\s+du(?:\\s+(?:gerade|jetzt|auf))*$|' +
    '^was\\s+(?:beobachtest|uberwachst)\\s+du(?:\\s+(?:gerade|jetzt))?$|^(?:meine|aktive) (?:beobachtungen|wachauftrage)$',
);
const CANCEL_VERB =
  '(?:please\\s+|bitte\\s+|ok\\s+|okay\\s+|no\\s+|nein\\s+)*(?:stop|stopp|cancel|forget|end|halt|quit|never mind|nevermind|' +
  'hor auf|horauf|lass es|vergiss|beende|abbrechen|brich ab)';
const CANCEL_ALL = w('all|everything|every watch|all watches|alle|alles');
const CANCEL = new RegExp(
  `^${CANCEL_VERB}(?:\\s+(?:it|that|this|the watch|this watch|that watch|watching|that one|now|please|bitte|das|es|damit|den auftrag|die beobachtung|zu beobachten|aufzupassen|all|everything|all watches|every watch|alle|alles))*$`,
);
/** "stop watching the driveway", "forget the driveway watch", "cancel the dog watch", "hör auf, auf die Einfahrt zu achten". */
const CANCEL_NAMED = new RegExp(
  `^${CANCEL_VERB}\\s+(?:(?:watching|looking out for|watching for|the|my|den|die|das)\\s+)*(?<what>.+?)(?:\\s+(?:watch|watches|alert|beobachtung|auftrag))?$`,
);
const NAMED_NEEDS = w('watch|watches|watching|looking out|beobachtung|auftrag|achten|aufpassen|beobachten');

// ---- time, read forwards ---------------------------------------------------------------------------------

const NUMBER =
  '\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|ein|eine|einer|zwei|drei|vier|funf|sechs|sieben|acht|neun|zehn|zwolf';
const UNIT = 'minutes?|mins?|hours?|hrs?|h|stunden?|std|minuten?';

function amount(word: string): number | undefined {
  if (/^(a|an|ein|eine|einer)$/.test(word)) return 1;
  return numberFromWord(word.replace('funf', 'fünf').replace('zwolf', 'zwölf'));
}

/** A window read forwards: from (now or later) until; `past` when everything it names is over. */
export type WatchWindow = { from: Date; to: Date } | { past: true };

function hourReading(text: string): { hour: number; minute: number; half?: 'am' | 'pm' } | undefined {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|uhr)?$/.exec(text.trim());
  if (!m) return undefined;
  const hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  if (hour > 24 || minute > 59) return undefined;
  const s = (m[3] ?? '').replace(/\./g, '');
  if (s === 'am') return { hour: hour === 12 ? 0 : hour, minute, half: 'am' };
  if (s === 'pm') return { hour: hour < 12 ? hour + 12 : hour, minute, half: 'pm' };
  return { hour, minute };
}

/** The next moment the clock shows that hour: a bare "until 6" is whichever 6 o'clock comes first. */
function nextAt(c: { hour: number; minute: number; half?: 'am' | 'pm' }, ctx: QuestionContext): Date {
  const zone = zoneOrUtc(ctx.timezone);
  const today = localDayNumber(ctx.now, zone);
  const hours = c.half || c.hour > 12 || c.hour === 0 ? [c.hour] : [c.hour % 12, (c.hour % 12) + 12];
  const candidates = [today, today + 1]
    .flatMap((day) => hours.map((h) => instantOnDay(day, h, c.minute, zone)))
    .filter((at) => at.getTime() > ctx.now.getTime())
    .sort((a, b) => a.getTime() - b.getTime());
  return candidates[0]!;
}

/**
 * The time a watch request names, forwards from now: "in the next two hours", "for the next hour", "until 6",
 * "bis 18 Uhr", "tonight" (18:00 until 06:00; asked in the night, until 06:00), "this evening", "today",
 * "tomorrow", "heute Nacht". Undefined when it names none; `past` for "yesterday", "last night" or a part of
 * today that is over.
 */
export function watchWindow(folded: string, ctx: QuestionContext): WatchWindow | undefined {
  const t = folded.replace(/(\d)(h|hrs?|mins?|std)\b/g, '$1 $2');
  const now = ctx.now;
  const zone = zoneOrUtc(ctx.timezone);
  const today = localDayNumber(now, zone);
  const hourNow = localHour(now, zone);
  const span = (from: Date, to: Date): WatchWindow =>
    to.getTime() <= now.getTime() ? { past: true } : { from: from < now ? now : from, to };

  const next = new RegExp(
    `\\b(?:(?:in|for|within|over|during) (?:the )?)?(?:next|coming|nachste|nachsten|nachster|kommende|kommenden)\\s+(?:(${NUMBER}|couple of|few|paar)\\s+)?(half an? hour|halben stunde|${UNIT})\\b`,
  ).exec(t);
  const forSpan = new RegExp(
    `\\b(?:for|fur)\\s+(${NUMBER})\\s+(${UNIT})\\b|\\b(${NUMBER})\\s+(${UNIT})\\s+lang\\b`,
  ).exec(t);
  if (next || forSpan) {
    const [n, unit] = next
      ? [next[1], next[2]!]
      : forSpan![1]
        ? [forSpan![1], forSpan![2]!]
        : [forSpan![3], forSpan![4]!];
    let minutes: number;
    if (/^half|^halben/.test(unit)) minutes = 30;
    else {
      const count = n === undefined ? 1 : /couple/.test(n) ? 2 : /few|paar/.test(n) ? 3 : (amount(n) ?? 1);
      minutes = count * (/^(min|minute|minuten)/.test(unit) ? 1 : 60);
    }
    if (minutes > 0) return { from: now, to: new Date(now.getTime() + minutes * 60_000) };
  }

  if (
    /\b(yesterday|last night|gestern|vorgestern|letzte nacht|vergangene nacht|this past|last week|letzte woche)\b/.test(
      t,
    )
  )
    return { past: true };

  const until =
    /\b(?:until|till|til|up to|bis(?: um)?)\s+(\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?|uhr)?|midnight|mitternacht|noon|mittag)(?![\d:])/.exec(
      t,
    );
  if (until) {
    const word = until[1]!;
    if (/midnight|mitternacht/.test(word)) return span(now, instantOnDay(today + 1, 0, 0, zone));
    if (/noon|mittag/.test(word)) return span(now, nextAt({ hour: 12, minute: 0, half: 'pm' }, ctx));
    const c = hourReading(word);
    if (c) return span(now, nextAt(c, ctx));
  }

  const tomorrow = /\b(tomorrow|ubermorgen)\b/.test(t) || /(?<!(?:heute|gestern|am)\s)\bmorgen\b/.test(t);
  const night = /\b(tonight|heute nacht|diese nacht|overnight|over night|uber nacht|in der nacht)\b/.test(t);
  const part = /\b(this morning|heute morgen|heute fruh|heute vormittag)\b/.test(t)
    ? 'morning'
    : /\b(this afternoon|heute nachmittag)\b/.test(t)
      ? 'afternoon'
      : /\b(this evening|heute abend)\b/.test(t)
        ? 'evening'
        : undefined;
  if (night) {
    // In the small hours "tonight" is the night in progress, until 6 AM.
    const start = hourNow < 6 ? today - 1 : today;
    return span(instantOnDay(start, 18, 0, zone), instantOnDay(start + 1, 6, 0, zone));
  }
  if (part) {
    const [a, b] = { morning: [0, 12], afternoon: [12, 18], evening: [18, 24] }[part] as [number, number];
    return span(instantOnDay(today, a, 0, zone), instantOnDay(today, b, 0, zone));
  }
  if (tomorrow) {
    const day = /\bubermorgen\b/.test(t) ? today + 2 : today + 1;
    return span(instantOnDay(day, 0, 0, zone), instantOnDay(day + 1, 0, 0, zone));
  }
  if (/\b(today|heute)\b/.test(t)) return span(now, instantOnDay(today + 1, 0, 0, zone));
  return undefined;
}

/** Words of the list and stop phrases only German uses ("Worauf achtest du?", "hör auf"). */
const GERMAN_ONLY = w(
  'worauf|wonach|achtest|passt du|beobachtest|uberwachst|beobachtungen|hor auf|horauf|stopp|vergiss|beende|' +
    'abbrechen|brich ab|lass es|bescheid|sag mir|schreib mir|jedes mal',
);

// ---- the whole message -----------------------------------------------------------------------------------

function subjectOf(text: string, ctx: QuestionContext): WatchSubject {
  const q = parseQuestion(text, ctx);
  return {
    ...(q.kinds?.length ? { kinds: q.kinds } : {}),
    ...(q.labels?.length ? { labels: q.labels } : {}),
    ...(q.memoryIds?.length ? { memoryIds: q.memoryIds } : {}),
    ...(q.cameraNames?.length ? { cameraNames: q.cameraNames } : {}),
    ...(q.siteIds?.length && !q.cameraNames?.length ? { siteIds: q.siteIds } : {}),
  };
}

/** A watch to create, list or cancel, or undefined when the message is none of these. */
export function watchOf(text: string, ctx: QuestionContext): WatchAction | undefined {
  const names = [
    ...ctx.cameras.map((c) => c.name),
    ...ctx.sites.map((s) => s.name),
    ...ctx.memories.map((m) => m.name),
  ];
  const folded = fixTypos(fold(text), names)
    .replace(/[?!.,;:"“”„«»()]+/g, ' ')
    .replace(/\s+-\s+|\s+–\s+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!folded) return undefined;
  const language = GERMAN_ONLY.test(folded) ? 'de' : (detectLanguage(text) ?? ctx.language);

  if (LIST.test(folded)) return { action: 'list', language };
  if (CANCEL.test(folded))
    return {
      action: 'cancel',
      target: CANCEL_ALL.test(folded) ? { type: 'all' } : { type: 'latest' },
      language,
    };
  const named = CANCEL_NAMED.exec(folded);
  if (named && NAMED_NEEDS.test(folded)) {
    const subject = subjectOf(named.groups!.what!, ctx);
    if (Object.keys(subject).length > 0)
      return { action: 'cancel', target: { type: 'named', ...subject }, language };
    if (CANCEL_ALL.test(named.groups!.what!)) return { action: 'cancel', target: { type: 'all' }, language };
  }

  if (!ASK.test(folded) && !CONDITION_FIRST.test(folded) && !WATCH_FOR.test(folded)) return undefined;
  // "let me know if anyone came yesterday" asks about the past.
  if (PAST.test(folded)) return undefined;

  const window = watchWindow(folded, ctx);
  if (window && 'past' in window) return { action: 'refuse_past', language };
  const from = window?.from ?? ctx.now;
  const to = window?.to ?? new Date(ctx.now.getTime() + DEFAULT_WATCH_HOURS * 3_600_000);
  return {
    action: 'create',
    request: {
      ...subjectOf(text, ctx),
      from,
      to,
      defaulted: window === undefined,
      repeat: EVERY_TIME.test(folded) ? 'every_time' : 'once',
      channel: TEXT_ME.test(folded) ? 'sms' : 'usual',
      language,
    },
  };
}
