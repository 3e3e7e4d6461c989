import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures.js';
import { FACE_MATCH_THRESHOLD, faceDistance } from '../../modules/recognition/face-match.js';
import { createLogger } from '../../platform/logger.js';
import { createDisabledVisionEngine } from './disabled.vision.js';
import { createLocalVisionEngine } from './local.vision.js';
import { UnreadableImageError, type VisionEngine } from './vision.js';

/**
 * The local engine with its real models on the test media's photos. Loading the models on the WASM backend
 * takes seconds, so one engine serves the whole file.
 */
const photo = (name: string) => readFileSync(fixturePath(name));
const SLOW = { timeout: 120_000 };

/** One engine for the file, started by the first test that needs it. */
let shared: VisionEngine | undefined;
const localEngine = () => (shared ??= createLocalVisionEngine({ log: createLogger('silent') }));
afterAll(async () => shared?.close());

describe('local vision engine on real photos', () => {
  let engine: VisionEngine;
  beforeAll(() => {
    engine = localEngine();
  });

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

/**
 * What every implementation of the port promises (DESIGN.md: one suite per port, run against each): the size
 * of the picture as given after its EXIF orientation, unreadable input refused as such, faces only when asked.
 */
function portPromises(name: string, make: () => VisionEngine) {
  describe(`${name}: the vision port`, () => {
    const picture = (width: number, height: number, orientation?: number) => {
      const base = sharp({ create: { width, height, channels: 3, background: '#3a7' } });
      return (orientation ? base.withMetadata({ orientation }) : base).jpeg().toBuffer();
    };

    it('answers in the size of the picture as given, turned by its EXIF orientation', SLOW, async () => {
      const upright = await make().analyse(await picture(64, 32));
      expect([upright.width, upright.height]).toEqual([64, 32]);
      const turned = await make().analyse(await picture(64, 32, 6));
      expect([turned.width, turned.height]).toEqual([32, 64]);
    });

    it('sees nothing in a plain picture, and looks for faces only when asked', SLOW, async () => {
      const plain = await picture(320, 240);
      expect(await make().analyse(plain)).toEqual({ width: 320, height: 240, objects: [], faces: [] });
      expect(await make().embedFaces(plain)).toEqual([]);
    });

    it('refuses what is not a picture as unreadable', SLOW, async () => {
      await expect(make().analyse(Buffer.from('nope'))).rejects.toBeInstanceOf(UnreadableImageError);
      await expect(make().embedFaces(Buffer.alloc(0))).rejects.toBeInstanceOf(UnreadableImageError);
    });
  });
}

const disabled = createDisabledVisionEngine();
portPromises('disabled engine', () => disabled);
describe('with the models on disk', () => {
  portPromises('local engine', localEngine);
});
