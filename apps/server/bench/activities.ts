/**
 * npm run bench:activities — what turning camera uploads into activities costs, measured in process on the
 * embedded database (PGlite) with the packaged ffmpeg:
 * - a 10 s 720p H.264 clip (poster, probe, HLS by copy), and the same clip in H.265 (HLS re-encoded);
 * - a 1280×720 JPEG snapshot starting an activity, and one joining it;
 * - GET /api/users/activities (a page of 20) with 2,000 activities stored.
 * Prints p50/max (clips) or p50/p95 (the rest). Memory is measured where the server runs as it does in
 * production (bench:ingest, bench:pipeline), not here.
 * Target (issue "Camera event ingest", 2 cores): a 10 s 720p clip processed (poster + HLS) in ≤ 3 s.
 * BENCH_CLIPS, BENCH_IMAGES and BENCH_LIST change the counts.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createFsStorage } from '../src/adapters/storage/fs.storage.js';
import { createServer } from '../src/app.js';
import { createAdapters } from '../src/bootstrap.js';
import { loadConfig } from '../src/platform/config.js';
import { FFMPEG } from '../test/clips.js';

const CLIPS = Number(process.env.BENCH_CLIPS ?? 5);
const IMAGES = Number(process.env.BENCH_IMAGES ?? 50);
const LIST_CALLS = Number(process.env.BENCH_LIST ?? 200);
const STORED_ACTIVITIES = 2_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;

function makeClip(dir: string, codec: 'h264' | 'hevc'): Buffer {
  const out = join(dir, `clip-${codec}.mp4`);
  const encoder =
    codec === 'h264'
      ? ['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2M', '-g', '50']
      : [
          '-c:v',
          'libx265',
          '-preset',
          'fast',
          '-b:v',
          '1M',
          '-tag:v',
          'hvc1',
          '-x265-params',
          'log-level=error',
        ];
  const r = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000', '-t', '10', '-pix_fmt', 'yuv420p'],
    ...encoder,
    ...['-c:a', 'aac', out],
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg could not make the ${codec} clip: ${r.stderr.toString()}`);
  return readFileSync(out);
}

const dataDir = mkdtempSync(join(tmpdir(), 'hs-bench-activities-'));
const email = `bench-activities-${Date.now()}@example.com`;
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', VERIFICATION_EXEMPT_EMAILS: email });
const deps = await createAdapters(config);
const { app, modules } = await createServer(deps);
await app.ready();
const storage = createFsStorage({ root: join(dataDir, 'media'), signUrl: () => '' });

try {
  const signUp = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up',
    payload: { email, password: 'bench password' },
  });
  const auth = { authorization: `Bearer ${signUp.json<{ idToken: string }>().idToken}` };
  await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: auth,
    payload: { timezone: 'Europe/Berlin' },
  });
  const [{ id: userId } = { id: '' }] = await deps.database.query<{ id: string }>(
    'select id from users where email = $1',
    [email],
  );

  let clock = Date.now() - 3_600_000;
  /** Stores a file as the ingest does and times its processing; each call is its own camera event. */
  async function processOnce(camera: string, bytes: Buffer, contentType: string, at = (clock += 60_000)) {
    const id = randomUUID();
    const ext = contentType === 'video/mp4' ? 'mp4' : 'jpg';
    const key = `users/${userId}/uploads/${id}.${ext}`;
    await storage.put(key, bytes, contentType);
    await deps.database.query(
      `insert into uploads (id, user_id, camera_name, source, storage_key, original_name, media_kind, content_type, size_bytes, received_at)
       values ($1, $2, $3, 'http', $4, $5, $6, $7, $8, $9)`,
      [
        id,
        userId,
        camera,
        key,
        `x.${ext}`,
        ext === 'mp4' ? 'video' : 'image',
        contentType,
        bytes.length,
        new Date(at),
      ],
    );
    const started = performance.now();
    const outcome = await modules.activities.processUpload(id);
    const took = performance.now() - started;
    if (outcome !== 'created' && outcome !== 'joined') throw new Error(`upload ${id}: ${outcome}`);
    return took;
  }

  const work = mkdtempSync(join(tmpdir(), 'hs-bench-clips-'));
  console.log(`bench:activities (in process, PGlite, ${FFMPEG})`);
  for (const codec of ['h264', 'hevc'] as const) {
    const clip = makeClip(work, codec);
    await processOnce(`Warm-up ${codec}`, clip, 'video/mp4');
    const times: number[] = [];
    for (let i = 0; i < CLIPS; i++) times.push(await processOnce(`Clip ${codec} ${i}`, clip, 'video/mp4'));
    console.log(
      `  10 s 720p ${codec === 'h264' ? 'H.264 (HLS copied)   ' : 'H.265 (HLS re-encoded)'} ${(clip.length / 1e6).toFixed(1)} MB: p50 ${ms(percentile(times, 50))}, max ${ms(Math.max(...times))} (${CLIPS} clips)`,
    );
  }

  const snapshot = await sharp({
    create: {
      width: 1280,
      height: 720,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const created: number[] = [];
  const joined: number[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const at = (clock += 60_000);
    created.push(await processOnce('Snapshots', snapshot, 'image/jpeg', at));
    joined.push(await processOnce('Snapshots', snapshot, 'image/jpeg', at + 2_000));
  }
  console.log(
    `  1280×720 JPEG (${Math.round(snapshot.length / 1024)} KB), new activity: p50 ${ms(percentile(created, 50))}, p95 ${ms(percentile(created, 95))}; joining one: p50 ${ms(percentile(joined, 50))}, p95 ${ms(percentile(joined, 95))}`,
  );

  const [{ id: cameraId } = { id: '' }] = await deps.database.query<{ id: string }>(
    `select id from cameras where user_id = $1 and name = 'Snapshots'`,
    [userId],
  );
  await deps.database.query(
    `insert into activities (user_id, camera_id, camera_name, occurred_at, last_file_at, media_kind, thumbnail_key, image_keys, width, height)
     select $1::uuid, $2::uuid, 'Snapshots', now() - (g * interval '1 minute'), now() - (g * interval '1 minute'),
            'image', $4::text || '/thumb.webp', jsonb_build_array($4::text || '/image.jpg'), 1280, 720
     from generate_series(1, $3::int) g`,
    [userId, cameraId, STORED_ACTIVITIES, `users/${userId}/activities/bench`],
  );
  for (const [label, url] of [
    ['first page', '/api/users/activities?pageSize=20'],
    ['page 50, one camera', '/api/users/activities?pageSize=20&page=50&camera_name=snapshots'],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < LIST_CALLS; i++) {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url, headers: auth });
      times.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    }
    console.log(
      `  GET ${label} of ${STORED_ACTIVITIES + IMAGES + 2 * (CLIPS + 1)} activities: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
    );
  }
} finally {
  await app.close();
  await deps.database.close();
}
