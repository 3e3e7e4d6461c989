import { describe, expect, it } from 'vitest';
import { animalLabelOf, matchAnimal } from './animal-match.js';
import { colourOf } from './memory-words.js';
import {
  FACE_MATCH_MARGIN,
  FACE_MATCH_THRESHOLD,
  faceDistance,
  matchFace,
  type FaceExample,
} from './face-match.js';
import { matchVehicle, vehicleTypeOf } from './vehicle-match.js';

/** A 128-D descriptor at a chosen distance from the origin descriptor along one axis. */
function at(distance: number, axis = 0): number[] {
  const v = new Array<number>(128).fill(0);
  v[axis] = distance;
  return v;
}
const origin = at(0);

const example = (memoryId: string, descriptor: number[], negative = false): FaceExample => ({
  memoryId,
  name: memoryId.toUpperCase(),
  descriptor,
  negative,
});

describe('face recognition', () => {
  it('measures euclidean distance, and none at all between descriptors of different lengths', () => {
    expect(faceDistance(at(3), at(4, 1))).toBeCloseTo(5);
    expect(faceDistance([1, 2], [1, 2, 3])).toBe(Number.POSITIVE_INFINITY);
  });

  it('names the memory whose nearest photo is under the threshold', () => {
    const match = matchFace(origin, [example('rose', at(0.45)), example('rose', at(0.9, 1))]);
    expect(match).toEqual({ memoryId: 'rose', name: 'ROSE', distance: 0.45 });
  });

  it('names nobody when every memory is at or beyond the threshold', () => {
    expect(matchFace(origin, [example('rose', at(FACE_MATCH_THRESHOLD))])).toBeUndefined();
    expect(matchFace(origin, [])).toBeUndefined();
  });

  it('names nobody when two memories are nearly as near (within the margin)', () => {
    const close = [example('rose', at(0.4)), example('anna', at(0.4 + FACE_MATCH_MARGIN / 2, 1))];
    expect(matchFace(origin, close)).toBeUndefined();
    const clear = [example('rose', at(0.4)), example('anna', at(0.4 + FACE_MATCH_MARGIN + 0.01, 1))];
    expect(matchFace(origin, clear)?.memoryId).toBe('rose');
  });

  it('keeps the margin against memories beyond the threshold too', () => {
    const examples = [example('rose', at(0.55)), example('anna', at(0.62, 1))];
    expect(matchFace(origin, examples)).toBeUndefined();
  });

  it('does not repeat a mistake: a negative example nearer than the memory’s photos vetoes it', () => {
    const examples = [example('rose', at(0.5)), example('rose', at(0.2, 1), true)];
    expect(matchFace(origin, examples)).toBeUndefined();
  });

  it('still names the memory when its negative example is farther than its photos', () => {
    const examples = [example('rose', at(0.3)), example('rose', at(0.5, 1), true)];
    expect(matchFace(origin, examples)?.memoryId).toBe('rose');
  });

  it('after a veto the face can still be someone else, without the vetoed memory as a rival', () => {
    const examples = [
      example('rose', at(0.42)),
      example('rose', at(0.1, 2), true),
      example('anna', at(0.45, 1)),
    ];
    expect(matchFace(origin, examples)).toMatchObject({ memoryId: 'anna', distance: 0.45 });
  });

  it('learns from a confirmed face like from a photo', () => {
    const examples = [example('rose', at(0.8)), example('rose', at(0.3, 3))];
    expect(matchFace(origin, examples)?.distance).toBeCloseTo(0.3);
  });

  it('never matches a memory with only negative examples', () => {
    expect(matchFace(origin, [example('rose', at(0.1), true)])).toBeUndefined();
  });
});

