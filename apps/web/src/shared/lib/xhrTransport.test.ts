import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sendWithUploadProgress } from './xhrTransport';

// A real server on 127.0.0.1, so the XMLHttpRequest under test really sends (jsdom's, with CORS checks).
let server: Server;
let base: string;
const received: { url?: string; headers: IncomingHttpHeaders; bytes: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, accept');
    if (req.method === 'OPTIONS') return res.end();
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      received.push({ url: req.url, headers: req.headers, bytes });
      if (req.url === '/slow') return; // never answers
      res.writeHead(req.url === '/missing' ? 404 : 201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: req.url !== '/missing' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function photoForm() {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(64 * 1024)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

const request = (body: FormData, signal = new AbortController().signal) => ({
  method: 'POST',
  headers: { Accept: 'application/json', Authorization: 'Bearer tok' },
  body,
  signal,
});

describe('sending with upload progress', () => {
  it('sends the form as multipart with the given headers, reports progress and answers a Response', async () => {
    const onProgress = vi.fn();
    const response = await sendWithUploadProgress(`${base}/upload`, request(photoForm()), onProgress);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ success: true });
    const last = received.at(-1)!;
    expect(last.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last.headers.authorization).toBe('Bearer tok');
    expect(last.bytes).toBeGreaterThan(64 * 1024);
    expect(onProgress).toHaveBeenLastCalledWith(1);
  });

  it('answers a failure status as a Response, like fetch', async () => {
    const response = await sendWithUploadProgress(`${base}/missing`, request(photoForm()), vi.fn());
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
  });

  it("rejects with the signal's reason when aborted", async () => {
    const controller = new AbortController();
    const pending = sendWithUploadProgress(`${base}/slow`, request(photoForm(), controller.signal), vi.fn());
    await vi.waitFor(() => expect(received.at(-1)?.url).toBe('/slow'));
    const reason = new DOMException('Request timed out', 'TimeoutError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects with a TypeError when nothing answers, like fetch', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const pending = sendWithUploadProgress(`http://127.0.0.1:${port}/upload`, request(photoForm()), vi.fn());
    await expect(pending).rejects.toBeInstanceOf(TypeError);
  });
});
