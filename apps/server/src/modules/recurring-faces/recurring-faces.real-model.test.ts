import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../../test/fixtures.js';
import { createLocalVisionEngine } from '../../adapters/vision/local.vision.js';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import { createLogger } from '../../platform/logger.js';
import { groupFaces, isRecurring, type UnknownFace } from './recurring-faces.js';

/**
 * The grouping on real descriptors (face-api on the test media): identity A's three photos, as if seen on
 * three days, are one group that is offered; the three strangers of the group photo, each seen once, stay
 * three groups of one.
 */
const PHOTOS = ['person-obama-1.jpg', 'person-obama-2.jpg', 'person-obama-3.jpg', 'group-three-people.jpg'];
const SLOW = 180_000;

let engine: VisionEngine | undefined;
afterAll(async () => engine?.close());

describe('recurring faces with the real face models', () => {
  it(
    'groups the same person seen on three days and keeps the strangers apart',
    async () => {
      engine = createLocalVisionEngine({ log: createLogger('silent') });
      const faces: UnknownFace[] = [];
      for (const [day, name] of PHOTOS.entries()) {
        const found = await engine.embedFaces(readFileSync(fixturePath(name)));
        for (const [i, f] of found.entries())
          faces.push({
            id: `${name}#${i}`,
            activityId: name,
            descriptor: f.descriptor,
            box: f.box,
            occurredAt: new Date(Date.UTC(2026, 5, 1 + day, 9)),
          });
      }
      const groups = groupFaces(faces, 'UTC');
      const a = groups.find((g) => g.faces.some((f) => f.id.startsWith('person-obama-1')))!;
      expect(a.faces.map((f) => f.activityId).sort()).toEqual(PHOTOS.slice(0, 3));
      expect(isRecurring(a)).toBe(true);
      const strangers = groups.filter((g) => g !== a);
      expect(strangers).toHaveLength(3);
      expect(strangers.every((g) => g.faces.length === 1 && !isRecurring(g))).toBe(true);
    },
    SLOW,
  );
});