describe('vehicle recognition', () => {
  const tesla = { id: 'tesla', category: 'vehicles', make: 'Tesla', model: 'Model 3', color: 'Weiß' };
  const pickup = { id: 'f150', category: 'vehicles', make: 'Ford', model: 'F-150', color: 'dark blue' };
  const vespa = { id: 'vespa', category: 'vehicles', make: 'Vespa', model: 'Primavera', color: 'red' };

  it('reads colours in English and German, with modifiers', () => {
    expect(colourOf('Weiß')).toBe('white');
    expect(colourOf('dark blue')).toBe('blue');
    expect(colourOf('Anthrazit metallic')).toBe('grey');
    expect(colourOf('sparkly')).toBeUndefined();
  });

  it('tells the type from make, model and notes, a car by default', () => {
    expect(vehicleTypeOf(pickup)).toBe('truck');
    expect(vehicleTypeOf(vespa)).toBe('motorcycle');
    expect(vehicleTypeOf({ make: 'Brompton', model: null })).toBe('bicycle');
    expect(vehicleTypeOf(tesla)).toBe('car');
  });

  it('matches by type and dominant colour', () => {
    const memories = [tesla, pickup, vespa];
    expect(matchVehicle({ label: 'car', color: 'white' }, memories)).toBe(tesla);
    expect(matchVehicle({ label: 'truck', color: 'blue' }, memories)).toBe(pickup);
    expect(matchVehicle({ label: 'motorcycle', color: 'red' }, memories)).toBe(vespa);
  });

  it('takes a silver car for the white one (light and shade), but not a black one', () => {
    expect(matchVehicle({ label: 'car', color: 'silver' }, [tesla])).toBe(tesla);
    expect(matchVehicle({ label: 'car', color: 'black' }, [tesla])).toBeUndefined();
  });

  it('accepts car for truck and back (the detector confuses them), but never a bicycle for a car', () => {
    expect(matchVehicle({ label: 'car', color: 'blue' }, [pickup])).toBe(pickup);
    expect(matchVehicle({ label: 'bicycle', color: 'white' }, [tesla])).toBeUndefined();
  });

  it('names nothing without a colour on both sides, or when two memories fit equally', () => {
    expect(matchVehicle({ label: 'car' }, [tesla])).toBeUndefined();
    expect(matchVehicle({ label: 'car', color: 'white' }, [{ ...tesla, color: null }])).toBeUndefined();
    const twin = { ...tesla, id: 'twin', model: 'Model Y' };
    expect(matchVehicle({ label: 'car', color: 'white' }, [tesla, twin])).toBeUndefined();
  });

  it('prefers the exact colour over a neighbour', () => {
    const silver = { ...tesla, id: 'silver', color: 'silver' };
    expect(matchVehicle({ label: 'car', color: 'white' }, [tesla, silver])).toBe(tesla);
  });

  it('only looks at vehicle memories', () => {
    expect(
      matchVehicle({ label: 'car', color: 'white' }, [{ ...tesla, category: 'animals' }]),
    ).toBeUndefined();
    expect(matchVehicle({ label: 'dog', color: 'white' }, [tesla])).toBeUndefined();
  });
});

describe('animal recognition', () => {
  it('maps species as people write them to the detector’s labels', () => {
    expect(animalLabelOf('Dog')).toBe('dog');
    expect(animalLabelOf('Hund')).toBe('dog');
    expect(animalLabelOf('Golden Retriever')).toBe('dog');
    expect(animalLabelOf('Schäferhund')).toBe('dog');
    expect(animalLabelOf('cat')).toBe('cat');
    expect(animalLabelOf('Katze')).toBe('cat');
    expect(animalLabelOf('Hauskatze')).toBe('cat');
    expect(animalLabelOf('Wellensittich')).toBe('bird');
    expect(animalLabelOf('Pony')).toBe('horse');
    expect(animalLabelOf('goldfish')).toBeUndefined();
  });

  const max = { id: 'max', category: 'animals', species: 'Hund', name: 'Max' };
  const luna = { id: 'luna', category: 'animals', species: 'Katze', name: 'Luna' };

  it('matches by species, from a label or a detected object', () => {
    expect(matchAnimal('dog', [max, luna])).toBe(max);
    expect(matchAnimal({ label: 'cat' }, [max, luna])).toBe(luna);
    expect(matchAnimal('bird', [max, luna])).toBeUndefined();
  });

  it('names no one when two memories share the species', () => {
    const bello = { id: 'bello', category: 'animals', species: 'dog', name: 'Bello' };
    expect(matchAnimal('dog', [max, bello])).toBeUndefined();
  });

  it('only looks at animal memories', () => {
    expect(matchAnimal('dog', [{ ...max, category: 'people' }])).toBeUndefined();
  });
});
