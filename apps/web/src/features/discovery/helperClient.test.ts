import type { DiscoveryEvent } from '@homesitter/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeHelper, device } from '../../test/fakeHelper';
import { HELPER_CONNECTION_TIMEOUT_MS } from '@homesitter/contract/runtime';
import { createHelperClient, HelperError, helperSignInUrl, readNdjson } from './helperClient';

/** A body that arrives in exactly these pieces. */
function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks)
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function valuesOf(chunks: (string | Uint8Array)[]): Promise<unknown[]> {
  const values: unknown[] = [];
  await readNdjson(streamOf(chunks), (v) => values.push(v));
  return values;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('signing the helper in', () => {
  it('signs the helper in through its own /sign-in, which starts the sign-in it will accept', () => {
    expect(helperSignInUrl()).toBe('http://127.0.0.1:17429/sign-in');
  });
});

describe('reading the discovery stream (NDJSON)', () => {
  it('reads one value per line whatever the chunk boundaries', async () => {
    const lines = [{ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60000 }, { type: 'done' }];
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    // Every split point, including inside a line and right at its newline.
    for (let at = 1; at < text.length; at += 7) {
      expect(await valuesOf([text.slice(0, at), text.slice(at)])).toEqual(lines);
    }
    expect(await valuesOf([...text])).toEqual(lines);
  });

  it('keeps a character whose UTF-8 bytes are split across chunks', async () => {
    const bytes = new TextEncoder().encode('{"name":"Küche"}\n');
    const cut = bytes.indexOf(0xc3) + 1;
    expect(await valuesOf([bytes.slice(0, cut), bytes.slice(cut)])).toEqual([{ name: 'Küche' }]);
  });

  it('reads several lines in one chunk, a last line without newline, and skips blank or broken lines', async () => {
    expect(await valuesOf(['{"a":1}\n\n{"b":2}\r\nnot json\n{"c"', ':3}'])).toEqual([
      { a: 1 },
      { b: 2 },
      { c: 3 },
    ]);
  });
});

describe('the helper client', () => {
  it('streams discovery events as they come and ignores what is no event', async () => {
    const fake = createFakeHelper();
    const client = createHelperClient({ fetch: fake.fetch });
    const events: DiscoveryEvent[] = [];
    const done = client.discover((e) => events.push(e));
    await vi.waitFor(() => expect(fake.scanOpen).toBe(true));
    fake.emit({ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60_000 });
    fake.emit({ type: 'device', device: device({ address: '192.168.1.20' }) });
    fake.emit({ type: 'progress' } as never);
    fake.emit({ type: 'done', devices: 1, timed_out: false });
    fake.endScan();
    await done;
    expect(events.map((e) => e.type)).toEqual(['started', 'device', 'done']);
  });

  it('ends a scan quietly when it is stopped', async () => {
    const fake = createFakeHelper();
    const client = createHelperClient({ fetch: fake.fetch });
    const stop = new AbortController();
    const events: DiscoveryEvent[] = [];
    const done = client.discover((e) => events.push(e), stop.signal);
    await vi.waitFor(() => expect(fake.scanOpen).toBe(true));
    fake.emit({ type: 'device', device: device({ address: '192.168.1.20' }) });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    stop.abort();
    await expect(done).resolves.toBeUndefined();
  });

  it('tells nothing answering from an answer that refuses', async () => {
    const fake = createFakeHelper();
    const client = createHelperClient({ fetch: fake.fetch });
    fake.state.configureError = { status: 401, code: 'helper.not_signed_in', message: 'Sign the helper in' };
    const refused = await client.configure({ cameras: [] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HelperError);
    expect(refused).toMatchObject({ kind: 'refused', status: 401, code: 'helper.not_signed_in' });

    fake.state.running = false;
    await expect(client.jobs()).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('gives up on a helper that does not answer within docs/product.md §9’s 60 s (plus a margin for its verdict)', async () => {
    vi.useFakeTimers();
    const hanging = vi.fn(
      (_url: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const client = createHelperClient({ fetch: hanging });
    const status = client.status().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(HELPER_CONNECTION_TIMEOUT_MS - 1);
    expect(hanging.mock.results[0]).toBeDefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await status).toMatchObject({ kind: 'timeout' });

    const test = client
      .testCamera({ type: 'onvif', host: '192.168.1.20', username: 'a', password: 'b' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(HELPER_CONNECTION_TIMEOUT_MS);
    let settled = false;
    void test.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await test).toMatchObject({ kind: 'timeout' });
  });
});
