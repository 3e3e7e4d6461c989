/**
 * Faces that keep coming back: the unknown faces of the last week grouped by person, the rule that makes a
 * group worth asking about, the offer's words and the owner's answer. Pure functions; the service
 * (recurring-faces.service.ts) reads the faces, crops the photos and talks in the chat.
 */
import { faceDistance, FACE_MATCH_MARGIN, FACE_MATCH_THRESHOLD } from '../recognition/recognition.module.js';

/** The window looked at: the last seven days ("this week"). */
export const RECURRING_WINDOW_DAYS = 7;

/**
 * Sightings of one group closer than this are one visit: a person walking up, ringing and leaving again is
 * seen in several activities (several cameras, consecutive clips), and that is still one visit.
 */
export const VISIT_GAP_MS = 30 * 60_000;

/**
 * A group is offered when it was seen on at least 3 different days of the week, or on at least 2 days with at
 * least 4 visits. One day never counts, however many visits (a party, a tradesman for an afternoon, a
 * delivery round passing twice): nothing there "keeps coming back". Two visits on two days is still chance
 * (a lost courier, a canvasser); three days, or a couple of visits a day on two days (a carer, a dog
 * walker, someone casing the house), is a pattern the owner would want to be asked about.
 */
export const MIN_DAYS = 3;
export const MIN_VISITS_ON_TWO_DAYS = 4;

/** An unknown face of an activity, as stored (`activity_faces` with no memory). */
export interface UnknownFace {
  id: string;
  activityId: string;
  descriptor: number[];
  box: [number, number, number, number];
  occurredAt: Date;
}

export interface FaceGroup {
  faces: UnknownFace[];
  /** The mean of the faces' descriptors. */
  centroid: number[];
  /** Distinct visits (sightings more than VISIT_GAP_MS apart). */
  visits: number;
  /** Distinct days in the owner's time zone. */
  days: number;
  firstSeenAt: Date;
  lastSeenAt: Date;
}

function mean(vectors: number[][]): number[] {
  const out = new Array<number>(vectors[0]?.length ?? 0).fill(0);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]! / vectors.length;
  return out;
}

