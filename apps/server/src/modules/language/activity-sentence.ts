/**
 * The deterministic description of one activity: one short sentence in English or German, built only from
 * what the vision engine detected and recognised. "Rose walked up to the Front Door at 3:12 PM." / "Rose kam
 * um 15:12 zur Haustür." It counts ("Two people"), puts recognised names before strangers ("Rose and an
 * unknown person"), gives vehicles their colour ("A white car") and pets their memory's name ("Your dog
 * Bella"). Nothing detected: "Motion at the Front Door at 3:12 PM."
 */
import type { CameraVerdict } from '../../platform/db/schema.js';
import { formatClock } from './clock.js';
import {
  capitalise,
  colourIn,
  deArticle,
  deMixedEnding,
  enArticle,
  joinList,
  nounFor,
  normaliseLabel,
  numberWord,
  type Language,
  type ObjectKind,
} from './lexicon.js';
import { deByCamera, deInto, deToward, deWhere, enTarget, enWhere, isKnown, placeOf } from './places.js';

export interface DetectedObject {
  kind: ObjectKind;
  /** The detector's class, e.g. "car", "dog". */
  label: string;
  /** Dominant colour in English ("white"), for vehicles. */
  color?: string | null | undefined;
  /** People too small in the frame to count (ActivityObject.background): "people in the background". */
  background?: boolean | undefined;
}

export interface RecognisedName {
  category: 'people' | 'vehicles' | 'animals';
  name: string;
}

/** What is known about one activity; the composer says nothing beyond it. */
export interface ActivityFacts {
  cameraName: string;
  /** The property's name, given when the user has more than one, so the sentence says which. */
  siteName?: string | null | undefined;
  occurredAt: Date;
  /** The user's IANA zone; UTC when unknown. */
  timezone: string | null | undefined;
  /** Distinct things seen (one entry per object, frames already merged). */
  objects: DetectedObject[];
  recognised: RecognisedName[];
  mediaKind: 'image' | 'video' | 'none';
  /** What the camera's maker reported (Nest), said after our sentence and apart from it. */
  cameraVerdict?: readonly CameraVerdict[] | undefined;
}

/** One entry of the sentence's subject: a recognised memory, or a group of alike detections. */
type Subject =
  | { type: 'named'; kind: ObjectKind; name: string; species?: string }
  | { type: 'group'; kind: ObjectKind; label: string; colour?: string; count: number; unknown: boolean };

const KIND_ORDER: ObjectKind[] = ['person', 'vehicle', 'animal'];
const CATEGORY_KIND: Record<RecognisedName['category'], ObjectKind> = {
  people: 'person',
  vehicles: 'vehicle',
  animals: 'animal',
};

/**
 * Recognised memories take the place of one detection of their kind each (a recognised dog lends Bella its
 * species); the rest are grouped by label and colour, most numerous first.
 */
export function subjectsOf(objects: DetectedObject[], recognised: RecognisedName[]): Subject[] {
  const remaining = new Map<ObjectKind, DetectedObject[]>(
    KIND_ORDER.map((k) => [k, objects.filter((o) => o.kind === k && !o.background)]),
  );
  const seen = new Set<string>();
  const named = new Map<ObjectKind, Subject[]>(KIND_ORDER.map((k) => [k, []]));
  for (const r of recognised) {
    const name = r.name.trim();
    const kind = CATEGORY_KIND[r.category];
    const key = `${kind}|${name.toLowerCase()}`;
    if (!name || !kind || seen.has(key)) continue;
    seen.add(key);
    const taken = remaining.get(kind)!.shift();
    const species = kind === 'animal' && taken ? normaliseLabel('animal', taken.label) : undefined;
    named.get(kind)!.push({
      type: 'named',
      kind,
      name,
      ...(species && species !== 'animal' ? { species } : {}),
    });
  }
  const subjects: Subject[] = [];
  for (const kind of KIND_ORDER) {
    subjects.push(...named.get(kind)!);
    const groups = new Map<string, Subject & { type: 'group' }>();
    for (const o of remaining.get(kind)!) {
      const label = normaliseLabel(kind, o.label);
      const colour =
        kind === 'person' ? undefined : (o.color ?? undefined)?.trim().toLowerCase() || undefined;
      const key = `${label}|${colour ?? ''}`;
      const g = groups.get(key);
      if (g) g.count += 1;
      else
        groups.set(key, {
          type: 'group',
          kind,
          label,
          ...(colour ? { colour } : {}),
          count: 1,
          unknown: kind === 'person' && named.get('person')!.length > 0,
        });
    }
    subjects.push(...[...groups.values()].sort((a, b) => b.count - a.count));
  }
  return subjects;
}

