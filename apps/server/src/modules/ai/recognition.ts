import type { ColourName } from '../../adapters/vision/vision.js';

/**
 * Who and what is known in an image: faces against the examples of people memories, vehicles by type and
 * colour, animals by species. Pure functions; the pipeline decides when recognition may run (consent).
 */

/** One example of a person's face: from a memory photo, or a face the owner confirmed or rejected. */
export interface FaceExample {
  memoryId: string;
  name: string;
  descriptor: number[];
  /** A face the owner said is not this person ("not Rose"). */
  negative: boolean;
}

export interface FaceMatch {
  memoryId: string;
  name: string;
  /** Euclidean distance to the memory's nearest positive example. */
  distance: number;
}

/**
 * Same person below this distance. Measured on the shared fixtures with face-api's descriptor: the same person
 * (three photos of identity A) is 0.43–0.47 apart, different people 0.74–0.97 apart; 0.6 sits in the middle of
 * that gap, and is dlib's published tolerance for this ResNet model (docs/vision.md).
 */
export const FACE_MATCH_THRESHOLD = 0.6;

/**
 * The nearest memory must be this much nearer than the next one. A genuine match on the fixtures is 0.43–0.47
 * from its memory and at least 0.74 from anyone else, a gap of over 0.25; two memories within 0.1 of each
 * other (look-alikes, or one person entered twice) are a coin toss, and an alert must not guess a name.
 */
export const FACE_MATCH_MARGIN = 0.1;

export function faceDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return Number.POSITIVE_INFINITY;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

interface Candidate {
  memoryId: string;
  name: string;
  positive: number;
  negative: number;
}

/**
 * The person memory this face belongs to, or undefined. A memory qualifies when its nearest positive example
 * is under the threshold and no negative example of it is nearer (the owner already said a face like this is
 * not them). The nearest qualifying memory wins only if it is clearly nearer than every other qualifying one.
 */
export function matchFace(
  descriptor: readonly number[],
  examples: readonly FaceExample[],
  options: { threshold?: number; margin?: number } = {},
): FaceMatch | undefined {
  const threshold = options.threshold ?? FACE_MATCH_THRESHOLD;
  const margin = options.margin ?? FACE_MATCH_MARGIN;
  const byMemory = new Map<string, Candidate>();
  for (const example of examples) {
    const d = faceDistance(descriptor, example.descriptor);
    const c = byMemory.get(example.memoryId) ?? {
      memoryId: example.memoryId,
      name: example.name,
      positive: Number.POSITIVE_INFINITY,
      negative: Number.POSITIVE_INFINITY,
    };
    if (example.negative) c.negative = Math.min(c.negative, d);
    else c.positive = Math.min(c.positive, d);
    byMemory.set(example.memoryId, c);
  }
  const ranked = [...byMemory.values()]
    .filter((c) => Number.isFinite(c.positive) && c.negative >= c.positive)
    .sort((a, b) => a.positive - b.positive);
  const [best, next] = ranked;
  if (!best || best.positive >= threshold) return undefined;
  if (next && next.positive - best.positive < margin) return undefined;
  return { memoryId: best.memoryId, name: best.name, distance: best.positive };
}

// ---------------------------------------------------------------------------------------------- words

