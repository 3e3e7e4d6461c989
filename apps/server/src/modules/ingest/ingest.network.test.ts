import { execFile, execFileSync, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passiveAddressFor } from './ftp.server.js';
import { ftpLogin, httpUpload, multipartBody, smtpSend, type StoreResult } from './ingest.net-client.js';
import type { IngestServers } from './ingest.servers.js';
import {
  smallJpeg,
  startIngestHarness,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

/** The address the passive reply tells the client to connect to. */
const pasvHost = (r: StoreResult) =>
  /\((\d+),(\d+),(\d+),(\d+),\d+,\d+\)/.exec(r.passive.text)?.slice(1, 5).join('.');

describe('passive address', () => {
  it('is the address the client reached unless one is configured; clients on this machine always get theirs', () => {
    const lan = { localAddress: '::ffff:192.168.1.5', remoteAddress: '::ffff:192.168.1.77' };
    const local = { localAddress: '127.0.0.45', remoteAddress: '127.0.0.23' };
    expect(passiveAddressFor(lan, undefined)).toBe('192.168.1.5');
    expect(passiveAddressFor(lan, '203.0.113.9')).toBe('203.0.113.9');
    expect(passiveAddressFor(local, undefined)).toBe('127.0.0.45');
    expect(passiveAddressFor(local, '203.0.113.9')).toBe('127.0.0.45');
  });
});

/**
 * Cameras are never on 127.0.0.1: here the servers listen on 127.0.0.45 and the client speaks from 127.0.0.23
 * (both loopback, so this runs on any machine).
 */
describe('camera ingest from another loopback address (127.0.0.23 → 127.0.0.45)', () => {
  const server = '127.0.0.45';
  const camera = '127.0.0.23';
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;
  /** The same app's FTP and SMTP servers with FTP_PUBLIC_HOST set. */
  let withPublicHost: IngestServers;

  beforeAll(async () => {
    h = await startIngestHarness({}, { HOST: server });
    withPublicHost = await h.t.modules.ingest.startServers({
      HOST: server,
      FTP_PORT: 0,
      INGEST_SMTP_PORT: 0,
      FTP_PASV_MIN: h.pasvRange[0],
      FTP_PASV_MAX: h.pasvRange[1],
      FTP_PUBLIC_HOST: '203.0.113.9',
    });
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
    await h.t.app.listen({ port: 0, host: server });
  }, 60_000);
  afterAll(async () => {
    await withPublicHost?.close();
    await h?.close();
  });

  const ftp = (port = h.servers.ftpPort) =>
    ftpLogin({ host: server, port, localAddress: camera, ...login, password: login.password });

  it.each(['PASV', 'EPSV'] as const)('takes an FTP upload in %s mode', async (mode) => {
    const session = await ftp();
    try {
      const result = await session.store(`/Porch ${mode}/a.jpg`, await smallJpeg(), mode);
      expect(result.reply.code).toBe(226);
      // PASV names the address the camera reached, not 127.0.0.1 and not a placeholder.
      if (mode === 'PASV') expect(pasvHost(result)).toBe(server);
    } finally {
      session.close();
    }
    expect((await uploadsOf(h.t, userId)).some((u) => u.camera_name === `Porch ${mode}`)).toBe(true);
  });

  it('keeps telling a client on this machine the address it reached when FTP_PUBLIC_HOST is set', async () => {
    const session = await ftp(withPublicHost.ftpPort);
    try {
      const result = await session.store('/Porch public/a.jpg', await smallJpeg(), 'PASV');
      expect(pasvHost(result)).toBe(server);
      expect(result.reply.code).toBe(226);
    } finally {
      session.close();
    }
  });

  it('takes a mail', async () => {
    const reply = await smtpSend(
      { host: server, port: h.servers.smtpPort, localAddress: camera, ...login },
      {
        from: '"Porch mail" <cam@camera.test>',
        subject: 'Motion',
        attachments: [{ filename: 'a.jpg', contentType: 'image/jpeg', bytes: await smallJpeg() }],
      },
    );
    expect(reply.code).toBe(250);
    expect((await uploadsOf(h.t, userId)).some((u) => u.camera_name === 'Porch mail')).toBe(true);
  });

  it('takes an HTTP upload', async () => {
    const { port } = h.t.app.server.address() as AddressInfo;
    const res = await httpUpload(
      { url: `http://${server}:${port}/api/ingest/events`, localAddress: camera, ...login },
      multipartBody('Porch http', [{ name: 'a.jpg', bytes: await smallJpeg() }]),
    );
    expect(res.status).toBe(202);
    expect((await uploadsOf(h.t, userId)).some((u) => u.camera_name === 'Porch http')).toBe(true);
  });
});

/** Why a network namespace cannot be made here, or undefined when it can. */
function whyNoNetns(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  if (process.getuid?.() !== 0) return 'creating a network namespace needs root';
  if (spawnSync('ip', ['-V']).status !== 0) return 'the `ip` command (iproute2) is missing';
  return undefined;
}
const noNetns = whyNoNetns();
if (noNetns) console.warn(`[ingest network] the network namespace variant does not run: ${noNetns}`);

/**
 * A camera on a network of its own: a namespace this test creates, joined to the host by a veth pair
 * (10.213.N.0/29: the host side has .1 and .2, the camera .6). The servers listen on .1; the client runs in
 * the namespace. With FTP_PUBLIC_HOST unset the PASV reply names .1 (the address reached), set to .2 it
 * names .2, and in both the data connection to that address works.
 */
describe.skipIf(Boolean(noNetns))(
  'camera ingest from a network namespace (a camera on another network)',
  () => {
    const id = process.pid % 10_000;
    const ns = `hs-ingest-${id}`;
    const vethHost = `hsi${id}h`;
    const vethCamera = `hsi${id}c`;
    const subnet = `10.213.${process.pid % 250}`;
    const server = `${subnet}.1`;
    const second = `${subnet}.2`;
    let h: IngestHarness;
    let login: UploadLogin;
    let userId: string;
    let withPublicHost: IngestServers;
    const cli = fileURLToPath(new URL('./ingest.net-client.cli.ts', import.meta.url));

    const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
    function removeNamespace() {
      // Deleting the namespace deletes the camera's end of the pair, and with it the host's end.
      spawnSync('ip', ['netns', 'del', ns]);
      spawnSync('ip', ['link', 'del', vethHost]);
    }

    /** Runs one client request inside the namespace; answers what it printed. */
    async function inNamespace<T>(request: object): Promise<T> {
      const { stdout } = await promisify(execFile)(
        'ip',
        ['netns', 'exec', ns, process.execPath, '--import', 'tsx', cli, JSON.stringify(request)],
        { cwd: process.cwd(), timeout: 30_000 },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '{}' }));
      return JSON.parse(stdout) as T;
    }

    beforeAll(async () => {
      removeNamespace(); // a leftover of a run that was killed
      try {
        ip('netns', 'add', ns);
        ip('link', 'add', vethHost, 'type', 'veth', 'peer', 'name', vethCamera);
        ip('link', 'set', vethCamera, 'netns', ns);
        ip('addr', 'add', `${server}/29`, 'dev', vethHost);
        ip('addr', 'add', `${second}/29`, 'dev', vethHost);
        ip('link', 'set', vethHost, 'up');
        ip('netns', 'exec', ns, 'ip', 'addr', 'add', `${subnet}.6/29`, 'dev', vethCamera);
        ip('netns', 'exec', ns, 'ip', 'link', 'set', vethCamera, 'up');
        ip('netns', 'exec', ns, 'ip', 'link', 'set', 'lo', 'up');
      } catch (err) {
        removeNamespace();
        throw err;
      }
      h = await startIngestHarness({}, { HOST: server });
      withPublicHost = await h.t.modules.ingest.startServers({
        HOST: '0.0.0.0',
        FTP_PORT: 0,
        INGEST_SMTP_PORT: 0,
        FTP_PASV_MIN: h.pasvRange[0],
        FTP_PASV_MAX: h.pasvRange[1],
        FTP_PUBLIC_HOST: second,
      });
      const a = await userWithLogin(h.t);
      login = a.login;
      userId = await userIdOf(h.t, a.user);
      await h.t.app.listen({ port: 0, host: server });
    }, 60_000);
    afterAll(async () => {
      try {
        await withPublicHost?.close();
        await h?.close();
      } finally {
        removeNamespace();
      }
    });

    const ftpIn = async (port: number, name: string, mode: 'PASV' | 'EPSV') =>
      inNamespace<StoreResult>({
        kind: 'ftp',
        target: { host: server, port, ...login },
        name,
        mode,
        base64: (await smallJpeg()).toString('base64'),
      });

    it('takes an FTP upload over PASV naming the address reached (FTP_PUBLIC_HOST unset), and over EPSV', async () => {
      const pasv = await ftpIn(h.servers.ftpPort, '/Gate pasv/a.jpg', 'PASV');
      expect(pasvHost(pasv)).toBe(server);
      expect(pasv.reply.code).toBe(226);
      const epsv = await ftpIn(h.servers.ftpPort, '/Gate epsv/a.jpg', 'EPSV');
      expect(epsv.reply.code).toBe(226);
      const names = (await uploadsOf(h.t, userId)).map((u) => u.camera_name);
      expect(names).toEqual(expect.arrayContaining(['Gate pasv', 'Gate epsv']));
    });

    it('names FTP_PUBLIC_HOST in PASV when it is set, and the data connection to it works', async () => {
      const pasv = await ftpIn(withPublicHost.ftpPort, '/Gate public/a.jpg', 'PASV');
      expect(pasvHost(pasv)).toBe(second);
      expect(pasv.dataHost).toBe(second);
      expect(pasv.reply.code).toBe(226);
    });

    it('takes a mail and an HTTP upload', async () => {
      const jpeg = (await smallJpeg()).toString('base64');
      const mail = await inNamespace<{ code: number }>({
        kind: 'smtp',
        target: { host: server, port: h.servers.smtpPort, ...login },
        from: '"Gate mail" <cam@camera.test>',
        subject: 'Motion',
        filename: 'a.jpg',
        contentType: 'image/jpeg',
        base64: jpeg,
      });
      expect(mail.code).toBe(250);
      const { port } = h.t.app.server.address() as AddressInfo;
      const http = await inNamespace<{ status: number }>({
        kind: 'http',
        target: { url: `http://${server}:${port}/api/ingest/events`, ...login },
        cameraName: 'Gate http',
        name: 'a.jpg',
        base64: jpeg,
      });
      expect(http.status).toBe(202);
      const names = (await uploadsOf(h.t, userId)).map((u) => u.camera_name);
      expect(names).toEqual(expect.arrayContaining(['Gate mail', 'Gate http']));
    });
  },
);
