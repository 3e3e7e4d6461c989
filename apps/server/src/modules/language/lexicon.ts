/**
 * The words the deterministic composer may use, in English and German: the nouns of what the vision engine
 * detects (COCO classes by kind), colours, numbers and articles. Anything not listed falls back to the kind's
 * own noun ("vehicle", "animal"), so a sentence never names a thing more precisely than it was detected.
 */

export type Language = 'en' | 'de';
export const LANGUAGES: readonly Language[] = ['en', 'de'];

/** The user's preferred language if the composer speaks it, else English (docs/product.md §1: en is the default). */
export function languageOf(preferred: string | null | undefined): Language {
  const base = (preferred ?? '').toLowerCase().split(/[-_]/)[0];
  return base === 'de' ? 'de' : 'en';
}

export type ObjectKind = 'person' | 'vehicle' | 'animal';
export const OBJECT_KINDS: readonly ObjectKind[] = ['person', 'vehicle', 'animal'];

/** German grammatical gender, which decides articles and adjective endings. */
export type Gender = 'm' | 'f' | 'n';

export interface Noun {
  en: { one: string; other: string };
  de: { one: string; other: string; gender: Gender };
}

const noun = (enOne: string, enOther: string, deOne: string, deOther: string, gender: Gender): Noun => ({
  en: { one: enOne, other: enOther },
  de: { one: deOne, other: deOther, gender },
});

export const KIND_NOUNS: Record<ObjectKind, Noun> = {
  person: noun('person', 'people', 'Person', 'Personen', 'f'),
  vehicle: noun('vehicle', 'vehicles', 'Fahrzeug', 'Fahrzeuge', 'n'),
  animal: noun('animal', 'animals', 'Tier', 'Tiere', 'n'),
};

/** Detector labels (COCO class names and their common spellings) → noun, per kind. */
const LABEL_NOUNS: Record<string, Noun> = {
  car: noun('car', 'cars', 'Auto', 'Autos', 'n'),
  truck: noun('truck', 'trucks', 'Lkw', 'Lkw', 'm'),
  bus: noun('bus', 'buses', 'Bus', 'Busse', 'm'),
  motorcycle: noun('motorcycle', 'motorcycles', 'Motorrad', 'Motorräder', 'n'),
  motorbike: noun('motorcycle', 'motorcycles', 'Motorrad', 'Motorräder', 'n'),
  bicycle: noun('bicycle', 'bicycles', 'Fahrrad', 'Fahrräder', 'n'),
  bike: noun('bicycle', 'bicycles', 'Fahrrad', 'Fahrräder', 'n'),
  train: noun('train', 'trains', 'Zug', 'Züge', 'm'),
  boat: noun('boat', 'boats', 'Boot', 'Boote', 'n'),
  airplane: noun('plane', 'planes', 'Flugzeug', 'Flugzeuge', 'n'),
  aeroplane: noun('plane', 'planes', 'Flugzeug', 'Flugzeuge', 'n'),
  dog: noun('dog', 'dogs', 'Hund', 'Hunde', 'm'),
  cat: noun('cat', 'cats', 'Katze', 'Katzen', 'f'),
  bird: noun('bird', 'birds', 'Vogel', 'Vögel', 'm'),
  horse: noun('horse', 'horses', 'Pferd', 'Pferde', 'n'),
  sheep: noun('sheep', 'sheep', 'Schaf', 'Schafe', 'n'),
  cow: noun('cow', 'cows', 'Kuh', 'Kühe', 'f'),
  bear: noun('bear', 'bears', 'Bär', 'Bären', 'm'),
  elephant: noun('elephant', 'elephants', 'Elefant', 'Elefanten', 'm'),
  zebra: noun('zebra', 'zebras', 'Zebra', 'Zebras', 'n'),
  giraffe: noun('giraffe', 'giraffes', 'Giraffe', 'Giraffen', 'f'),
  fox: noun('fox', 'foxes', 'Fuchs', 'Füchse', 'm'),
  deer: noun('deer', 'deer', 'Reh', 'Rehe', 'n'),
};

const LABEL_KIND: Record<string, ObjectKind> = {
  car: 'vehicle',
  truck: 'vehicle',
  bus: 'vehicle',
  motorcycle: 'vehicle',
  motorbike: 'vehicle',
  bicycle: 'vehicle',
  bike: 'vehicle',
  train: 'vehicle',
  boat: 'vehicle',
  airplane: 'vehicle',
  aeroplane: 'vehicle',
  dog: 'animal',
  cat: 'animal',
  bird: 'animal',
  horse: 'animal',
  sheep: 'animal',
  cow: 'animal',
  bear: 'animal',
  elephant: 'animal',
  zebra: 'animal',
  giraffe: 'animal',
  fox: 'animal',
  deer: 'animal',
};

