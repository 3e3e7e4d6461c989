/**
 * npm run bench:realtime — 1,000 SignalR clients (the official @microsoft/signalr client) connected over
 * loopback to a built server, one event delivered to each. Prints delivery latency p50/p99 (from the publishing
 * request to the client's handler) and the server's RSS. Target (issue 8, 2 cores): p99 ≤ 100 ms, RSS ≤ 500 MB.
 * BENCH_CLIENTS and BENCH_USERS change the shape (clients are spread evenly over the users).
 */
import { HubConnectionBuilder, HttpTransportType, LogLevel, type HubConnection } from '@microsoft/signalr';
import { readFileSync } from 'node:fs';
import { postJson, startBenchServer } from './harness.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const USERS = Number(process.env.BENCH_USERS ?? 20);
const PER_USER = Math.ceil(CLIENTS / USERS);
const stamp = Date.now();
const emails = Array.from({ length: USERS }, (_, i) => `bench-rt-${stamp}-${i}@example.com`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round(kb / 1024);
}

const server = await startBenchServer({ VERIFICATION_EXEMPT_EMAILS: emails.join(',') });
const connections: HubConnection[] = [];
try {
  const tokens: string[] = [];
  for (const email of emails) {
    const session = await postJson<{ idToken: string }>(`${server.base}/api/auth/sign-up`, {
      email,
      password: 'bench password',
    });
    await postJson(`${server.base}/api/users`, {}, { authorization: `Bearer ${session.idToken}` });
    tokens.push(session.idToken);
  }

  const latencies: number[] = [];
  let waiting: (() => void) | undefined;
  const sentAt = new Map<string, number>();
  const started = performance.now();
  for (let batch = 0; batch < USERS * PER_USER; batch += 50) {
    const starting: Promise<void>[] = [];
    for (let i = batch; i < Math.min(batch + 50, USERS * PER_USER); i++) {
      const token = tokens[i % USERS]!;
      const connection = new HubConnectionBuilder()
        .withUrl(`${server.base}/api/realtime`, {
          accessTokenFactory: () => token,
          transport: HttpTransportType.WebSockets,
        })
        .configureLogging(LogLevel.None)
        .build();
      connection.on('ReceiveMessage', (message: { text: string }) => {
        const t0 = sentAt.get(message.text);
        if (t0 === undefined) return;
        latencies.push(performance.now() - t0);
        if (latencies.length === USERS * PER_USER) waiting?.();
      });
      connections.push(connection);
      starting.push(connection.start());
    }
    await Promise.all(starting);
  }
  const connectS = ((performance.now() - started) / 1000).toFixed(1);
  const rssConnected = rssMb(server.pid);

  // One event per client: one message per user reaches each of that user's connections.
  const done = new Promise<void>((resolve) => (waiting = resolve));
  for (let u = 0; u < USERS; u++) {
    const text = `bench event ${u}`;
    sentAt.set(text, performance.now());
    await postJson(`${server.base}/api/users/messages`, { text }, { authorization: `Bearer ${tokens[u]!}` });
  }
  await Promise.race([done, new Promise((r) => setTimeout(r, 30_000))]);
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `bench:realtime — ${connections.length} SignalR clients over loopback (${USERS} users × ${PER_USER}), connected in ${connectS} s`,
  );
  console.log(
    [
      `delivered ${latencies.length}/${connections.length}`,
      `p50 ${percentile(sorted, 50).toFixed(1)} ms`,
      `p99 ${percentile(sorted, 99).toFixed(1)} ms`,
      `server RSS ${rssConnected} MB connected, peak ${server.peakRssMb()} MB`,
    ].join('   '),
  );
} finally {
  await Promise.allSettled(connections.map((c) => c.stop()));
  await server.stop();
}
