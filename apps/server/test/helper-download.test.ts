import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHelperBuilder, OWN_BUILD_NAME } from '../src/modules/helper/helper.build.js';
import { createLogger } from '../src/platform/logger.js';
import { createTestApp, type TestApp } from './app.js';
import { freePort } from './ports.js';

/**
 * The helper download for the OS the server runs on, built for real by the helper's own build on the first
 * download, kept in DATA_DIR, and run here to show it is the helper. Every wait is for the event itself.
 */
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

let t: TestApp;
let base: string;
const logLines: string[] = [];
const url = `/api/helper/downloads/${OWN_BUILD_NAME}`;

interface Listed {
  data: { os: string; arch: string; url: string; size: number | null }[];
}
const listDownloads = async () => (await (await fetch(`${base}/api/helper/downloads`)).json()) as Listed;

beforeAll(async () => {
  t = await createTestApp({
    // No operator-provided builds: the server's own build is the only one.
    env: { HELPER_DOWNLOADS_DIR: mkdtempSync(join(tmpdir(), 'hs-no-builds-')) },
    log: createLogger('info', { write: (line: string) => void logLines.push(line) }),
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

describe('the helper download for this server’s OS', () => {
  it('is listed before it is built, built once for concurrent first downloads, and runs', async () => {
    expect((await listDownloads()).data).toEqual([
      { os: process.platform, arch: process.arch, url, size: null },
    ]);

    const [first, second] = await Promise.all([fetch(`${base}${url}`), fetch(`${base}${url}`)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/octet-stream');
    expect(first.headers.get('content-disposition')).toBe(`attachment; filename="${OWN_BUILD_NAME}"`);
    const bytes = Buffer.from(await first.arrayBuffer());
    expect(Number(first.headers.get('content-length'))).toBe(bytes.length);
    expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true);
    expect(logLines.filter((l) => l.includes('helper download built'))).toHaveLength(1);

    // Kept in DATA_DIR: listed with its size now, and a later download does not build again.
    const cached = readdirSync(join(t.deps.config.DATA_DIR, 'helper-builds'));
    expect(cached).toHaveLength(1);
    expect((await listDownloads()).data[0]?.size).toBe(bytes.length);
    const again = await fetch(`${base}${url}`);
    expect(again.status).toBe(200);
    // Read to the end: an unread body keeps the connection busy and the server from closing.
    expect((await again.arrayBuffer()).byteLength).toBe(bytes.length);
    expect(logLines.filter((l) => l.includes('helper download built'))).toHaveLength(1);

    // The downloaded file is the helper: it answers its status on 127.0.0.1.
    const dir = mkdtempSync(join(tmpdir(), 'hs-downloaded-'));
    const file = join(dir, OWN_BUILD_NAME);
    writeFileSync(file, bytes);
    chmodSync(file, 0o755);
    const port = await freePort();
    const helper = spawn(file, [], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        XDG_CONFIG_HOME: dir,
        APPDATA: dir,
        HELPER_PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        const seen = (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('is running')) resolve();
        };
        helper.stdout.on('data', seen);
        helper.stderr.on('data', seen);
        helper.on('exit', (code) => reject(new Error(`the helper exited (${code}): ${out}`)));
      });
      const status = await (await fetch(`http://127.0.0.1:${port}/status`)).json();
      expect(status).toMatchObject({ app: 'homesitter-helper', signed_in: false });
    } finally {
      const exited = new Promise((resolve) => helper.once('exit', resolve));
      helper.kill('SIGTERM');
      await exited;
    }
  });

  it('answers 503 with the build’s own reason when it cannot be built, and tries again next time', async () => {
    const helperDir = mkdtempSync(join(tmpdir(), 'hs-broken-helper-'));
    mkdirSync(join(helperDir, 'scripts'));
    writeFileSync(join(helperDir, 'package.json'), '{"version":"9.9.9"}');
    writeFileSync(
      join(helperDir, 'scripts', 'build-sea.mjs'),
      "console.error('build-sea: node has no SEA fuse'); process.exit(1);",
    );
    const builder = createHelperBuilder({
      cacheDir: mkdtempSync(join(tmpdir(), 'hs-cache-')),
      helperDir,
      log: createLogger('silent'),
    });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(builder.ensure()).rejects.toMatchObject({
        status: 503,
        message: 'The helper download could not be built on this server: build-sea: node has no SEA fuse',
      });
    }
    expect(await builder.builtSize()).toBeUndefined();
  });
});
