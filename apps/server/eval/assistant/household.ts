/**
 * The eval's household, built through the API as a user would: sign-up, a profile in Europe/Berlin, the
 * properties "Home" and "Cabin", four cameras, a known person ("Barack", with three fixture photos), then
 * eight events at pinned wall times before the pinned "now" (Tuesday 17 November 2026, 03:18 in Berlin).
 *
 * The events are planted with the activities test support (`insertActivity`): analysed activities as the
 * pipeline leaves them (objects with scores, a colour, recognised people, an image or a clip), each standing
 * for one fixture photo or clip and showing what its `labels.json` says it shows (checked when the household
 * is built). The vision models are not run: the eval measures the assistant's deterministic path, not vision
 * (that is `npm run eval:vision`), and stays a few seconds long.
 */
import { readFileSync } from 'node:fs';
import type { TestApp } from '../../test/app.js';
import { fixturePath } from '../../test/fixtures.js';
import { multipart } from '../../test/images.js';
import {
  insertActivity,
  userWithCameras,
  type World,
} from '../../src/modules/assistant/assistant.test-support.js';
import type { ActivityObject, RecognisedMemory } from '../../src/platform/db/schema.js';

export const TIMEZONE = 'Europe/Berlin';
/** The household's "now": a Tuesday, 03:18 in Berlin (CET, UTC+1), two minutes after the last event. */
export const HOUSEHOLD_NOW = new Date('2026-11-17T03:18:00+01:00');

export const SITES = { Home: ['Front Door', 'Driveway', 'Backyard'], Cabin: ['Cabin Porch'] } as const;
export const CAMERA_NAMES = Object.values(SITES).flat() as string[];
export const SITE_NAMES = Object.keys(SITES);
export const KNOWN_PEOPLE = ['Barack'];

export interface PlantedEvent {
  key: string;
  /** Wall time in Berlin, with its offset. */
  at: string;
  camera: string;
  fixture: string;
  objects: ActivityObject[];
  /** Names of known people recognised. */
  people?: string[];
}

const personObj = (score = 0.92): ActivityObject => ({ kind: 'person', label: 'person', score });

/** What happened, oldest first. Sunday afternoon at the cabin, Monday evening and the night into Tuesday. */
export const EVENTS: PlantedEvent[] = [
  {
    key: 'sun-cabin-barack',
    at: '2026-11-15T14:20:00+01:00',
    camera: 'Cabin Porch',
    fixture: 'person-obama-3.jpg',
    objects: [personObj()],
    people: ['Barack'],
  },
  {
    key: 'mon-driveway-car',
    at: '2026-11-16T17:42:00+01:00',
    camera: 'Driveway',
    fixture: 'clip-car.mp4',
    objects: [{ kind: 'vehicle', label: 'car', score: 0.86, color: 'white' }],
  },
  {
    key: 'mon-door-barack',
    at: '2026-11-16T18:05:00+01:00',
    camera: 'Front Door',
    fixture: 'person-obama-1.jpg',
    objects: [personObj()],
    people: ['Barack'],
  },
  {
    key: 'mon-backyard-cat',
    at: '2026-11-16T21:37:00+01:00',
    camera: 'Backyard',
    fixture: 'cat.jpg',
    objects: [{ kind: 'animal', label: 'cat', score: 0.88 }],
  },
  {
    key: 'mon-cabin-stranger',
    at: '2026-11-16T23:50:00+01:00',
    camera: 'Cabin Porch',
    fixture: 'clip-person.mp4',
    objects: [personObj(0.81)],
  },
  {
    key: 'tue-driveway-car-person',
    at: '2026-11-17T02:12:00+01:00',
    camera: 'Driveway',
    fixture: 'car-parking-cctv.jpg',
    objects: [{ kind: 'vehicle', label: 'car', score: 0.83, color: 'black' }, personObj(0.74)],
  },
  {
    key: 'tue-door-three',
    at: '2026-11-17T03:04:00+01:00',
    camera: 'Front Door',
    fixture: 'group-three-people.jpg',
    objects: [personObj(0.95), personObj(0.93), personObj(0.9)],
  },
  {
    key: 'tue-backyard-dog',
    at: '2026-11-17T03:16:00+01:00',
    camera: 'Backyard',
    fixture: 'dog.jpg',
    objects: [
      { kind: 'animal', label: 'dog', score: 0.9 },
      { kind: 'vehicle', label: 'truck', score: 0.62 },
    ],
  },
];

export interface Household extends World {
  /** Activity ids by event key. */
  events: Record<string, string>;
  memoryIds: Record<string, string>;
  /** Photos the people memory got (0 when the server refused them, e.g. without a face engine). */
  photos: number;
}

/** Builds the household on a test app whose clock reads HOUSEHOLD_NOW (or later). */
export async function buildHousehold(t: TestApp): Promise<Household> {
  const world = await userWithCameras(t, { Home: [...SITES.Home], Cabin: [...SITES.Cabin] });
  const memoryIds: Record<string, string> = {};
  let photos = 0;
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/users/memories/people',
    headers: world.user.auth,
    payload: { name: 'Barack', notes: 'My brother-in-law, he has a key' },
  });
  if (created.statusCode !== 201) throw new Error(`memory: ${created.statusCode} ${created.body}`);
  memoryIds.Barack = created.json<{ data: { memory_uuid: string } }>().data.memory_uuid;
  for (const name of ['person-obama-1.jpg', 'person-obama-2.jpg']) {
    const { payload, headers } = multipart('image', name, 'image/jpeg', readFileSync(fixturePath(name)));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/users/memories/people/${memoryIds.Barack}/images`,
      payload,
      headers: { ...world.user.auth, ...headers },
    });
    if (res.statusCode < 300) photos += 1;
  }

  // Each planted event shows only kinds its fixture really has.
  const labels = JSON.parse(readFileSync(fixturePath('labels.json'), 'utf8')) as {
    files: Record<string, { kinds: string[] }>;
  };
  for (const e of EVENTS) {
    const truth = labels.files[e.fixture]?.kinds;
    const extra = e.objects.map((o) => o.kind).filter((k) => !truth?.includes(k));
    if (!truth || extra.length)
      throw new Error(`event ${e.key}: ${e.fixture} does not show ${extra.join(', ')}`);
  }

  const events: Record<string, string> = {};
  for (const e of EVENTS) {
    const camera = world.cameras[e.camera]!;
    const at = new Date(e.at);
    const recognised: RecognisedMemory[] = (e.people ?? []).map((name) => ({
      category: 'people',
      memory_uuid: memoryIds[name]!,
      name,
    }));
    const video = e.fixture.endsWith('.mp4');
    events[e.key] = await insertActivity(t, world, camera, {
      at,
      objects: e.objects,
      recognised,
      mediaKind: video ? 'video' : 'image',
      keys: {
        thumbnail: `users/${world.userId}/activities/${camera.id}/${e.fixture.replace(/\.\w+$/, '')}.jpg`,
        ...(video ? { video: `users/${world.userId}/activities/${camera.id}/${e.fixture}` } : {}),
      },
    });
  }
  return { ...world, events, memoryIds, photos };
}
