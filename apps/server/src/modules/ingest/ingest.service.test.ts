import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { recordCalls } from '../../../test/calls.js';
import { createLogger } from '../../platform/logger.js';
import type { Jobs } from '../../platform/jobs.js';
import { cameraNameFromFtpPath } from './camera-name.js';
import { createBacklogGate, type BacklogGate } from './ingest.backlog.js';
import { UploadRefusedError } from './ingest.errors.js';
import { createIngestRepository } from './ingest.repository.js';
import { createIngestService } from './ingest.service.js';
import { hasProcessJob, smallJpeg, uploadsOf, userIdOf, userWithLogin } from './ingest.test-support.js';

describe('camera names of FTP uploads', () => {
  it('takes the first folder of an FTP path, else the file prefix before _ or -, else "Camera"', () => {
    expect(cameraNameFromFtpPath('/Front Door/2026/11/20/x.jpg')).toBe('Front Door');
    expect(cameraNameFromFtpPath('/Porch/x.jpg')).toBe('Porch');
    expect(cameraNameFromFtpPath('/Garage_01_20261120.jpg')).toBe('Garage');
    expect(cameraNameFromFtpPath('/Drive-way.jpg')).toBe('Drive');
    expect(cameraNameFromFtpPath('/snapshot.jpg')).toBe('Camera');
    expect(cameraNameFromFtpPath('/_x.jpg')).toBe('Camera');
  });
});

