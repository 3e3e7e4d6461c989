/**
 * The text of an hourly or daily highlight, from counts by kind, who was recognised and the notable moments:
 * "Today at Home so far: seven events, four with people, one with a vehicle and two with animals. Recognised: Rose and
 * Bella. Unusual: A person walked up to the Porch at 3:12 AM. Nobody has been on the Porch at night in the last
 * 30 days. Notable: Rose walked up to the Front Door at 3:12 PM." Every moment attached is named.
 */
import { dayPhrase, formatClock } from './clock.js';
import { capitalise, joinList, numberWord, type Language } from './lexicon.js';
import { siteWhere } from './places.js';

/** Activities per kind; `other` counts activities where nothing was recognised as a person, vehicle or animal. */
export type SummaryCounts = Partial<Record<'person' | 'vehicle' | 'animal' | 'other', number>>;

export interface SummaryFacts {
  period: 'hourly' | 'daily';
  periodStart: Date;
  periodEnd: Date;
  /** The property covered; null covers cameras without one. */
  siteName?: string | null | undefined;
  timezone: string | null | undefined;
  now: Date;
  /** Activities in the period (one activity may count under several kinds). */
  total: number;
  counts: SummaryCounts;
  recognisedNames: string[];
  /** Sentences of the unusual moments, each with why ("… Nobody has been …"); the text names them first. */
  unusual?: string[];
  /** Sentences of the other notable moments, newest first; the text names every one. */
  moments: string[];
}

const CATEGORY_ORDER = ['person', 'vehicle', 'animal', 'other'] as const;

const WITH: Record<Language, Record<(typeof CATEGORY_ORDER)[number], [string, string]>> = {
  en: {
    person: ['with a person', 'with people'],
    vehicle: ['with a vehicle', 'with vehicles'],
    animal: ['with an animal', 'with animals'],
    other: ['with motion only', 'with motion only'],
  },
  de: {
    person: ['mit einer Person', 'mit Personen'],
    vehicle: ['mit einem Fahrzeug', 'mit Fahrzeugen'],
    animal: ['mit einem Tier', 'mit Tieren'],
    other: ['nur mit Bewegung', 'nur mit Bewegung'],
  },
};

function events(n: number, language: Language): string {
  if (language === 'en') return n === 1 ? 'one event' : `${numberWord(n, 'en')} events`;
  return n === 1 ? 'ein Ereignis' : `${numberWord(n, 'de')} Ereignisse`;
}

function opening(f: SummaryFacts, language: Language): string {
  const where = f.siteName ? ` ${siteWhere(f.siteName, language)}` : '';
  const ongoing = f.periodEnd.getTime() > f.now.getTime();
  if (f.period === 'hourly') {
    const from = formatClock(f.periodStart, f.timezone, language);
    // The hour in progress (rewritten as its events come) says so rather than naming an end not yet reached.
    if (ongoing) return language === 'en' ? `Since ${from}${where}` : `Seit ${from} Uhr${where}`;
    const to = formatClock(f.periodEnd, f.timezone, language);
    return language === 'en' ? `Between ${from} and ${to}${where}` : `Zwischen ${from} und ${to}${where}`;
  }
  const day = capitalise(dayPhrase(f.periodStart, f.now, f.timezone, language));
  if (language === 'en') return `${day}${where}${ongoing ? ' so far' : ''}`;
  return `${day}${where}${ongoing ? ' bisher' : ''}`;
}

function countsSentence(f: SummaryFacts, language: Language): string {
  const present = CATEGORY_ORDER.filter((c) => (f.counts[c] ?? 0) > 0);
  const total = events(f.total, language);
  if (present.length === 1 && f.counts[present[0]!] === f.total) {
    const [one, many] = WITH[language][present[0]!];
    return `${total} ${f.total === 1 ? one : many}`;
  }
  const parts = present.map((c) => {
    const n = f.counts[c]!;
    const [one, many] = WITH[language][c];
    if (n === 1) return `${language === 'en' ? 'one' : 'eines'} ${one}`;
    return `${numberWord(n, language)} ${many}`;
  });
  return parts.length ? `${total}, ${joinList(parts, language)}` : total;
}

/** The highlight's text; a period without activity reads as quiet. */
export function composeSummary(f: SummaryFacts, language: Language): string {
  const head = opening(f, language);
  if (f.total === 0)
    return language === 'en'
      ? `${head}: all quiet, nothing happened.`
      : `${head}: alles ruhig, nichts passiert.`;
  const sentences = [`${head}: ${countsSentence(f, language)}.`];
  if (f.recognisedNames.length > 0)
    sentences.push(
      `${language === 'en' ? 'Recognised' : 'Erkannt'}: ${joinList(f.recognisedNames, language)}.`,
    );
  const unusual = (f.unusual ?? []).map((m) => m.trim()).filter(Boolean);
  if (unusual.length > 0)
    sentences.push(`${language === 'en' ? 'Unusual' : 'Ungewöhnlich'}: ${unusual.join(' ')}`);
  const moments = f.moments.map((m) => m.trim()).filter(Boolean);
  if (moments.length > 0)
    sentences.push(`${language === 'en' ? 'Notable' : 'Aufgefallen'}: ${moments.join(' ')}`);
  return sentences.join(' ');
}
