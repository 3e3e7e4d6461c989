/**
 * npm run bench:ingest — camera uploads on a built server started as `npm start` runs it (embedded PGlite,
 * local storage, the packaged ffmpeg; the AI's vision off, so its work is left out):
 * - 8 FTP clients upload 200 KB JPEGs for 30 s. By default each client is a camera of its own (8 cameras
 *   sending snapshots: a camera's files within 10 s join its activity); `BENCH_CAMERAS=upload` sends every
 *   file to a new camera, the worst case (a camera registered and an activity created per upload). Prints
 *   accepted events/s (226 answers), p50/p95 from acknowledgement to the file stored in its activity, and the
 *   server's peak RSS. The times come from the server's own clock in the `uploads` table, read after the
 *   run: `received_at` (set in the transaction the 226 waits for, so never after it) to `processed_at`.
 * - then a 10 s 720p H.264 clip (testsrc), uploaded 5 times: 226 → activity with poster and HLS.
 * Targets (issue "Camera event ingest", 2 cores): ≥ 50 events/s, p95 ≤ 500 ms, RSS ≤ 400 MB; clip ≤ 3 s.
 * BENCH_DURATION_S, BENCH_CLIENTS and BENCH_CLIPS change the run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { Client } from 'basic-ftp';
import sharp from 'sharp';
import { createDatabase, pgliteDirFor } from '../src/platform/db/client.js';
import { FFMPEG } from '../test/clips.js';
import { postJson, startBenchServer } from './harness.js';
import { CLOCK_TICKS, cpuTicks } from './proc.js';
import { freePort } from '../test/ports.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 30);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const CLIPS = Number(process.env.BENCH_CLIPS ?? 5);
const CAMERA_PER_UPLOAD = process.env.BENCH_CAMERAS === 'upload';
/** How long after the load the last activities may take before they count as lost. */
const DRAIN_TIMEOUT_MS = 60_000;
const TARGET_BYTES = 200 * 1024;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (n: number) => `${Math.round(n)} ms`;
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

/**
 * A 1280×720 camera-like frame of about 200 KB: a gradient with sensor-like noise, the quality picked so the
 * JPEG lands near the size.
 */
async function snapshot(): Promise<Buffer> {
  const width = 1280;
  const height = 720;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 1;
  const noise = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 25) - 12;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, (x * 255) / width + noise()));
      raw[i + 1] = Math.max(0, Math.min(255, (y * 255) / height + noise()));
      raw[i + 2] = Math.max(0, Math.min(255, 128 + noise()));
    }
  let best: Buffer | undefined;
  for (let quality = 95; quality >= 30; quality -= 5) {
    const jpeg = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    if (!best || Math.abs(jpeg.length - TARGET_BYTES) < Math.abs(best.length - TARGET_BYTES)) best = jpeg;
    if (jpeg.length <= TARGET_BYTES) break;
  }
  return best!;
}

/** A 10 s 1280×720 H.264 clip from ffmpeg's test pattern, as a camera would record it. */
function clip(): Buffer {
  const out = join(mkdtempSync(join(tmpdir(), 'hs-bench-clip-')), 'clip.mp4');
  const r = spawnSync(
    FFMPEG,
    [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=1280x720:rate=25',
        '-t',
        '10',
      ],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2M', '-g', '50', '-pix_fmt', 'yuv420p', out],
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`ffmpeg could not make the clip: ${r.stderr}`);
  return readFileSync(out);
}