describe('ingest service', () => {
  let t: TestApp;
  let userId: string;
  const media = mkdtempSync(join(tmpdir(), 'hs-ingest-media-'));
  const storage = createFsStorage({ root: media, signUrl: () => '' });
  const stored = () => readdirSync(media, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

  beforeAll(async () => {
    t = await createTestApp();
    const { user } = await userWithLogin(t);
    userId = await userIdOf(t, user);
  }, 60_000);
  afterAll(async () => t.close());

  const service = (
    jobs: Jobs,
    orphanAgeSeconds = 300,
    backlog?: BacklogGate,
    handOff?: (ids: string[]) => void,
  ) =>
    createIngestService({
      repo: createIngestRepository(t.database.db),
      database: t.database,
      storage,
      jobs,
      log: createLogger('silent'),
      dataDir: t.deps.config.DATA_DIR,
      maxBytes: 1024 * 1024,
      orphanAgeSeconds,
      ...(backlog && { backlog }),
      ...(handOff && { handOff }),
    });

  it('removes what it stored when the commit fails, and leaves no row', async () => {
    const failing: Jobs = {
      ...t.jobs,
      send: () => Promise.reject(new Error('database gone')),
      sendMany: () => Promise.reject(new Error('database gone')),
    };
    await expect(
      service(failing).acceptUpload({
        userId,
        cameraName: 'Broken',
        source: 'http',
        originalName: 'a.jpg',
        file: Readable.from([await smallJpeg()]),
      }),
    ).rejects.toThrow('database gone');
    expect(stored()).toEqual([]);
    expect((await uploadsOf(t, userId)).filter((r) => r.camera_name === 'Broken')).toEqual([]);
    // Nor is a spool file left behind.
    expect(readdirSync(join(t.deps.config.DATA_DIR, 'ingest-spool'))).toEqual([]);
  });

  it('commits uploads arriving together, and one that cannot be committed fails alone', async () => {
    const ingest = service(t.jobs);
    const jpeg = await smallJpeg();
    const upload = (owner: string, i: number) =>
      ingest.acceptUpload({
        userId: owner,
        cameraName: 'Together',
        source: 'ftp',
        originalName: `t${i}.jpg`,
        file: Readable.from([jpeg]),
      });
    const gone = '00000000-0000-4000-8000-00000000dead';
    const results = await Promise.allSettled([
      ...[0, 1, 2, 3, 4].map((i) => upload(userId, i)),
      upload(gone, 5),
      ...[6, 7, 8].map((i) => upload(userId, i)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      ...Array<string>(5).fill('fulfilled'),
      'rejected',
      ...Array<string>(3).fill('fulfilled'),
    ]);
    const names = (await uploadsOf(t, userId))
      .filter((r) => r.camera_name === 'Together')
      .map((r) => r.original_name);
    expect(names.sort()).toEqual([
      't0.jpg',
      't1.jpg',
      't2.jpg',
      't3.jpg',
      't4.jpg',
      't6.jpg',
      't7.jpg',
      't8.jpg',
    ]);
    // The failed one's bytes went with it.
    expect(stored().some((e) => e.parentPath.includes(gone))).toBe(false);
  });

  it('holds the commit (so the answer) of an upload while too many acknowledged ones wait for processing', async () => {
    // Only the test frees the place: the gate's own limit on a wait (5 s by default) never comes into it.
    const gate = createBacklogGate({ limit: 1, maxWaitMs: 3_600_000 });
    const ingest = service(t.jobs, 300, gate);
    const jpeg = await smallJpeg();
    const upload = (i: number) =>
      ingest.acceptUpload({
        userId,
        cameraName: 'Backlog',
        source: 'ftp',
        originalName: `b${i}.jpg`,
        file: Readable.from([jpeg]),
      });
    const rows = async () =>
      (await uploadsOf(t, userId)).filter((r) => r.camera_name === 'Backlog').map((r) => r.original_name);
    const first = await upload(0);
    const waits = recordCalls(gate, 'admit');
    let answered = false;
    const second = upload(1).then((u) => ((answered = true), u));
    await waits.find();
    waits.stop();
    // Stored but neither committed nor acknowledged: nothing is promised yet.
    expect(answered).toBe(false);
    expect(await rows()).toEqual(['b0.jpg']);
    ingest.uploadSettled(first.uploadId);
    await second;
    expect(await rows()).toEqual(['b0.jpg', 'b1.jpg']);
  });

  it('hands committed uploads to processing in memory, their jobs committed as the fallback', async () => {
    const handed: string[][] = [];
    const ingest = service(t.jobs, 300, undefined, (ids) => void handed.push(ids));
    const accepted = await ingest.acceptUpload({
      userId,
      cameraName: 'Handed',
      source: 'http',
      originalName: 'h.jpg',
      file: Readable.from([await smallJpeg()]),
    });
    expect(handed).toEqual([[accepted.uploadId]]);
    expect(await hasProcessJob(t, accepted.uploadId)).toBe(true);
  });

  it('refuses an oversized stream while it arrives', async () => {
    const endless = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024);
      })(),
    );
    const err: unknown = await service(t.jobs)
      .acceptUpload({ userId, cameraName: 'Big', source: 'ftp', originalName: 'big.jpg', file: endless })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UploadRefusedError);
    expect((err as UploadRefusedError).reason).toBe('too_large');
    expect(readdirSync(join(t.deps.config.DATA_DIR, 'ingest-spool'))).toEqual([]);
  });

  it('sweeps stored uploads no row refers to once they are old enough, and nothing else', async () => {
    const ingest = service(t.jobs, 60);
    const kept = await ingest.acceptUpload({
      userId,
      cameraName: 'Kept',
      source: 'http',
      originalName: 'kept.jpg',
      file: Readable.from([await smallJpeg()]),
    });
    const keptKey = `users/${userId}/uploads/${kept.uploadId}.jpg`;
    const old = new Date(Date.now() - 10 * 60_000);
    const orphan = `users/${userId}/uploads/00000000-0000-4000-8000-000000000001.jpg`;
    const young = `users/${userId}/uploads/00000000-0000-4000-8000-000000000002.jpg`;
    await storage.put(orphan, await smallJpeg(), 'image/jpeg');
    await storage.put(young, await smallJpeg(), 'image/jpeg');
    utimesSync(join(media, orphan), old, old);
    utimesSync(join(media, keptKey), old, old);
    const spool = join(t.deps.config.DATA_DIR, 'ingest-spool', 'left-over.part');
    writeFileSync(spool, 'x');
    utimesSync(spool, old, old);

    expect(await ingest.sweepOrphans()).toEqual({ objects: 1, spoolFiles: 1 });
    expect(await storage.exists(orphan)).toBe(false);
    expect(await storage.exists(young)).toBe(true);
    // The processing job may have taken the kept upload's file into an activity by now; never the sweep.
    const row = (await uploadsOf(t, userId)).find((r) => r.id === kept.uploadId);
    if (row?.status === 'pending') expect(await storage.exists(keptKey)).toBe(true);
  });
});
