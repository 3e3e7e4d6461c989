import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  smallJpeg,
  startIngestHarness,
  uploadsOf,
  userIdOf,
  userWithLogin,
  type IngestHarness,
  type UploadLogin,
} from './ingest.test-support.js';

/** A hand-driven SMTP session: each `command` answers the server's next complete reply. */
async function smtpSession(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let buffer = '';
  const waiting: ((line: string) => void)[] = [];
  const replies: string[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    // A reply's last line is "NNN text" (a space after the code); "NNN-text" lines continue it.
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (/^\d{3} /.test(line)) {
        const next = waiting.shift();
        if (next) next(line);
        else replies.push(line);
      }
    }
  });
  const closed = once(socket, 'close');
  const reply = () =>
    new Promise<string>((resolve) => {
      const ready = replies.shift();
      if (ready !== undefined) resolve(ready);
      else waiting.push(resolve);
    });
  const command = (line: string) => {
    socket.write(`${line}\r\n`);
    return reply();
  };
  await reply();
  return { socket, command, reply, closed };
}

async function signedIn(port: number, login: UploadLogin) {
  const session = await smtpSession(port);
  expect(await session.command('EHLO camera')).toMatch(/^250 /);
  const plain = Buffer.from(`\0${login.username}\0${login.password}`).toString('base64');
  expect(await session.command(`AUTH PLAIN ${plain}`)).toMatch(/^235 /);
  return session;
}

describe('camera ingest while the server stops', () => {
  let h: IngestHarness;
  let login: UploadLogin;
  let userId: string;

  beforeAll(async () => {
    h = await startIngestHarness();
    const a = await userWithLogin(h.t);
    login = a.login;
    userId = await userIdOf(h.t, a.user);
  }, 60_000);
  // The servers are closed by the test itself.
  afterAll(async () => h.t.close());

  it('answers 250 to the message being stored, 421 to new commands, then closes every session', async () => {
    const { smtpPort } = h.servers;
    const sending = await signedIn(smtpPort, login);
    const idle = await signedIn(smtpPort, login);
    expect(await sending.command('MAIL FROM:<cam@example.com>')).toMatch(/^250 /);
    expect(await sending.command(`RCPT TO:<${login.username}@homesitter.test>`)).toMatch(/^250 /);
    expect(await sending.command('DATA')).toMatch(/^354 /);
    const jpeg = (await smallJpeg()).toString('base64').replace(/.{76}/g, '$&\r\n');
    const message = [
      'From: "Porch" <cam@example.com>',
      'Subject: Motion',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: image/jpeg; name="stop.jpg"',
      'Content-Disposition: attachment; filename="stop.jpg"',
      'Content-Transfer-Encoding: base64',
      '',
      jpeg,
      '--b--',
      '.',
    ].join('\r\n');

    // The message is on its way when the server is told to stop.
    const answer = sending.command(message);
    const closing = h.servers.close();
    expect(await answer).toMatch(/^250 /);
    expect(await idle.command('NOOP')).toMatch(/^421 /);
    await closing;
    await Promise.all([sending.closed, idle.closed]);

    const rows = await uploadsOf(h.t, userId);
    expect(rows.filter((r) => r.original_name === 'stop.jpg')).toHaveLength(1);
    // Nothing listens any more.
    const late = connect(smtpPort, '127.0.0.1');
    const [err] = (await once(late, 'error')) as [NodeJS.ErrnoException];
    expect(err.code).toBe('ECONNREFUSED');
  });
});