/** The kind a detector label belongs to ("car" → vehicle), if the lexicon knows the label. */
export function kindOfLabel(label: string): ObjectKind | undefined {
  const l = label.trim().toLowerCase();
  return l === 'person' ? 'person' : LABEL_KIND[l];
}

/** The label as the lexicon knows it ("Motorbike " → "motorbike"), or the kind itself when unknown. */
export function normaliseLabel(kind: ObjectKind, label: string | null | undefined): string {
  const l = (label ?? '').trim().toLowerCase();
  if (kind === 'person') return 'person';
  return LABEL_KIND[l] === kind ? l : kind;
}

/** The noun of a detection: the label's own when the lexicon knows it for that kind, else the kind's. */
export function nounFor(kind: ObjectKind, label: string | null | undefined): Noun {
  const l = normaliseLabel(kind, label);
  return LABEL_NOUNS[l] ?? KIND_NOUNS[kind];
}

/** English colour names the vision engine reports → German adjective stems (declinable). */
const COLOURS_DE: Record<string, string> = {
  white: 'weiß',
  black: 'schwarz',
  grey: 'grau',
  gray: 'grau',
  silver: 'silbern',
  red: 'rot',
  blue: 'blau',
  green: 'grün',
  yellow: 'gelb',
  brown: 'braun',
  orange: 'orangefarben',
  beige: 'beigefarben',
  gold: 'golden',
  golden: 'golden',
  purple: 'violett',
  violet: 'violett',
  pink: 'pinkfarben',
};
const SHADES_DE: Record<string, string> = { dark: 'dunkel', light: 'hell' };

/** A colour fit to print in `language`, or undefined when it cannot be said faithfully. */
export function colourIn(colour: string | null | undefined, language: Language): string | undefined {
  const c = (colour ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (!c || !/^[a-z]+( [a-z]+)?$/.test(c)) return undefined;
  if (language === 'en') return c;
  const [first, second] = c.split(' ') as [string, string | undefined];
  if (second === undefined) return COLOURS_DE[first];
  const shade = SHADES_DE[first];
  const base = COLOURS_DE[second];
  return shade && base ? `${shade}${base}` : undefined;
}

const EN_NUMBERS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const DE_NUMBERS = [
  'null',
  'eins',
  'zwei',
  'drei',
  'vier',
  'fünf',
  'sechs',
  'sieben',
  'acht',
  'neun',
  'zehn',
  'elf',
  'zwölf',
];

/** "two", "zwölf", "13": small counts are spelt out, as people write them. */
export function numberWord(n: number, language: Language): string {
  const words = language === 'en' ? EN_NUMBERS : DE_NUMBERS;
  return n >= 0 && n < words.length ? words[n]! : String(n);
}

/** Number words either language writes, for reading them back in questions. */
export function numberFromWord(word: string): number | undefined {
  const w = word.toLowerCase();
  if (/^\d+$/.test(w)) return Number(w);
  const en = EN_NUMBERS.indexOf(w);
  if (en >= 0) return en;
  const de = DE_NUMBERS.indexOf(w);
  if (de >= 0) return de;
  if (w === 'a' || w === 'an' || w === 'one' || w === 'ein' || w === 'einer' || w === 'eine') return 1;
  if (w === 'zwanzig') return 20;
  if (w === 'twenty') return 20;
  if (w === 'thirty' || w === 'dreißig' || w === 'dreissig') return 30;
  return undefined;
}

/** "a" or "an" by the sound of the next word (a vowel letter is close enough for these words). */
export function enArticle(nextWord: string): string {
  return /^[aeiou]/i.test(nextWord) ? 'an' : 'a';
}

/** German indefinite article, nominative. */
export function deArticle(gender: Gender): string {
  return gender === 'f' ? 'eine' : 'ein';
}

/** Ending of an adjective after "ein/eine/dein" (mixed declension), nominative. */
export function deMixedEnding(gender: Gender): string {
  return gender === 'm' ? 'er' : gender === 'f' ? 'e' : 'es';
}

/** Joins "A, B and C" the way the language does (Intl, so commas follow the locale). */
export function joinList(items: string[], language: Language): string {
  return listFormats[language].format(items);
}
const listFormats: Record<Language, Intl.ListFormat> = {
  en: new Intl.ListFormat('en-US', { type: 'conjunction', style: 'long' }),
  de: new Intl.ListFormat('de-DE', { type: 'conjunction', style: 'long' }),
};

/** First letter upper-cased, the rest untouched (names keep their own case). */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
