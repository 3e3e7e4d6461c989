import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { createLogger } from '../../platform/logger.js';
import type { StreamCamera, StreamCameras } from '../cameras/cameras.module.js';
import { userMediaPrefix } from '../media/media.module.js';
import { createSupervision } from './streams.supervision.js';

const folder = (userId: string) => `${userMediaPrefix(userId)}/snapshots`;

const USER = '3d2f1b7e-55a4-4d38-9a57-6c1f0e2b8a10';
const OTHER = 'b1e4d7c2-0f6a-4a39-8d5e-2c7b9e1f4a63';

function streamCamera(id: string, over: Partial<StreamCamera> = {}): StreamCamera {
  return {
    id,
    userId: USER,
    name: id,
    connection: { type: 'rtsp', url: 'rtsp://192.168.1.20/stream' },
    config: null,
    configurationStatus: 'configured',
    configurationStartedAt: null,
    isPrivate: false,
    motionSensitivity: 6,
    streamStatus: 'streaming',
    snapshotKey: null,
    ...over,
  };
}

/** The cameras side as the supervision uses it: rows in memory. */
function fakeCameras(rows: Map<string, StreamCamera>) {
  return {
    all: async () => [...rows.values()],
    ofUser: async (userId: string) => [...rows.values()].filter((c) => c.userId === userId),
    find: async (id: string) => rows.get(id),
    snapshot: async (id: string, key: string | null, _at: Date | null, first = false) => {
      const row = rows.get(id);
      if (row) rows.set(id, { ...row, snapshotKey: key });
      announced.push({ id, first });
    },
    streamState: async () => undefined,
  } as unknown as StreamCameras;
}

async function keys(storage: ObjectStorage, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const { key } of storage.list(prefix)) found.push(key);
  return found.sort();
}

let dir: string;
let storage: ObjectStorage;
let rows: Map<string, StreamCamera>;
/** Each stored frame, and whether it was announced to the owner's screens as the camera's first. */
let announced: { id: string; first: boolean }[];
let supervision: ReturnType<typeof createSupervision>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'homesitter-supervision-'));
  storage = createFsStorage({ root: dir, signUrl: () => '' });
  rows = new Map();
  announced = [];
  supervision = createSupervision({
    cameras: fakeCameras(rows),
    ingest: { acceptUpload: async () => undefined } as never,
    storage,
    log: createLogger('silent'),
    workDir: join(dir, 'work'),
    createPipe: () => {
      throw new Error('no pipe is started in these tests');
    },
  });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a stream camera's latest frame", () => {
  it('keeps the previous frame one more round, so a URL a client just received still answers', async () => {
    const camera = streamCamera('c1');
    const neighbour = streamCamera('c2');
    const stranger = streamCamera('c3', { userId: OTHER });
    for (const c of [camera, neighbour, stranger]) rows.set(c.id, c);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    await supervision.snapshot(neighbour, jpeg, new Date(500));
    await supervision.snapshot(stranger, jpeg, new Date(500));

    await supervision.snapshot(camera, jpeg, new Date(1000));
    const first = rows.get('c1')!.snapshotKey!;
    await supervision.snapshot({ ...camera, snapshotKey: first }, jpeg, new Date(2000));
    const second = rows.get('c1')!.snapshotKey!;
    expect(await storage.exists(first)).toBe(true);
    expect(await storage.exists(second)).toBe(true);

    await supervision.snapshot({ ...camera, snapshotKey: second }, jpeg, new Date(3000));
    const third = rows.get('c1')!.snapshotKey!;
    expect(await storage.exists(first)).toBe(false);
    const own = (await keys(storage, folder(USER))).filter((k) => k.includes('/c1-'));
    expect(own).toEqual([second, third].sort());
    // Another camera's frames and another user's are untouched.
    expect((await keys(storage, folder(USER))).filter((k) => k.includes('/c2-'))).toHaveLength(1);
    expect(await keys(storage, folder(OTHER))).toHaveLength(1);
  });

  it("announces a camera's first picture to open screens, and the next ones only quietly", async () => {
    const camera = streamCamera('c1');
    rows.set('c1', camera);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    await supervision.snapshot(camera, jpeg, new Date(1000));
    await supervision.snapshot(rows.get('c1')!, jpeg, new Date(2000));
    await supervision.snapshot(rows.get('c1')!, jpeg, new Date(3000));
    expect(announced).toEqual([
      { id: 'c1', first: true },
      { id: 'c1', first: false },
      { id: 'c1', first: false },
    ]);
  });

  it('keeps no frame at all, the previous one included, once the camera is private', async () => {
    const camera = streamCamera('c1');
    rows.set('c1', camera);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    await supervision.snapshot(camera, jpeg, new Date(1000));
    await supervision.snapshot({ ...camera, snapshotKey: rows.get('c1')!.snapshotKey }, jpeg, new Date(2000));
    expect((await keys(storage, folder(USER))).length).toBe(2);

    rows.set('c1', { ...rows.get('c1')!, isPrivate: true });
    await supervision.syncCamera('c1');
    expect(await keys(storage, folder(USER))).toEqual([]);
    expect(rows.get('c1')!.snapshotKey).toBeNull();
  });
});
