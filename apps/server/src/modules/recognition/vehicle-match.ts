import { colourOf, colourScore, lookup } from './memory-words.js';

/** Vehicle memories against what the detector saw: by type and dominant colour. */

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
