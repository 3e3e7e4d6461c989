import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import type { DiscoveredDevice, DiscoveryEvent } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfigDir, loadConfig, settings } from '../src/config.js';
import type { RunningHelper } from '../src/helper.js';
import type { DiscoverCameras } from '../src/routes/index.js';
import { startFakeServer, type FakeServer } from './support/fake-server.js';
import { postJson, startTestHelper, tempDir, waitFor } from './support/harness.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function device(address: string): DiscoveredDevice {
  return {
    id: address,
    address,
    mac: null,
    manufacturer: 'Acme',
    model: 'Cam 1',
    name: null,
    onvif: { port: 80, xaddr: `http://${address}/onvif/device_service` },
    rtsp: { port: 554, url: `rtsp://${address}:554` },
    needs_credentials: true,
    supported: true,
    unsupported_reason: null,
    unsupported_code: null,
    found_by: ['ws-discovery'],
  };
}

/** A scan the test drives: it reports what the test pushes and ends when told (or aborted). */
function controllableScan() {
  const state = {
    calls: 0,
    aborted: false,
    onDevice: undefined as ((d: DiscoveredDevice) => void) | undefined,
    finish: undefined as (() => void) | undefined,
  };
  const discover: DiscoverCameras = ({ signal, onDevice }) => {
    state.calls += 1;
    state.onDevice = onDevice;
    return new Promise((resolve) => {
      const end = () =>
        resolve({ devices: [device('192.168.1.20')], subnets: ['192.168.1.0/24'], timedOut: false });
      state.finish = end;
      signal.addEventListener('abort', () => {
        state.aborted = true;
        end();
      });
    });
  };
  return { state, discover };
}