const countOf = (s: Subject) => (s.type === 'named' ? 1 : s.count);

/**
 * From this many alike things on, a sentence says "many" (a car park's 18 cars, a queue of people): the exact
 * count of a busy scene is noise in an alert (issue 31 point 12), and detectors miscount crowds anyway.
 */
export const MANY = 6;
const isMany = (s: Subject) => s.type === 'group' && s.count >= MANY;

function enSubject(s: Subject): string {
  if (s.type === 'named') {
    if (s.species) return `your ${nounFor('animal', s.species).en.one} ${s.name}`;
    return s.name;
  }
  const noun = nounFor(s.kind, s.label).en;
  const colour = colourIn(s.colour, 'en');
  const words = [s.unknown ? 'unknown' : undefined, colour, s.count === 1 ? noun.one : noun.other].filter(
    (w): w is string => Boolean(w),
  );
  const phrase = words.join(' ');
  if (isMany(s)) return `many ${phrase}`;
  return s.count === 1 ? `${enArticle(phrase)} ${phrase}` : `${numberWord(s.count, 'en')} ${phrase}`;
}

function deSubject(s: Subject): string {
  if (s.type === 'named') {
    if (s.species) {
      const noun = nounFor('animal', s.species).de;
      return `${noun.gender === 'f' ? 'deine' : 'dein'} ${noun.one} ${s.name}`;
    }
    return s.name;
  }
  const noun = nounFor(s.kind, s.label).de;
  const adjectives = [s.unknown ? 'unbekannt' : undefined, colourIn(s.colour, 'de')].filter(
    (w): w is string => Boolean(w),
  );
  if (s.count === 1) {
    const ending = deMixedEnding(noun.gender);
    return [deArticle(noun.gender), ...adjectives.map((a) => a + ending), noun.one].join(' ');
  }
  if (isMany(s)) return ['viele', ...adjectives.map((a) => `${a}e`), noun.other].join(' ');
  return [numberWord(s.count, 'de'), ...adjectives.map((a) => `${a}e`), noun.other].join(' ');
}

/** "Rose and an unknown person", "Zwei weiße Autos": the subject of a sentence, or of a list entry. */
export function subjectPhrase(
  objects: DetectedObject[],
  recognised: RecognisedName[],
  language: Language,
): string | undefined {
  const subjects = subjectsOf(objects, recognised);
  if (subjects.length === 0) return undefined;
  return joinList(subjects.map(language === 'en' ? enSubject : deSubject), language);
}

function sentenceEn(facts: ActivityFacts, subjects: Subject[], time: string): string {
  const place = placeOf(facts.cameraName, 'en');
  if (subjects.length === 0) return `Motion ${enWhere(place)} at ${time}.`;
  const who = joinList(subjects.map(enSubject), 'en');
  const plural = subjects.reduce((n, s) => n + countOf(s), 0) > 1;
  const kinds = new Set(subjects.map((s) => s.kind));
  if (isKnown(place)) {
    if (kinds.has('person') && !kinds.has('vehicle') && place.known.cls === 'entrance')
      return `${who} walked up to ${enTarget(place)} at ${time}.`;
    // Many cars are parked there, not arriving.
    if (kinds.size === 1 && kinds.has('vehicle') && place.known.drive && !subjects.some(isMany))
      return `${who} pulled into ${enTarget(place)} at ${time}.`;
  }
  return `${who} ${plural ? 'were' : 'was'} seen ${enWhere(place)} at ${time}.`;
}

function sentenceDe(facts: ActivityFacts, subjects: Subject[], time: string): string {
  const place = placeOf(facts.cameraName, 'de');
  if (subjects.length === 0) return `Bewegung ${deWhere(place)} um ${time}.`;
  const who = joinList(subjects.map(deSubject), 'de');
  const plural = subjects.reduce((n, s) => n + countOf(s), 0) > 1;
  const kinds = new Set(subjects.map((s) => s.kind));
  if (!isKnown(place))
    return `${who} ${plural ? 'wurden' : 'wurde'} um ${time} ${deByCamera(place)} erfasst.`;
  if (kinds.has('person') && !kinds.has('vehicle') && place.known.cls === 'entrance')
    return `${who} ${plural ? 'kamen' : 'kam'} um ${time} ${deToward(place)}.`;
  if (kinds.size === 1 && kinds.has('vehicle') && place.known.drive && !subjects.some(isMany))
    return `${who} ${plural ? 'fuhren' : 'fuhr'} um ${time} ${deInto(place)}.`;
  return `${who} ${plural ? 'wurden' : 'wurde'} um ${time} ${deWhere(place)} gesehen.`;
}

