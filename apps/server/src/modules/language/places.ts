/**
 * Cameras are named after places ("Front Door", "Backyard", "Haustür", "Einfahrt"), and a sentence about
 * them needs the right preposition: at the door, in the yard, on the patio; German also needs the noun's
 * gender (zur Haustür, zum Tor, im Garten). A name the lexicon does not recognise is spoken of as a camera
 * ("on the Cam 1 camera", "von der Kamera „Cam 1“"), which is always grammatical.
 */
import type { Gender, Language } from './lexicon.js';

/** entrance: you walk up to it; at: beside it; inside: in it; on: on it. */
type PlaceClass = 'entrance' | 'at' | 'inside' | 'on';

interface KnownPlace {
  cls: PlaceClass;
  /** Vehicles drive into it (driveway, garage): "pulled into", "fuhr in die Einfahrt". */
  drive: boolean;
  gender: Gender;
}

export type Place = { name: string; known: KnownPlace } | { name: string; known: undefined };

const EN_PLACES: Record<string, { cls: PlaceClass; drive?: true }> = {
  door: { cls: 'entrance' },
  doors: { cls: 'entrance' },
  frontdoor: { cls: 'entrance' },
  backdoor: { cls: 'entrance' },
  doorbell: { cls: 'entrance' },
  doorstep: { cls: 'entrance' },
  gate: { cls: 'entrance' },
  gateway: { cls: 'entrance' },
  entrance: { cls: 'entrance' },
  entry: { cls: 'entrance' },
  entryway: { cls: 'entrance' },
  window: { cls: 'at' },
  fence: { cls: 'at' },
  pool: { cls: 'at' },
  pond: { cls: 'at' },
  mailbox: { cls: 'at' },
  yard: { cls: 'inside' },
  backyard: { cls: 'inside' },
  frontyard: { cls: 'inside' },
  courtyard: { cls: 'inside' },
  garden: { cls: 'inside' },
  driveway: { cls: 'inside', drive: true },
  drive: { cls: 'inside', drive: true },
  garage: { cls: 'inside', drive: true },
  carport: { cls: 'inside', drive: true },
  parking: { cls: 'inside', drive: true },
  lot: { cls: 'inside', drive: true },
  street: { cls: 'inside' },
  alley: { cls: 'inside' },
  hall: { cls: 'inside' },
  hallway: { cls: 'inside' },
  corridor: { cls: 'inside' },
  kitchen: { cls: 'inside' },
  room: { cls: 'inside' },
  basement: { cls: 'inside' },
  cellar: { cls: 'inside' },
  attic: { cls: 'inside' },
  shed: { cls: 'inside' },
  barn: { cls: 'inside' },
  lobby: { cls: 'inside' },
  office: { cls: 'inside' },
  nursery: { cls: 'inside' },
  workshop: { cls: 'inside' },
  stairwell: { cls: 'inside' },
  porch: { cls: 'on' },
  patio: { cls: 'on' },
  deck: { cls: 'on' },
  balcony: { cls: 'on' },
  terrace: { cls: 'on' },
  roof: { cls: 'on' },
  stairs: { cls: 'on' },
  steps: { cls: 'on' },
  walkway: { cls: 'on' },
  path: { cls: 'on' },
  sidewalk: { cls: 'on' },
  lawn: { cls: 'on' },
};

/** German compounds take the last part's gender, so these are matched as word endings, longest first. */
const DE_PLACES: [string, KnownPlace][] = (
  [
    ['tür', 'entrance', 'f'],
    ['türe', 'entrance', 'f'],
    ['tor', 'entrance', 'n'],
    ['pforte', 'entrance', 'f'],
    ['eingang', 'entrance', 'm'],
    ['klingel', 'entrance', 'f'],
    ['fenster', 'at', 'n'],
    ['zaun', 'at', 'm'],
    ['pool', 'at', 'm'],
    ['teich', 'at', 'm'],
    ['briefkasten', 'at', 'm'],
    ['mauer', 'at', 'f'],
    ['garten', 'inside', 'm'],
    ['einfahrt', 'inside', 'f', true],
    ['garage', 'inside', 'f', true],
    ['carport', 'inside', 'm', true],
    ['keller', 'inside', 'm'],
    ['flur', 'inside', 'm'],
    ['diele', 'inside', 'f'],
    ['gang', 'inside', 'm'],
    ['korridor', 'inside', 'm'],
    ['zimmer', 'inside', 'n'],
    ['küche', 'inside', 'f'],
    ['haus', 'inside', 'n'],
    ['halle', 'inside', 'f'],
    ['scheune', 'inside', 'f'],
    ['schuppen', 'inside', 'm'],
    ['stall', 'inside', 'm'],
    ['werkstatt', 'inside', 'f'],
    ['büro', 'inside', 'n'],
    ['raum', 'inside', 'm'],
    ['gasse', 'inside', 'f'],
    ['hof', 'inside', 'm', true],
    ['auffahrt', 'on', 'f', true],
    ['zufahrt', 'on', 'f', true],
    ['parkplatz', 'on', 'm', true],
    ['stellplatz', 'on', 'm', true],
    ['platz', 'on', 'm'],
    ['terrasse', 'on', 'f'],
    ['veranda', 'on', 'f'],
    ['balkon', 'on', 'm'],
    ['dach', 'on', 'n'],
    ['dachboden', 'on', 'm'],
    ['weg', 'on', 'm'],
    ['straße', 'on', 'f'],
    ['strasse', 'on', 'f'],
    ['treppe', 'on', 'f'],
    ['wiese', 'on', 'f'],
    ['rasen', 'on', 'm'],
    ['grundstück', 'on', 'n'],
    ['gelände', 'on', 'n'],
  ] as [string, PlaceClass, Gender, boolean?][]
)
  .map(([word, cls, gender, drive]): [string, KnownPlace] => [word, { cls, gender, drive: drive ?? false }])
  .sort((a, b) => b[0].length - a[0].length);

