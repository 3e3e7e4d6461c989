import type { DetectedFace } from '../../adapters/vision/vision.js';
import type { ActivityObject, activityFaces, RecognisedMemory } from '../../platform/db/schema.js';
import { matchAnimal } from './animal-match.js';
import { matchFace, type FaceExample, type FaceMatch } from './face-match.js';
import { matchVehicle } from './vehicle-match.js';

/** A memory the recogniser may match: people by face, vehicles by type and colour, animals by species. */
export interface RecognisableMemory {
  id: string;
  category: 'people' | 'vehicles' | 'animals';
  name: string | null;
  owner: string | null;
  make: string | null;
  model: string | null;
  color: string | null;
  species: string | null;
  notes: string | null;
}

/** A face found in an activity, with the memory it matched if any: a row of `activity_faces` to store. */
export type NewActivityFace = Pick<
  typeof activityFaces.$inferInsert,
  'box' | 'descriptor' | 'memoryId' | 'distance'
>;

/** The matching rules: the real ones (`*-match.ts`) in the app, stand-ins in tests that need them. */
export interface Recognition {
  matchFace(descriptor: number[], examples: FaceExample[]): FaceMatch | undefined;
  matchVehicle(object: ActivityObject, memories: RecognisableMemory[]): RecognisableMemory | undefined;
  matchAnimal(object: ActivityObject, memories: RecognisableMemory[]): RecognisableMemory | undefined;
}

/** Thresholds, margins and vetoes chosen on the fixture set (see face-match.ts). */
export const recognitionRules: Recognition = {
  matchFace: (descriptor, examples) => matchFace(descriptor, examples),
  matchVehicle: (object, memories) => matchVehicle(object, memories),
  matchAnimal: (object, memories) => matchAnimal(object, memories),
};

export interface RecognitionOutcome {
  recognised: RecognisedMemory[];
  faces: NewActivityFace[];
}

/** How a vehicle memory is named in a sentence: make and model, else its owner's name, else its colour. */
export function vehicleName(m: Pick<RecognisableMemory, 'make' | 'model' | 'owner' | 'color'>): string {
  const makeModel = [m.make, m.model].filter((s) => s?.trim()).join(' ');
  return makeModel || m.owner?.trim() || [m.color, 'vehicle'].filter(Boolean).join(' ');
}

export function memoryName(m: RecognisableMemory): string {
  if (m.category === 'vehicles') return vehicleName(m);
  return m.name?.trim() || m.species?.trim() || m.category;
}

/**
 * Who and what is known in an activity: each face against the examples of the people memories that apply
 * here, vehicles by type and colour, animals by species. A memory is named once, at its nearest face.
 */
export function recogniseActivity(input: {
  recognition: Recognition;
  objects: ActivityObject[];
  faces: DetectedFace[];
  memories: RecognisableMemory[];
  examples: FaceExample[];
}): RecognitionOutcome {
  const { recognition, memories } = input;
  const people = new Set(memories.filter((m) => m.category === 'people').map((m) => m.id));
  const examples = input.examples.filter((e) => people.has(e.memoryId));
  const byMemory = new Map<string, RecognisedMemory>();
  const faces: NewActivityFace[] = [];

  for (const face of input.faces) {
    const match = examples.length > 0 ? recognition.matchFace(face.descriptor, examples) : undefined;
    faces.push({
      box: face.box.map(Math.round) as [number, number, number, number],
      descriptor: face.descriptor,
      memoryId: match?.memoryId ?? null,
      distance: match ? Math.round(match.distance * 1000) / 1000 : null,
    });
    if (!match) continue;
    const seen = byMemory.get(match.memoryId);
    if (!seen || (seen.distance ?? Infinity) > match.distance)
      byMemory.set(match.memoryId, {
        category: 'people',
        memory_uuid: match.memoryId,
        name: match.name,
        distance: Math.round(match.distance * 1000) / 1000,
      });
  }

  const vehicles = memories.filter((m) => m.category === 'vehicles');
  const animals = memories.filter((m) => m.category === 'animals');
  for (const o of input.objects) {
    const m =
      o.kind === 'vehicle' && vehicles.length > 0
        ? recognition.matchVehicle(o, vehicles)
        : o.kind === 'animal' && animals.length > 0
          ? recognition.matchAnimal(o, animals)
          : undefined;
    if (m && !byMemory.has(m.id))
      byMemory.set(m.id, { category: m.category, memory_uuid: m.id, name: memoryName(m) });
  }
  return {
    recognised: [...byMemory.values()].sort((a, b) => order(a) - order(b)),
    faces,
  };
}

const ORDER = { people: 0, vehicles: 1, animals: 2 } as const;
const order = (r: RecognisedMemory) => ORDER[r.category];
