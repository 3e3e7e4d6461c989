import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One text as Twilio's API received it (the form fields). */
export interface ReceivedText {
  To: string;
  From?: string;
  MessagingServiceSid?: string;
  Body: string;
  MediaUrl?: string;
}

/**
 * A local server speaking Twilio's Messages API: POST /2010-04-01/Accounts/{sid}/Messages.json with basic
 * auth and a form body; 201 with the message resource, or Twilio's JSON error (21211 for a number in
 * `invalidNumbers`, 20003 for bad credentials).
 */
export async function startFakeTwilio() {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const received: ReceivedText[] = [];
  const invalidNumbers = new Set<string>();
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${accountSid}/Messages.json`)
        return reply(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      if (req.headers.authorization !== expectedAuth)
        return reply(401, { code: 20003, message: 'Authenticate', status: 401 });
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
        return reply(400, { code: 20001, message: 'Expected a form body', status: 400 });
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const to = form.get('To') ?? '';
      if (invalidNumbers.has(to))
        return reply(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          status: 400,
        });
      const text: ReceivedText = { To: to, Body: form.get('Body') ?? '' };
      for (const field of ['From', 'MessagingServiceSid', 'MediaUrl'] as const) {
        const value = form.get(field);
        if (value !== null) text[field] = value;
      }
      received.push(text);
      return reply(201, {
        sid: `${text.MediaUrl ? 'MM' : 'SM'}${randomBytes(16).toString('hex')}`,
        status: 'queued',
        to,
        num_media: text.MediaUrl ? '1' : '0',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    received,
    invalidNumbers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
