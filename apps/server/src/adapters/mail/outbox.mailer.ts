import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../../platform/logger.js';
import type { Mailer, OutgoingMail } from './mailer.js';

/**
 * Without SMTP, each mail becomes an .eml file in `dir` (open it with any mail client) and its links are
 * logged, so a local user can finish sign-up. Files appear whole: written under a temporary name, then
 * renamed.
 */
export function createOutboxMailer(dir: string, from: string, log: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail: OutgoingMail) {
      const info = await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await rename(tmp, join(dir, name));
      log.info(
        { file: join(dir, name), subject: mail.subject, links: mail.links ?? [] },
        'mail written to outbox',
      );
    },
    async close() {},
  };
}