const loadAtStart = loadavg();
const ftpPort = await freePort();
const pasvMin = 40_000 + Math.floor(Math.random() * 200) * 100;
const email = `bench-ingest-${Date.now()}@example.com`;
const dataDir = mkdtempSync(join(tmpdir(), 'hs-bench-ingest-'));
const server = await startBenchServer({
  DATA_DIR: dataDir,
  VERIFICATION_EXEMPT_EMAILS: email,
  FTP_PORT: String(ftpPort),
  FTP_PASV_MIN: String(pasvMin),
  FTP_PASV_MAX: String(pasvMin + 49),
  INGEST_SMTP_PORT: String(await freePort()),
  VISION_ENABLED: 'false',
});
const clients: Client[] = [];
try {
  const session = await postJson<{ idToken: string }>(`${server.base}/api/auth/sign-up`, {
    email,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${server.base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
  const login = (
    (await (await fetch(`${server.base}/api/users/camera-email-credentials`, { headers: auth })).json()) as {
      data: { username: string; password: string };
    }
  ).data;

  // Activities arrive at the app's realtime client as ActivityCreated, named by their camera.
  const created = new Map<string, number>();
  const hub = new HubConnectionBuilder()
    .withUrl(`${server.base}/api/realtime`, {
      accessTokenFactory: () => session.idToken,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  hub.on('ActivityCreated', (event: { camera_name: string | null }) => {
    if (event.camera_name && !created.has(event.camera_name))
      created.set(event.camera_name, performance.now());
  });
  await hub.start();

  for (let i = 0; i < CLIENTS; i++) {
    const c = new Client(30_000);
    await c.access({ host: '127.0.0.1', port: ftpPort, user: login.username, password: login.password });
    clients.push(c);
  }

  const jpeg = await snapshot();
  // Warm-up: the first uploads pay for JIT, sharp's start and the first camera and queue rows.
  await Promise.all(clients.map((c, i) => c.uploadFrom(Readable.from([jpeg]), `/Warm ${i}/w.jpg`)));

  let acked = 0;
  // The server's CPU time per event tells a change's cost even on a busy machine, where events/s mostly
  // tells how much of the CPU the server got.
  const ticksAtStart = cpuTicks(server.pid) ?? 0;
  const started = performance.now();
  const stopAt = started + DURATION_S * 1000;
  let refused = 0;
  await Promise.all(
    clients.map(async (c, i) => {
      for (let n = 0; performance.now() < stopAt; n++) {
        const path = CAMERA_PER_UPLOAD ? `/E${i}-${n}/snap.jpg` : `/Camera ${i}/2026/11/21/${n}.jpg`;
        try {
          const res = await c.uploadFrom(Readable.from([jpeg]), path);
          if (res.code === 226) acked += 1;
        } catch {
          refused += 1;
        }
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;
  const rssAfterLoad = server.peakRssMb();
  const ticksAfterLoad = cpuTicks(server.pid) ?? 0;

  // Wait until every snapshot is in an activity (the list shows each activity's snapshots). The list is read
  // once a second, and with a camera per upload only once every activity was announced: read more often, the
  // pages of a thousand activities were a third of the embedded database's work while the last uploads were
  // still being processed, and made them look slower than they are.
  const expected = acked + CLIENTS;
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  for (let stored = 0; stored < expected && performance.now() < deadline; await sleep(1000)) {
    if (CAMERA_PER_UPLOAD && created.size < expected) continue;
    stored = 0;
    for (let page = 1; ; page++) {
      const res = (await (
        await fetch(`${server.base}/api/users/activities?page=${page}&pageSize=100`, { headers: auth })
      ).json()) as { data: { image_urls: string[] }[]; pagination: { hasMore: boolean } };
      stored += res.data.reduce((sum, a) => sum + a.image_urls.length, 0);
      if (!res.pagination.hasMore) break;
    }
  }

  console.log(
    `load average at the start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `bench:ingest — ${CLIENTS} FTP clients, ${CAMERA_PER_UPLOAD ? 'a new camera per upload' : 'a camera per client'}, ${Math.round(jpeg.length / 1024)} KB JPEGs, ${DURATION_S} s, embedded PGlite, vision off`,
  );
  const loadLine = [
    `accepted ${acked} (${(acked / elapsedS).toFixed(1)} events/s)`,
    `failed ${refused}`,
    `peak RSS during load ${rssAfterLoad} MB`,
    `server CPU ${(((ticksAfterLoad - ticksAtStart) * 1000) / CLOCK_TICKS / Math.max(1, acked)).toFixed(1)} ms per event`,
  ];
  console.log(loadLine.join('   '));
  if (CLIPS > 0) {
    const video = clip();
    const clipTimes: number[] = [];
    const c = clients[0]!;
    for (let i = 1; i <= CLIPS; i++) {
      const camera = `Clip ${i}`;
      await c.uploadFrom(Readable.from([video]), `/${camera}/clip.mp4`);
      const at = performance.now();
      const until = at + DRAIN_TIMEOUT_MS;
      while (!created.has(camera) && performance.now() < until) await sleep(20);
      const done = created.get(camera);
      if (done !== undefined) clipTimes.push(Math.max(0, done - at));
    }
    console.log(
      [
        `10 s 720p H.264 clip (${(video.length / 1024 / 1024).toFixed(1)} MB) 226 → activity with poster and HLS: ${clipTimes.length}/${CLIPS}`,
        `p50 ${ms(percentile(clipTimes, 50))}`,
        `max ${ms(Math.max(...clipTimes))}`,
      ].join('   '),
    );
  }
  console.log(`server peak RSS ${server.peakRssMb()} MB`);
  await hub.stop();
} finally {
  for (const c of clients) c.close();
  await server.stop();
}

// The server has stopped, so its embedded database can be opened here and read.
const database = await createDatabase({ pgliteDir: pgliteDirFor(dataDir) });
const rows = await database.query<{ ms: number; status: string }>(
  `select extract(epoch from (processed_at - received_at)) * 1000 as ms, status
     from uploads where original_name like '%.jpg' and original_name <> 'w.jpg'`,
);
await database.close();
const latencies = rows.filter((r) => r.status === 'processed').map((r) => Number(r.ms));
console.log(
  [
    `snapshots stored in an activity ${latencies.length}/${rows.length}`,
    `226 → stored p50 ${ms(percentile(latencies, 50))}`,
    `p95 ${ms(percentile(latencies, 95))}`,
    `max ${ms(Math.max(...latencies))}`,
  ].join('   '),
);
