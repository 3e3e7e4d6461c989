/**
 * npm run bench:api — load on the API of a built server running on the embedded database.
 * Prints requests/s, latency p50/p99 and the server's peak RSS per scenario.
 * Targets (issue "Foundation", 2 cores): GET /api/users/profile ≥ 2,000 req/s, p99 ≤ 25 ms, RSS ≤ 250 MB.
 */
import autocannon from 'autocannon';
import { benchUser, startBenchServer } from './harness.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

interface Scenario {
  name: string;
  path: string;
}

const scenarios: Scenario[] = [{ name: 'GET /api/users/profile', path: '/api/users/profile' }];

const server = await startBenchServer();
try {
  const auth = await benchUser(server.base);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite';
  console.log(`bench:api — ${DURATION_S} s per scenario, ${CONNECTIONS} connections, ${engine}\n`);
  for (const s of scenarios) {
    // A short warm-up so the JIT and the database caches are in their steady state.
    await autocannon({
      url: `${server.base}${s.path}`,
      headers: auth,
      connections: CONNECTIONS,
      duration: 2,
    });
    const r = await autocannon({
      url: `${server.base}${s.path}`,
      headers: auth,
      connections: CONNECTIONS,
      duration: DURATION_S,
    });
    const non2xx = r.non2xx + r.errors;
    console.log(
      [
        s.name.padEnd(28),
        `${Math.round(r.requests.average)} req/s`.padStart(12),
        `p50 ${r.latency.p50} ms`.padStart(12),
        `p99 ${r.latency.p99} ms`.padStart(12),
        `peak RSS ${server.peakRssMb()} MB`.padStart(18),
        non2xx ? `  (${non2xx} failed)` : '',
      ].join(' '),
    );
  }
} finally {
  await server.stop();
}
