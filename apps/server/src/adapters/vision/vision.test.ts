import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithFixtures, requireFixture } from '../../../test/fixtures.js';
import { FACE_MATCH_THRESHOLD, faceDistance } from '../../modules/ai/recognition.js';
import { createLogger } from '../../platform/logger.js';
import { createDisabledVisionEngine } from './disabled.vision.js';
import { createLocalVisionEngine } from './local.vision.js';
import { UnreadableImageError, type VisionEngine } from './vision.js';

/**
 * The local engine with its real models on the shared fixture photos. Loading the models on the WASM backend
 * takes seconds, so one engine serves the whole file.
 */
const FIXTURES = [
  'dog.jpg',
  'person-obama-1.jpg',
  'person-obama-2.jpg',
  'person-obama-3.jpg',
  'group-three-people.jpg',
  'empty-driveway.jpg',
];
const photo = (name: string) => readFileSync(requireFixture(name));
const SLOW = { timeout: 120_000 };

describeWithFixtures(FIXTURES, 'local vision engine on real photos', () => {
  let engine: VisionEngine;
  beforeAll(() => {
    engine = createLocalVisionEngine({ log: createLogger('silent') });
  });
  afterAll(async () => engine.close());

  it('sees the dog as an animal, and the truck beside it as a white vehicle', SLOW, async () => {
    const result = await engine.analyse(photo('dog.jpg'));
    expect([result.width, result.height]).toEqual([768, 576]);
    expect(result.objects).toContainEqual(expect.objectContaining({ kind: 'animal', label: 'dog' }));
    const vehicle = result.objects.find((o) => o.kind === 'vehicle' && o.label !== 'bicycle');
    expect(vehicle?.color).toBe('white');
    expect(result.objects.some((o) => o.kind === 'person')).toBe(false);
    expect(result.faces).toEqual([]);
  });

  it('finds the person in a portrait, and with faces asked for, one face of 128 numbers', SLOW, async () => {
    const result = await engine.analyse(photo('person-obama-1.jpg'), { faces: true });
    const person = result.objects.find((o) => o.kind === 'person');
    expect(person?.score).toBeGreaterThanOrEqual(0.3);
    expect(result.faces).toHaveLength(1);
    const [face] = result.faces;
    expect(face?.descriptor).toHaveLength(128);
    expect(face?.descriptor.every(Number.isFinite)).toBe(true);
    // The face lies in the picture, in its pixels (910×1137), in the upper half where the head is.
    const [x, y, w, h] = face!.box;
    expect(x >= 0 && y >= 0 && x + w <= 910 && y + h <= 1137 / 2).toBe(true);
  });

  it('sees nobody in an empty driveway', SLOW, async () => {
    const result = await engine.analyse(photo('empty-driveway.jpg'), { faces: true });
    expect(result.objects.filter((o) => o.kind === 'person')).toEqual([]);
    expect(result.faces).toEqual([]);
  });

  it('describes the same person alike and different people apart', SLOW, async () => {
    const only = async (name: string) => {
      const faces = await engine.embedFaces(photo(name));
      expect(faces.length).toBeGreaterThanOrEqual(1);
      return [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0]!.descriptor;
    };
    const a1 = await only('person-obama-1.jpg');
    const a2 = await only('person-obama-2.jpg');
    const a3 = await only('person-obama-3.jpg');
    for (const [p, q] of [
      [a1, a2],
      [a1, a3],
      [a2, a3],
    ] as const) {
      expect(faceDistance(p, q)).toBeLessThan(FACE_MATCH_THRESHOLD);
    }
    const strangers = await engine.embedFaces(photo('group-three-people.jpg'));
    expect(strangers).toHaveLength(3);
    for (const s of strangers) {
      for (const a of [a1, a2, a3])
        expect(faceDistance(s.descriptor, a)).toBeGreaterThan(FACE_MATCH_THRESHOLD);
    }
    expect(faceDistance(strangers[0]!.descriptor, strangers[1]!.descriptor)).toBeGreaterThan(
      FACE_MATCH_THRESHOLD,
    );
  });
});

describe('disabled vision engine', () => {
  it('sees nothing, but still reads the picture’s size', async () => {
    const engine = createDisabledVisionEngine();
    const sharp = (await import('sharp')).default;
    const jpeg = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#000' } })
      .jpeg()
      .toBuffer();
    expect(await engine.analyse(jpeg, { faces: true })).toEqual({
      width: 64,
      height: 32,
      objects: [],
      faces: [],
    });
    expect(await engine.embedFaces(jpeg)).toEqual([]);
    await expect(engine.analyse(Buffer.from('nope'))).rejects.toBeInstanceOf(UnreadableImageError);
    await engine.close();
  });
});