/** People in the background only: said as such, never as visitors ("People were seen in the background …"). */
function backgroundOnly(facts: ActivityFacts, n: number, time: string, language: Language): string {
  const place = placeOf(facts.cameraName, language);
  if (language === 'en')
    return `${n === 1 ? 'Someone was' : 'People were'} seen in the background ${enWhere(place)} at ${time}.`;
  if (!isKnown(place))
    return `${n === 1 ? 'Eine Person' : 'Personen'} im Hintergrund ${n === 1 ? 'wurde' : 'wurden'} um ${time} ${deByCamera(place)} erfasst.`;
  return `Im Hintergrund ${n === 1 ? 'war' : 'waren'} um ${time} ${deWhere(place)} ${n === 1 ? 'eine Person' : 'Personen'} zu sehen.`;
}

/** The sentence about who is in the foreground, and a clause for the people behind them. */
function withBackground(sentence: string, language: Language): string {
  const body = sentence.replace(/\.$/, '');
  return language === 'en'
    ? `${body}, with people in the background.`
    : `${body}; im Hintergrund waren weitere Personen.`;
}

/**
 * One short sentence about an activity, in the user's language and time zone. People too small in the frame
 * (ActivityObject.background) are never counted as visitors: "… with people in the background".
 */
export function describeActivity(facts: ActivityFacts, language: Language): string {
  // Nothing was seen, so nothing of ours is said (not even "Motion"): the maker's verdict and why.
  if (facts.mediaKind === 'none')
    return [verdictSentence(facts, language), NO_PICTURE[language]].filter(Boolean).join(' ');
  const subjects = subjectsOf(facts.objects, facts.recognised);
  const behind = facts.objects.filter((o) => o.background).length;
  const time = formatClock(facts.occurredAt, facts.timezone, language);
  const main =
    subjects.length === 0 && behind > 0
      ? backgroundOnly(facts, behind, time, language)
      : language === 'en'
        ? sentenceEn(facts, subjects, time)
        : sentenceDe(facts, subjects, time);
  const sentence = capitalise(subjects.length > 0 && behind > 0 ? withBackground(main, language) : main);
  const site = facts.siteName?.trim();
  const verdict = verdictSentence(facts, language);
  return [site ? `${site}: ${sentence}` : sentence, verdict].filter(Boolean).join(' ');
}

/** Said of an event without media (`mediaKind` none): why there is no picture to look at. */
const NO_PICTURE: Record<Language, string> = {
  en: "No picture: the event reached Homesitter after Google's picture had expired.",
  de: 'Kein Bild: Das Ereignis kam erst bei Homesitter an, als Googles Bild schon abgelaufen war.',
};

/**
 * The camera maker's own verdict in words, as its camera said it, never mixed into what we saw: "Front Door
 * Doorbell reported: the doorbell rang; a person was at the door." A person makes its motion go unsaid.
 */
function verdictSentence(facts: ActivityFacts, language: Language): string {
  const said = new Set(facts.cameraVerdict ?? []);
  if (said.size === 0) return '';
  const rang = said.has('chime');
  const words =
    language === 'en'
      ? {
          chime: 'the doorbell rang',
          person: rang ? 'a person was at the door' : 'a person was there',
          motion: 'something moved',
          sound: 'there was a sound',
          reported: 'reported',
        }
      : {
          chime: 'es hat geklingelt',
          person: rang ? 'eine Person war an der Tür' : 'eine Person war da',
          motion: 'etwas hat sich bewegt',
          sound: 'es gab ein Geräusch',
          reported: 'meldete',
        };
  const parts = (['chime', 'person', 'motion', 'sound'] as const)
    .filter((v) => said.has(v) && !(v === 'motion' && said.has('person')))
    .map((v) => words[v]);
  return `${facts.cameraName} ${words.reported}: ${parts.join('; ')}.`;
}
