import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ftpLogin, type FtpSession } from './ingest.net-client.js';
import {
  smallJpeg,
  startIngestHarness,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

/** TCP ports listening on this machine within [min, max] (IPv4; the harness listens on 127.0.0.1). */
function listeningPorts(min: number, max: number): number[] {
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f[3] === '0A') // LISTEN
    .map((f) => parseInt(f[1]!.split(':')[1]!, 16))
    .filter((port) => port >= min && port <= max);
}

describe('FTP passive ports', () => {
  let h: IngestHarness;
  const users: UploadLogin[] = [];
  const sessions: FtpSession[] = [];

  beforeAll(async () => {
    h = await startIngestHarness({ FTP_PASV_PER_USER: '3', FTP_PASV_PER_ADDRESS: '5' });
    for (let i = 0; i < 3; i++) users.push((await userWithLogin(h.t)).login);
  }, 60_000);
  afterAll(async () => {
    for (const s of sessions) s.close();
    await h.close();
  });

  const open = async (login: UploadLogin, localAddress?: string) => {
    const session = await ftpLogin({
      host: '127.0.0.1',
      port: h.servers.ftpPort,
      ...login,
      ...(localAddress ? { localAddress } : {}),
    });
    sessions.push(session);
    return session;
  };

  it('holds one listener per session however many EPSV it sends; the others still upload', async () => {
    const greedy = await open(users[0]!);
    for (let i = 0; i < 50; i++) expect((await greedy.send('EPSV')).code).toBe(229);
    const held = listeningPorts(...h.pasvRange).length;
    console.info(`[ingest] passive ports held by one session after 50 EPSV: ${held}`);
    expect(held).toBe(1);
    const other = await open(users[1]!);
    expect((await other.store('/Other/a.jpg', await smallJpeg(), 'EPSV')).reply.code).toBe(226);
    // The greedy session itself goes on working with its newest listener.
    expect((await greedy.store('/Greedy/a.jpg', await smallJpeg(), 'PASV')).reply.code).toBe(226);
    greedy.close();
    other.close();
    await vi.waitFor(() => expect(listeningPorts(...h.pasvRange)).toEqual([]), { timeout: 10_000 });
  });

  it('answers a new EPSV while the previous data connection is open and unused, then uploads', async () => {
    const session = await open(users[2]!);
    const first = await session.send('EPSV');
    const port = Number(/\|\|\|(\d+)\|/.exec(first.text)?.[1]);
    const data = connect({ host: '127.0.0.1', port });
    data.on('error', () => undefined);
    await once(data, 'connect');
    // The data connection that never carried a STOR is closed with its listener.
    const closed = once(data, 'close');
    expect((await session.send('EPSV')).code).toBe(229);
    await closed;
    expect((await session.store('/Unused/a.jpg', await smallJpeg(), 'EPSV')).reply.code).toBe(226);
    session.close();
    await vi.waitFor(() => expect(listeningPorts(...h.pasvRange)).toEqual([]), { timeout: 10_000 });
  });

  it('refuses a login or an address over its cap with 425 and the reason; others are not held back', async () => {
    const [first, second, third] = users as [UploadLogin, UploadLogin, UploadLogin];
    const firsts = await Promise.all([open(first), open(first), open(first), open(first)]);
    const answers = [];
    for (const s of firsts) answers.push(await s.send('EPSV'));
    expect(answers.slice(0, 3).map((a) => a.code)).toEqual([229, 229, 229]);
    expect(answers[3]).toMatchObject({ code: 425 });
    expect(answers[3]!.text).toMatch(/this login has 3 passive connections open/);

    // Another login from the same address: two more fit the address's cap of 5, the third does not.
    const seconds = [await open(second), await open(second), await open(second)];
    expect((await seconds[0]!.send('EPSV')).code).toBe(229);
    expect((await seconds[1]!.send('EPSV')).code).toBe(229);
    const overAddress = await seconds[2]!.send('EPSV');
    expect(overAddress.code).toBe(425);
    expect(overAddress.text).toMatch(/your address has 5 passive connections open/);

    // A camera from another address uploads, and so do the sessions that hold a listener.
    const elsewhere = await open(third, '127.0.0.23');
    expect((await elsewhere.store('/Elsewhere/a.jpg', await smallJpeg(), 'EPSV')).reply.code).toBe(226);
    expect((await firsts[0].store('/First/a.jpg', await smallJpeg(), 'EPSV')).reply.code).toBe(226);

    // A session that ends frees its listener: the refused one gets one now.
    firsts[1].close();
    await vi.waitFor(async () => expect((await firsts[3].send('EPSV')).code).toBe(229), {
      timeout: 10_000,
    });
  });
});