/** The calendar day of an instant in a time zone (UTC when none or unknown). */
export function dayKey(at: Date, timezone: string | null): string {
  try {
    return at.toLocaleDateString('en-CA', { timeZone: timezone ?? 'UTC' });
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

function visitsOf(faces: UnknownFace[]): number {
  const times = [...new Set(faces.map((f) => f.occurredAt.getTime()))].sort((a, b) => a - b);
  let visits = 0;
  let last = -Infinity;
  for (const t of times) {
    if (t - last > VISIT_GAP_MS) visits++;
    last = t;
  }
  return visits;
}

/**
 * Groups faces by person, the way recognition matches them (face-match.ts): a face joins the group whose
 * centroid is nearest, when that is under FACE_MATCH_THRESHOLD (0.6) and at least FACE_MATCH_MARGIN (0.1)
 * nearer than the next group; a face near two groups alike joins neither (a look-alike must not merge two
 * people); a face near none starts a group. The centroid of a person's faces sits nearer each of them than
 * they sit to each other (0.43–0.47 on the fixtures), while strangers stay 0.74 and more away, so the
 * recogniser's threshold separates groups as it separates memories.
 */
export function groupFaces(faces: readonly UnknownFace[], timezone: string | null): FaceGroup[] {
  const sorted = [...faces].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  const groups: { faces: UnknownFace[]; centroid: number[] }[] = [];
  for (const face of sorted) {
    const ranked = groups
      .map((g) => ({ g, d: faceDistance(face.descriptor, g.centroid) }))
      .sort((a, b) => a.d - b.d);
    const [best, next] = ranked;
    if (best && best.d < FACE_MATCH_THRESHOLD) {
      if (next && next.d - best.d < FACE_MATCH_MARGIN) continue;
      best.g.faces.push(face);
      best.g.centroid = mean(best.g.faces.map((f) => f.descriptor));
    } else groups.push({ faces: [face], centroid: [...face.descriptor] });
  }
  return groups.map((g) => {
    const times = g.faces.map((f) => f.occurredAt.getTime());
    return {
      faces: g.faces,
      centroid: g.centroid,
      visits: visitsOf(g.faces),
      days: new Set(g.faces.map((f) => dayKey(f.occurredAt, timezone))).size,
      firstSeenAt: new Date(Math.min(...times)),
      lastSeenAt: new Date(Math.max(...times)),
    };
  });
}

/** Whether a group kept coming back (see MIN_DAYS). */
export function isRecurring(group: Pick<FaceGroup, 'days' | 'visits'>): boolean {
  return group.days >= MIN_DAYS || (group.days >= 2 && group.visits >= MIN_VISITS_ON_TWO_DAYS);
}

/** A group offered before, as remembered (`recurring_faces`). */
export interface OfferedGroup {
  centroid: number[];
  faceIds: string[];
}

/**
 * Whether a group is one already offered: it shares a face with it (the same sightings, grown since), or
 * its centroid is within the recognition threshold of that one's (the same person seen again). Only a
 * clearly different person is offered anew.
 */
export function wasOffered(group: Pick<FaceGroup, 'faces' | 'centroid'>, offered: OfferedGroup[]): boolean {
  return offered.some(
    (o) =>
      group.faces.some((f) => o.faceIds.includes(f.id)) ||
      faceDistance(group.centroid, o.centroid) < FACE_MATCH_THRESHOLD,
  );
}

type Language = 'en' | 'de';
const lang = (language: string | null | undefined): Language => (language === 'de' ? 'de' : 'en');

/** How the period reads: "this week" when the visits spread over five days or more, else "in the last N days". */
function period(days: number, language: Language): string {
  if (days >= 5) return language === 'de' ? 'diese Woche' : 'this week';
  return language === 'de' ? `in den letzten ${days} Tagen` : `in the last ${days} days`;
}

/**
 * The offer: "Someone I don't know has been here 4 times this week — do you know them?". `spanDays` is
 * the number of calendar days from the first sighting to today.
 */
export function offerText(visits: number, spanDays: number, language: string | null | undefined): string {
  const l = lang(language);
  const when = period(Math.max(2, Math.min(RECURRING_WINDOW_DAYS, spanDays)), l);
  return l === 'de'
    ? `Jemand, den ich nicht kenne, war ${when} ${visits}-mal hier — kennst du die Person? Antworte mit dem Namen („das ist Tom“) oder „nein“.`
    : `Someone I don't know has been here ${visits} times ${when} — do you know them? Reply with their name ("that's Tom") or "no".`;
}

export const ANSWER_REPLIES = {
  en: {
    named: (name: string, photos: number) =>
      photos > 0
        ? `Thanks! I'll remember ${name} (with ${photos} photo${photos === 1 ? '' : 's'}) and name them from now on.`
        : `Thanks! I'll remember ${name}.`,
    dismissed: () => "OK, I won't ask about them again.",
    amnesia: () => "Amnesia mode is on, so I can't remember people right now.",
    recognitionOff: () =>
      'Facial recognition is off, so I can’t learn faces. Turn it on in Settings, then tell me again.',
    exists: (name: string) =>
      `I already know someone called ${name}. Reply "that's ${name}" to one of their alerts, or use another name.`,
  },
  de: {
    named: (name: string, photos: number) =>
      photos > 0
        ? `Danke! Ich merke mir ${name} (mit ${photos} Foto${photos === 1 ? '' : 's'}) und erkenne die Person ab jetzt.`
        : `Danke! Ich merke mir ${name}.`,
    dismissed: () => 'Alles klar, ich frage nicht noch einmal nach dieser Person.',
    amnesia: () => 'Der Amnesie-Modus ist an, deshalb kann ich mir gerade niemanden merken.',
    recognitionOff: () =>
      'Die Gesichtserkennung ist aus, deshalb kann ich keine Gesichter lernen. Schalte sie in den Einstellungen ein und sag es mir noch einmal.',
    exists: (name: string) =>
      `Ich kenne schon jemanden namens ${name}. Antworte mit „das ist ${name}“ auf eine Meldung dieser Person oder nimm einen anderen Namen.`,
  },
} as const;

export function repliesFor(language: string | null | undefined) {
  return ANSWER_REPLIES[lang(language)];
}

/** What the owner answered to an offer. */
export type OfferAnswer =
  | { kind: 'name'; name: string; notes: string | null; language: Language }
  | { kind: 'dismiss'; language: Language };

const LEAD = String.raw`(?:(?:yes|yeah|yep|oh|ah|ja|ach|oh ja|na klar|klar)\s*[,.!]?\s+)?`;
const INTRO =
  String.raw`(?:that'?s|that is|that was|this is|it'?s|it is|it was|he'?s|he is|she'?s|she is|they'?re|they are|` +
  String.raw`das ist|das war|dies ist|es ist|er ist|sie ist|das ist der|das ist die)`;
const NAME_WORD = String.raw`\p{L}[\p{L}\p{M}'.-]*`;
const NAME = String.raw`(${NAME_WORD}(?:\s+${NAME_WORD}){0,2}?)`;
/** What may follow the name: a clause about them ("Tom, my neighbour", "Tom (the gardener)", "Tom - Nachbar"). */
const REST = String.raw`(?:\s*(?:[,;:(—–-]|\s(?=(?:my|our|the|from|who|mein|meine|unser|unsere|der|die|von|aus)\b))\s*(.*))?`;

const NOT_NAMES = new Set(
  [
    'great',
    'fine',
    'ok',
    'okay',
    'right',
    'good',
    'nice',
    'cool',
    'true',
    'correct',
    'nobody',
    'no one',
    'someone',
    'somebody',
    'him',
    'her',
    'them',
    'it',
    'me',
    'niemand',
    'jemand',
    'gut',
    'richtig',
    'egal',
    'unknown',
    'unbekannt',
    'a stranger',
    'ein fremder',
    'thanks',
    'thank you',
    'what',
    'who',
    'why',
    'how',
    'when',
    'where',
    'hello',
    'hi',
    'hey',
    'maybe',
    'yes',
    'danke',
    'was',
    'wer',
    'wie',
    'wann',
    'wo',
    'warum',
    'hallo',
    'vielleicht',
    'ja',
  ].map((s) => s.toLowerCase()),
);

const DISMISS =
  /^(?:no|nope|nah|no idea|not sure|never mind|nevermind|i don'?t know(?: (?:them|him|her|who that is))?|don'?t know|dunno|i have no idea|no clue|a stranger|nein|nö|ne|keine ahnung|weiß (?:ich )?nicht|ich weiß (?:es )?nicht|kenne? (?:ich )?nicht|ich kenne (?:ihn|sie|die person|den|die) nicht|unbekannt|ein fremder|eine fremde)\b/iu;

function languageOf(text: string): Language {
  return /\b(das|ist|war|nein|keine|weiß|kenne|ich|mein|meine|unser|nicht|der|die)\b/iu.test(text)
    ? 'de'
    : 'en';
}

/**
 * Reads a reply to an offer: a name ("that's Tom, my neighbour", "das ist Tom", "Tom") with what follows it
 * as the memory's notes, or a dismissal ("I don't know", "no", "keine Ahnung"). Anything else is undefined
 * (the assistant answers it as a question).
 */
export function parseOfferAnswer(text: string): OfferAnswer | undefined {
  const clean = text
    .normalize('NFC')
    .replace(/[\u2019\u2018`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?…\p{Extended_Pictographic}\uFE0F]+$/u, '')
    .trim();
  if (!clean) return undefined;
  const language = languageOf(clean);
  const introduced = new RegExp(`^${LEAD}${INTRO}\\s+${NAME}${REST}$`, 'iu').exec(clean);
  const bare = introduced ? undefined : new RegExp(`^${NAME}${REST}$`, 'u').exec(clean);
  const m = introduced ?? bare;
  let name = m?.[1]?.trim().replace(/[.'-]+$/, '');
  let notes = m?.[2]?.replace(/[)\s]+$/, '').trim() || null;
  // "that's my neighbour Tom": the name is the capitalised end, the rest says who they are.
  const described = name ? /^((?:my|our|mein|meine|unser|unsere)\s+\p{L}+)\s+(\p{Lu}.*)$/u.exec(name) : null;
  if (described) {
    name = described[2]!;
    notes = [described[1], notes].filter(Boolean).join(', ');
  }
  // A bare reply is a name only when written as one: every word capitalised, no question.
  const bareName = (n: string) => !text.includes('?') && n.split(' ').every((w) => /^\p{Lu}/u.test(w));
  if (name && !NOT_NAMES.has(name.toLowerCase()) && !DISMISS.test(name)) {
    if (introduced || bareName(name)) {
      const capitalised = name.replace(/(^|\s)(\p{Ll})/gu, (_, s: string, c: string) => s + c.toUpperCase());
      return { kind: 'name', name: capitalised, notes, language };
    }
  }
  if (DISMISS.test(clean)) return { kind: 'dismiss', language };
  return undefined;
}
