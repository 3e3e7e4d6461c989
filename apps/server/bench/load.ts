/**
 * A closed-loop HTTP load generator for the benches: `connections` keep-alive connections, each sending its
 * next request as soon as the last byte of the previous answer arrived, for `durationS` seconds.
 *
 * Why not autocannon (used until the memories list was measured): it appends every answer's body to a string,
 * so a gzipped 90 KB answer is decoded as UTF-8 on each request, 1.2 ms of CPU on this 2-core machine against
 * the server's 0.4 ms. That client work, not the server, then set the list's latency. This one reads the
 * answers with undici (the HTTP client under Node's fetch) and only counts their bytes, as a browser's network
 * stack would before handing them on; per small answer it costs about what autocannon did.
 */
import { Pool } from 'undici';

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
}

export interface LoadResult {
  /** Requests made, answered or not. */
  requests: number;
  /** Answers other than 2xx, and connection errors. */
  failed: number;
  perSecond: number;
  /** Milliseconds from sending the request to the answer's last byte. */
  latency: { p50: number; p90: number; p99: number; max: number };
  bytesPerRequest: number;
}

/** The value below which `q` of the sorted samples lie (nearest rank). */
function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const round1 = (ms: number) => Math.round(ms * 10) / 10;

export async function load(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const path = url.pathname + url.search;
  const pool = new Pool(url.origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let failed = 0;
  let bytes = 0;
  const started = performance.now();
  const end = started + options.durationS * 1000;
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async () => {
        while (performance.now() < end) {
          const sent = performance.now();
          try {
            const res = await pool.request({ path, method: 'GET', headers: options.headers });
            for await (const chunk of res.body) bytes += (chunk as Buffer).length;
            if (res.statusCode < 200 || res.statusCode >= 300) failed += 1;
          } catch {
            failed += 1;
          }
          latencies.push(performance.now() - sent);
        }
      }),
    );
  } finally {
    await pool.close();
  }
  const elapsedS = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    failed,
    perSecond: latencies.length / elapsedS,
    latency: {
      p50: round1(percentile(sorted, 0.5)),
      p90: round1(percentile(sorted, 0.9)),
      p99: round1(percentile(sorted, 0.99)),
      max: round1(sorted[sorted.length - 1] ?? 0),
    },
    bytesPerRequest: latencies.length ? Math.round(bytes / latencies.length) : 0,
  };
}