/** A raw request, for headers fetch would not let a test set (Host). */
function rawGet(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the local API', () => {
  let fake: FakeServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let helper: RunningHelper;
  const scan = controllableScan();

  beforeAll(async () => {
    fake = await startFakeServer();
    dir = await tempDir();
    helper = await startTestHelper(
      dir.path,
      { HOMESITTER_URL: fake.url, HELPER_ALLOWED_ORIGINS: 'https://staging.example.com' },
      { discover: scan.discover, localSubnets: () => ['192.168.1.0/24'] },
    );
  });
  afterAll(async () => {
    await helper?.stop();
    await fake?.close();
    await dir?.remove();
  });

  it('tells who it is: the helper, its version from package.json, signed out, its server', async () => {
    const res = await fetch(`${helper.url}/status`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      app: 'homesitter-helper',
      version: packageVersion,
      signed_in: false,
      email: null,
      server_url: fake.url,
      bridged_cameras: 0,
    });
  });

  it('listens on 127.0.0.1 only, never on the network', async () => {
    expect(helper.url).toBe(`http://127.0.0.1:${helper.port}`);
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    if (!lan) return;
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(helper.port, lan);
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it("answers the app's origins with CORS and Chrome's private-network preflight", async () => {
    const origin = new URL(fake.url).origin;
    const preflight = await fetch(`${helper.url}/cameras/test`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
        'access-control-request-private-network': 'true',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-private-network')).toBe('true');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');

    for (const allowed of [origin, 'capacitor://localhost', 'https://staging.example.com']) {
      const res = await fetch(`${helper.url}/status`, { headers: { origin: allowed } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(allowed);
    }
  });

  it('refuses any other web page with 403 and does nothing for it', async () => {
    const calls = scan.state.calls;
    const refused = await fetch(`${helper.url}/discover`, { headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(await refused.json()).toEqual({
      error: { code: 'helper.origin_not_allowed', message: expect.stringContaining('https://evil.example') },
    });
    expect(scan.state.calls).toBe(calls);

    const preflight = await fetch(`${helper.url}/cameras/test`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    const test = await postJson(`${helper.url}/cameras/test`, { connection: {} }, { origin: 'null' });
    expect(test.status).toBe(403);
  });

  it('refuses a request addressed to another host name (DNS rebinding)', async () => {
    const res = await rawGet(helper.port, '/status', { host: `attacker.example:${helper.port}` });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'helper.origin_not_allowed' } });
    expect((await rawGet(helper.port, '/status', { host: `localhost:${helper.port}` })).status).toBe(200);
  });

  it('takes JSON only, within 64 KB, checked against the contract', async () => {
    const url = `${helper.url}/cameras/test`;
    const text = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: { code: 'helper.invalid_request' } });

    const broken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({
      error: { code: 'helper.invalid_request', message: 'The body is not valid JSON' },
    });

    const big = await postJson(url, {
      connection: { type: 'rtsp', url: 'rtsp://x/', password: 'x'.repeat(70_000) },
    });
    expect(big.status).toBe(413);

    const wrong = await postJson(url, {
      connection: { type: 'rtsp', url: 'http://192.168.1.20/', password: 'hunter2' },
    });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('helper.invalid_request');
    expect(body.error.message).toMatch(/^connection\.url: /);
    expect(body.error.message).not.toContain('hunter2');
  });

  it('answers an unknown call with a JSON 404', async () => {
    const res = await fetch(`${helper.url}/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'helper.not_found', message: 'No such call: GET /nothing-here' },
    });
  });

  it('needs a sign-in to configure cameras', async () => {
    const res = await postJson(`${helper.url}/cameras/configure`, {
      cameras: [
        { device_id: 'd1', name: 'Porch', connection: { type: 'rtsp', url: 'rtsp://192.168.1.20/' } },
      ],
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'helper.not_signed_in' } });
  });

  it('streams discovery as NDJSON, one scan at a time, and stops the scan when the page leaves', async () => {
    const abort = new AbortController();
    const res = await fetch(`${helper.url}/discover`, { signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const events: DiscoveryEvent[] = [];
    const nextEvent = async (): Promise<DiscoveryEvent> => {
      for (;;) {
        const newline = buffered.indexOf('\n');
        if (newline >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          const event = JSON.parse(line) as DiscoveryEvent;
          events.push(event);
          return event;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += decoder.decode(value, { stream: true });
      }
    };

    expect(await nextEvent()).toEqual({ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60_000 });
    await waitFor(() => scan.state.onDevice, 'the scan to start');
    scan.state.onDevice!(device('192.168.1.20'));
    expect(await nextEvent()).toMatchObject({
      type: 'device',
      device: { id: '192.168.1.20', manufacturer: 'Acme' },
    });

    const second = await fetch(`${helper.url}/discover`);
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'helper.busy' } });

    abort.abort();
    await waitFor(() => scan.state.aborted, 'the scan to be aborted');

    // The next scan runs to its end and says so.
    const again = await fetch(`${helper.url}/discover`);
    await waitFor(() => scan.state.calls === 2 && scan.state.finish, 'the second scan');
    scan.state.finish!();
    const lines = (await again.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as DiscoveryEvent);
    expect(lines.at(-1)).toEqual({ type: 'done', devices: 1, timed_out: false });
  });
});

describe('the settings', () => {
  it('default to the local server, port 17429 and auto bridging', () => {
    const config = loadConfig({ HOME: '/home/ann' });
    expect(config).toMatchObject({
      HOMESITTER_URL: 'http://localhost:8080',
      HELPER_PORT: 17429,
      HELPER_BRIDGE: 'auto',
      HELPER_ALLOWED_ORIGINS: [],
      LOG_LEVEL: 'info',
    });
  });

  it("keep the helper's files in the OS user's config folder", () => {
    expect(defaultConfigDir({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.config/homesitter-helper');
    expect(defaultConfigDir({ HOME: '/home/ann', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe(
      '/cfg/homesitter-helper',
    );
    expect(defaultConfigDir({ HOME: '/Users/ann' }, 'darwin')).toBe(
      '/Users/ann/Library/Application Support/Homesitter Helper',
    );
    expect(defaultConfigDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32')).toBe(
      join('C:\\Users\\ann\\AppData\\Roaming', 'Homesitter Helper'),
    );
  });

  it('refuse bad values, naming each', () => {
    expect(() => loadConfig({ HOMESITTER_URL: 'ftp://x', HELPER_BRIDGE: 'sometimes' })).toThrow(
      /HOMESITTER_URL[\s\S]*HELPER_BRIDGE/,
    );
    expect(() =>
      loadConfig({ HELPER_ALLOWED_ORIGINS: 'https://ok.example, https://bad.example/path' }),
    ).toThrow(/HELPER_ALLOWED_ORIGINS/);
  });

  it('are all documented in docs/helper.md', () => {
    const docs = readFileSync(new URL('../../../docs/helper.md', import.meta.url), 'utf8');
    for (const name of Object.keys(settings)) expect(docs).toContain(`\`${name}\``);
  });
});
