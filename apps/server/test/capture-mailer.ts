import type { Mailer, OutgoingMail } from '../src/adapters/mail/mailer.js';

/** A mailer for tests: keeps every mail so a test can follow its link. */
export function createCaptureMailer(): Mailer & {
  sent: OutgoingMail[];
  lastTo(to: string): OutgoingMail | undefined;
} {
  const sent: OutgoingMail[] = [];
  return {
    kind: 'outbox',
    sent,
    async send(mail) {
      sent.push(mail);
    },
    async close() {},
    lastTo(to) {
      return sent.filter((m) => m.to === to).at(-1);
    },
  };
}

/** The `code` query parameter of the mail's first link. */
export function codeFromMail(mail: OutgoingMail | undefined): string {
  const link = mail?.links?.[0];
  if (!link) throw new Error('mail has no link');
  const code = new URL(link).searchParams.get('code');
  if (!code) throw new Error(`link has no code: ${link}`);
  return code;
}