/** Lower-case words of a free text, in any script ("Schäferhund", "F-150" → "f", "150"). */
function words(text: string | null | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The first entry of a vocabulary a text names: single words, two-word names, or German compounds' tails. */
function lookup<T>(
  text: string | null | undefined,
  vocabulary: Record<string, T>,
  suffixes: [string, T][] = [],
): T | undefined {
  const list = words(text);
  for (let i = 0; i < list.length; i++) {
    const pair = i + 1 < list.length ? `${list[i]} ${list[i + 1]}` : undefined;
    if (pair && Object.hasOwn(vocabulary, pair)) return vocabulary[pair];
    const word = list[i]!;
    if (Object.hasOwn(vocabulary, word)) return vocabulary[word];
    const tail = suffixes.find(([suffix]) => word.endsWith(suffix));
    if (tail) return tail[1];
  }
  return undefined;
}

// -------------------------------------------------------------------------------------------- colours

const COLOUR_WORDS: Record<string, ColourName> = {
  white: 'white',
  weiß: 'white',
  weiss: 'white',
  cream: 'white',
  creme: 'white',
  ivory: 'white',
  pearl: 'white',
  perlmutt: 'white',
  black: 'black',
  schwarz: 'black',
  ebony: 'black',
  grey: 'grey',
  gray: 'grey',
  grau: 'grey',
  anthracite: 'grey',
  anthrazit: 'grey',
  graphite: 'grey',
  graphit: 'grey',
  charcoal: 'grey',
  gunmetal: 'grey',
  silver: 'silver',
  silber: 'silver',
  silbern: 'silver',
  platinum: 'silver',
  red: 'red',
  rot: 'red',
  maroon: 'red',
  burgundy: 'red',
  bordeaux: 'red',
  crimson: 'red',
  weinrot: 'red',
  dunkelrot: 'red',
  orange: 'orange',
  yellow: 'yellow',
  gelb: 'yellow',
  gold: 'yellow',
  golden: 'yellow',
  green: 'green',
  grün: 'green',
  gruen: 'green',
  olive: 'green',
  oliv: 'green',
  teal: 'green',
  blue: 'blue',
  blau: 'blue',
  navy: 'blue',
  marine: 'blue',
  dunkelblau: 'blue',
  hellblau: 'blue',
  turquoise: 'blue',
  türkis: 'blue',
  purple: 'purple',
  violet: 'purple',
  violett: 'purple',
  lila: 'purple',
  pink: 'purple',
  rosa: 'purple',
  magenta: 'purple',
  brown: 'brown',
  braun: 'brown',
  beige: 'brown',
  bronze: 'brown',
  tan: 'brown',
  champagne: 'brown',
};

/** Colours a camera easily takes for one another (light and shade, white balance). */
const NEIGHBOUR_COLOURS: Record<ColourName, ColourName[]> = {
  white: ['silver'],
  silver: ['white', 'grey'],
  grey: ['silver', 'black'],
  black: ['grey'],
  red: ['orange', 'purple'],
  orange: ['red', 'yellow', 'brown'],
  yellow: ['orange'],
  green: [],
  blue: ['purple'],
  purple: ['blue', 'red'],
  brown: ['orange'],
};

/** The colour a free text names, in English or German ("dark blue", "Weiß", "anthrazit metallic"). */
export function colourOf(text: string | null | undefined): ColourName | undefined {
  return lookup(text, COLOUR_WORDS);
}

/** 2 for the same colour, 1 for a neighbour, 0 otherwise. */
function colourScore(a: ColourName, b: ColourName): number {
  if (a === b) return 2;
  return NEIGHBOUR_COLOURS[a].includes(b) ? 1 : 0;
}

// ------------------------------------------------------------------------------------------- vehicles

export type VehicleType = 'car' | 'truck' | 'bus' | 'motorcycle' | 'bicycle';

const VEHICLE_WORDS: Record<string, VehicleType> = {
  truck: 'truck',
  pickup: 'truck',
  lorry: 'truck',
  lkw: 'truck',
  van: 'truck',
  transporter: 'truck',
  cybertruck: 'truck',
  silverado: 'truck',
  tundra: 'truck',
  tacoma: 'truck',
  hilux: 'truck',
  ranger: 'truck',
  sierra: 'truck',
  frontier: 'truck',
  navara: 'truck',
  amarok: 'truck',
  gladiator: 'truck',
  sprinter: 'truck',
  transit: 'truck',
  ducato: 'truck',
  'f 150': 'truck',
  f150: 'truck',
  'ram 1500': 'truck',
  bus: 'bus',
  coach: 'bus',
  minibus: 'bus',
  reisebus: 'bus',
  motorcycle: 'motorcycle',
  motorbike: 'motorcycle',
  motorrad: 'motorcycle',
  scooter: 'motorcycle',
  roller: 'motorcycle',
  moped: 'motorcycle',
  vespa: 'motorcycle',
  piaggio: 'motorcycle',
  harley: 'motorcycle',
  ducati: 'motorcycle',
  ktm: 'motorcycle',
  aprilia: 'motorcycle',
  triumph: 'motorcycle',
  kawasaki: 'motorcycle',
  yamaha: 'motorcycle',
  'royal enfield': 'motorcycle',
  bicycle: 'bicycle',
  bike: 'bicycle',
  ebike: 'bicycle',
  pedelec: 'bicycle',
  fahrrad: 'bicycle',
  rad: 'bicycle',
  trek: 'bicycle',
  specialized: 'bicycle',
  cannondale: 'bicycle',
  brompton: 'bicycle',
};

const VEHICLE_SUFFIXES: [string, VehicleType][] = [
  ['fahrrad', 'bicycle'],
  ['motorrad', 'motorcycle'],
  ['transporter', 'truck'],
  ['wagen', 'car'],
];

/** A vehicle memory as recognition reads it; any other fields (id, owner, year…) pass through. */
export interface VehicleMemoryLike {
  category?: string;
  make?: string | null;
  model?: string | null;
  color?: string | null;
  notes?: string | null;
}

/** What kind of vehicle a memory describes, from its make, model and notes; a car unless they say otherwise. */
export function vehicleTypeOf(memory: VehicleMemoryLike): VehicleType {
  const text = [memory.model, memory.make, memory.notes].filter(Boolean).join(' ');
  return lookup(text, VEHICLE_WORDS, VEHICLE_SUFFIXES) ?? 'car';
}

const VEHICLE_LABELS = new Set<string>(['car', 'truck', 'bus', 'motorcycle', 'bicycle']);

/** 2 for the same type; 1 for car and truck, which the detector confuses (pickups, SUVs, vans); else 0. */
function typeScore(detected: VehicleType, remembered: VehicleType): number {
  if (detected === remembered) return 2;
  const pair = new Set([detected, remembered]);
  return pair.has('car') && pair.has('truck') ? 1 : 0;
}

/**
 * The vehicle memory a detected vehicle is, by type and dominant colour, or undefined. Both colours must be
 * known and alike: type alone would name every passing car after the family's. The best-scoring memory wins
 * only when no other scores the same (two white cars of the same kind cannot be told apart by colour).
 */
export function matchVehicle<M extends VehicleMemoryLike>(
  detected: { label: string; color?: string | undefined },
  memories: readonly M[],
): M | undefined {
  if (!VEHICLE_LABELS.has(detected.label)) return undefined;
  const seen = colourOf(detected.color);
  if (!seen) return undefined;
  const label = detected.label as VehicleType;
  let best: M | undefined;
  let bestScore = 0;
  let tie = false;
  for (const memory of memories) {
    if (memory.category !== undefined && memory.category !== 'vehicles') continue;
    const remembered = colourOf(memory.color);
    if (!remembered) continue;
    const byType = typeScore(label, vehicleTypeOf(memory));
    const byColour = colourScore(seen, remembered);
    if (byType === 0 || byColour === 0) continue;
    const score = byType * 3 + byColour;
    if (score > bestScore) {
      best = memory;
      bestScore = score;
      tie = false;
    } else if (score === bestScore) tie = true;
  }
  return tie ? undefined : best;
}

// -------------------------------------------------------------------------------------------- animals

const ANIMAL_WORDS: Record<string, string> = {};
const addAnimals = (label: string, list: string) => {
  for (const w of list.split(',')) ANIMAL_WORDS[w.trim()] = label;
};
addAnimals(
  'dog',
  'dog,dogs,puppy,pup,doggy,hound,hund,hunde,hündin,welpe,rüde,labrador,retriever,golden retriever,shepherd,' +
    'schäferhund,poodle,pudel,terrier,beagle,dackel,dachshund,bulldog,husky,collie,spaniel,boxer,chihuahua,' +
    'pug,mops,rottweiler,doberman,dobermann,corgi,dalmatian,dalmatiner,greyhound,windhund,schnauzer,' +
    'labradoodle,pitbull,setter,pointer,malteser,maltese,pomeranian,spitz,havaneser,shih tzu',
);
addAnimals(
  'cat',
  'cat,cats,kitten,kitty,katze,katzen,kater,kätzchen,mieze,siamese,siam,persian,perser,maine coon,tabby,' +
    'bengal,ragdoll,sphynx,britisch kurzhaar,british shorthair',
);
addAnimals(
  'bird',
  'bird,birds,vogel,vögel,parrot,papagei,budgie,budgerigar,wellensittich,parakeet,canary,kanarienvogel,' +
    'chicken,huhn,hühner,hen,henne,rooster,hahn,duck,ente,goose,gans,pigeon,taube,crow,krähe,owl,eule,' +
    'cockatoo,kakadu,robin,rotkehlchen,magpie,elster',
);
addAnimals(
  'horse',
  'horse,horses,pferd,pferde,pony,ponys,mare,stute,stallion,hengst,foal,fohlen,donkey,esel,mule,maultier',
);
addAnimals('sheep', 'sheep,schaf,schafe,lamb,lamm,ram,widder');
addAnimals('cow', 'cow,cows,kuh,kühe,cattle,rind,rinder,bull,stier,calf,kalb,ox,ochse');
addAnimals('bear', 'bear,bär');
addAnimals('elephant', 'elephant,elefant');
addAnimals('zebra', 'zebra');
addAnimals('giraffe', 'giraffe');

const ANIMAL_SUFFIXES: [string, string][] = [
  ['hund', 'dog'],
  ['hündin', 'dog'],
  ['katze', 'cat'],
  ['kater', 'cat'],
  ['vogel', 'bird'],
  ['pferd', 'horse'],
  ['huhn', 'bird'],
];

/** The detector's label for a species as people write it ("Dog", "Hund", "golden retriever", "Katze"). */
export function animalLabelOf(species: string | null | undefined): string | undefined {
  return lookup(species, ANIMAL_WORDS, ANIMAL_SUFFIXES);
}

export interface AnimalMemoryLike {
  category?: string;
  species?: string | null;
  name?: string | null;
}

/**
 * The animal memory a detected animal is, by species, or undefined: only when exactly one memory is of that
 * species (two dogs look alike to the detector, and an alert must not guess which).
 */
export function matchAnimal<M extends AnimalMemoryLike>(
  detected: string | { label: string },
  memories: readonly M[],
): M | undefined {
  const label = typeof detected === 'string' ? detected : detected.label;
  const same = memories.filter(
    (m) => (m.category === undefined || m.category === 'animals') && animalLabelOf(m.species) === label,
  );
  return same.length === 1 ? same[0] : undefined;
}
