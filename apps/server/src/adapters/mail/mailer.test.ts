import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/logger.js';
import type { Mailer } from './mailer.js';
import { createOutboxMailer } from './outbox.mailer.js';
import { createSmtpMailer } from './smtp.mailer.js';

const FROM = 'Homesitter <no-reply@homesitter.test>';
const mail = {
  to: 'rose@example.com',
  subject: 'Bestätige deine E-Mail-Adresse',
  text: 'Hallo Rose: http://homesitter.test/verify-email?code=abc',
  html: '<p>Hallo <b>Rose</b></p>',
  links: ['http://homesitter.test/verify-email?code=abc'],
};

/** What a delivered mail looks like as raw RFC 5322 text, whichever implementation delivered it. */
interface Port {
  mailer: Mailer;
  delivered(): Promise<string[]>;
  close(): Promise<void>;
}

async function outboxPort(): Promise<Port> {
  const dir = mkdtempSync(join(tmpdir(), 'hs-outbox-'));
  return {
    mailer: createOutboxMailer(dir, FROM, createLogger('silent')),
    delivered: async () =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => readFileSync(join(dir, f), 'utf8')),
    close: async () => {},
  };
}

async function smtpPort(): Promise<Port> {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}?ignoreTLS=true`, FROM);
  return {
    mailer,
    delivered: async () => received,
    close: async () => {
      await mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// One suite, every implementation: they keep the same promises.
describe.each([
  ['outbox', outboxPort],
  ['smtp', smtpPort],
])('%s mailer', (_name, makePort) => {
  let port: Port;
  beforeAll(async () => {
    port = await makePort();
  });
  afterAll(async () => port.close());

  it('delivers one mail with sender, recipient, subject, text and HTML parts', async () => {
    await port.mailer.send(mail);
    const [raw, ...rest] = await port.delivered();
    expect(rest).toHaveLength(0);
    expect(raw).toMatch(/^From: Homesitter <no-reply@homesitter\.test>/m);
    expect(raw).toMatch(/^To: rose@example\.com/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m);
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    expect(raw).toContain('verify-email?code=abc');
  });
});