/** Names that already say "camera" or carry a number read best bare: "on Cam 1", "von Kamera 2". */
const CAMERA_LIKE = /\b(cam|camera|kamera|webcam|ipcam)\b|\d/i;

function lastWord(name: string): string {
  const words = name
    .trim()
    .toLowerCase()
    .split(/[\s\-_/]+/)
    .filter(Boolean);
  return words.at(-1) ?? '';
}

/** Reads the camera's name as a place in the language's lexicon. */
export function placeOf(cameraName: string, language: Language): Place {
  const name = cameraName.trim();
  const word = lastWord(name);
  if (language === 'en') {
    const hit = EN_PLACES[word];
    return {
      name,
      known: hit ? { cls: hit.cls, drive: hit.drive ?? false, gender: 'n' } : undefined,
    };
  }
  const hit = DE_PLACES.find(([ending]) => word.endsWith(ending));
  return { name, known: hit?.[1] };
}

// English

/** "the Front Door", but "Rose's Room", "The Barn", "my garage" keep their own determiner. */
function enDetermined(name: string): string {
  return /^(the|my|our|your)\s/i.test(name) || /['’]s\b/.test(name) ? name : `the ${name}`;
}

function enCamera(name: string): string {
  return CAMERA_LIKE.test(name) ? name : `the ${name} camera`;
}

/** Where something was: "at the Front Door", "in the Backyard", "on the Patio", "on the Cam 1 camera". */
export function enWhere(place: Place): string {
  if (!place.known) return `on ${enCamera(place.name)}`;
  const prep = { entrance: 'at', at: 'at', inside: 'in', on: 'on' }[place.known.cls];
  return `${prep} ${enDetermined(place.name)}`;
}

/** The target of a motion verb ("walked up to the Front Door", "pulled into the Driveway"). */
export function enTarget(place: Place & { known: KnownPlace }): string {
  return enDetermined(place.name);
}

// German

const DE_DATIVE_ARTICLE: Record<Gender, string> = { m: 'dem', f: 'der', n: 'dem' };
const DE_ACCUSATIVE_ARTICLE: Record<Gender, string> = { m: 'den', f: 'die', n: 'das' };
const CONTRACTIONS: Record<string, string> = {
  'an dem': 'am',
  'in dem': 'im',
  'zu dem': 'zum',
  'zu der': 'zur',
  'in das': 'ins',
};

function dePrepArticle(prep: string, article: string): string {
  return CONTRACTIONS[`${prep} ${article}`] ?? `${prep} ${article}`;
}

function deCamera(name: string): string {
  return CAMERA_LIKE.test(name) ? name : `der Kamera „${name}“`;
}

/** Where something was (dative): "an der Haustür", "im Garten", "auf der Terrasse", "an der Kamera „X“". */
export function deWhere(place: Place): string {
  if (!place.known) return `an ${deCamera(place.name)}`;
  const prep = { entrance: 'an', at: 'an', inside: 'in', on: 'auf' }[place.known.cls];
  return `${dePrepArticle(prep, DE_DATIVE_ARTICLE[place.known.gender])} ${place.name}`;
}

/** Who saw it when the place is unknown: "von der Kamera „Front Door“", "von Kamera 1". */
export function deByCamera(place: Place): string {
  return `von ${deCamera(place.name)}`;
}

/** Walking up to it: "zur Haustür", "zum Tor", "zum Eingang". */
export function deToward(place: Place & { known: KnownPlace }): string {
  return `${dePrepArticle('zu', DE_DATIVE_ARTICLE[place.known.gender])} ${place.name}`;
}

/** Driving into it (accusative): "in die Einfahrt", "in den Carport", "auf den Hof". */
export function deInto(place: Place & { known: KnownPlace }): string {
  const prep = place.known.cls === 'on' ? 'auf' : 'in';
  return `${dePrepArticle(prep, DE_ACCUSATIVE_ARTICLE[place.known.gender])} ${place.name}`;
}

export function isKnown(place: Place): place is Place & { known: KnownPlace } {
  return place.known !== undefined;
}

/** Where a property is: "at Home"; German by the name's own noun when known ("im Strandhaus"), else "im Objekt „Home“". */
export function siteWhere(siteName: string, language: Language): string {
  if (language === 'en') return `at ${siteName}`;
  const place = placeOf(siteName, 'de');
  return isKnown(place) ? deWhere(place) : `im Objekt „${siteName}“`;
}
