/**
 * npm run bench:api — load on the API of a built server running on the embedded database.
 * Prints requests/s, latency p50/p99, the server's CPU time per request and its peak RSS per scenario.
 * Targets (2 cores): GET /api/users/profile ≥ 2,000 req/s, p99 ≤ 25 ms, RSS ≤ 250 MB; the cameras list
 * (50 cameras) p99 ≤ 25 ms; the memories list (200 memories, 1,000 photos) p99 ≤ 50 ms; the newest
 * conversation page (10,000 messages) p99 ≤ 20 ms.
 * Latency and req/s move with whatever else runs on the machine; the CPU time per request (user + system
 * time of the server process over the run, divided by its requests) moves much less, so compare that too.
 * Requests say `accept-encoding: gzip, deflate, br`, as browsers and the phones' HTTP stacks do: large lists
 * are answered gzipped (KB/answer is what went over the wire).
 * The load comes from `load.ts` (closed loop, keep-alive connections); why not autocannon is said there.
 */
import { seedConversation } from './chat-seed.js';
import { benchUser, postJson, startBenchServer } from './harness.js';
import { load } from './load.js';
import { CLOCK_TICKS, cpuTicks } from './proc.js';
import { MEMORIES_USER, twoHundredMemoriesWithAThousandPhotos, uploadPeakRss } from './memories.js';

/** What every real client sends besides its token. */
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, deflate, br' };
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Scenario {
  name: string;
  path: string;
  /** Makes the data the scenario needs through the API; answers the headers to run it with. */
  setup?: (base: string) => Promise<Record<string, string>>;
  /** Waits for the background work the setup caused (the vision process going quiet) before measuring. */
  settle?: boolean;
}

/** A verification-exempt user (camera calls need a verified email) with 50 cameras in 5 properties. */
const CAMERAS_USER = 'bench-cameras@example.com';
async function fiftyCamerasInFiveProperties(base: string) {
  const session = await postJson<{ idToken: string }>(`${base}/api/auth/sign-up`, {
    email: CAMERAS_USER,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
  for (let p = 1; p <= 5; p += 1) {
    const site = (
      await postJson<{ data: { site_uuid: string } }>(
        `${base}/api/users/sites`,
        { name: `Property ${p}` },
        auth,
      )
    ).data;
    for (let c = 1; c <= 10; c += 1) {
      await postJson(
        `${base}/api/users/cameras`,
        {
          name: `Camera ${p}-${c}`,
          site_uuid: site.site_uuid,
          settings: { notes: 'Faces the driveway', username: 'admin', password: 'camera-pass' },
        },
        auth,
      );
    }
  }
  return auth;
}

const scenarios: Scenario[] = [
  { name: 'GET /api/users/profile', path: '/api/users/profile' },
  { name: 'GET /api/users/cameras (50)', path: '/api/users/cameras', setup: fiftyCamerasInFiveProperties },
  {
    name: 'GET /api/users/memories (200, 1,000 photos)',
    path: '/api/users/memories?force=true',
    setup: twoHundredMemoriesWithAThousandPhotos,
    // Its people photos' faces are learnt in the background (the server decodes each for the vision
    // process): the list is measured once that is done, not while it competes with it.
    settle: true,
  },
  {
    name: 'GET conversation-history (10,000 messages)',
    path: '/api/users/conversation-history?page=1&pageSize=10',
    setup: (base) => conversation.authOn(base),
  },
];

// The chat user's 10,000 messages go in through the repository before the server opens the database.
const conversation = await seedConversation(10_000);
const server = await startBenchServer({
  DATA_DIR: conversation.dataDir,
  VERIFICATION_EXEMPT_EMAILS: [CAMERAS_USER, MEMORIES_USER, conversation.email].join(','),
});
/** User + system CPU time of the server process so far, in ms (Linux /proc). */
function serverCpuMs(): number {
  return ((cpuTicks(server.pid) ?? 0) * 1000) / CLOCK_TICKS;
}

try {
  const auth = await benchUser(server.base);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
  console.log(`bench:api — ${DURATION_S} s per scenario, ${CONNECTIONS} connections, ${engine}\n`);
  for (const s of scenarios) {
    const headers = { ...(s.setup ? await s.setup(server.base) : auth), ...CLIENT_HEADERS };
    if (s.settle) await server.visionSettled();
    // A short warm-up so the JIT and the database caches are in their steady state.
    const url = `${server.base}${s.path}`;
    await load({ url, headers, connections: CONNECTIONS, durationS: 2 });
    const cpuBefore = serverCpuMs();
    const r = await load({ url, headers, connections: CONNECTIONS, durationS: DURATION_S });
    const cpuPerRequestUs = ((serverCpuMs() - cpuBefore) * 1000) / Math.max(1, r.requests);
    console.log(
      [
        s.name.padEnd(44),
        `${Math.round(r.perSecond)} req/s`.padStart(12),
        `p50 ${r.latency.p50} ms`.padStart(13),
        `p99 ${r.latency.p99} ms`.padStart(13),
        `CPU ${Math.round(cpuPerRequestUs)} µs/req`.padStart(16),
        `${(r.bytesPerRequest / 1024).toFixed(1)} KB/answer`.padStart(16),
        `peak RSS ${server.peakRssMb()} MB`.padStart(18),
        r.failed ? `  (${r.failed} failed)` : '',
      ].join(' '),
    );
  }
  // The people memories' photos above queue recognition.learn-faces; the models run in their own process.
  console.log(`vision process (memory photos' faces): peak RSS ${server.visionPeakRssMb()} MB`);
} finally {
  await server.stop();
}

// Uploads on a fresh server, so its peak RSS is the uploads' own.
console.log(await uploadPeakRss({}));
