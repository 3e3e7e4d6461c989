import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTwilio } from '../../../test/fake-twilio.js';
import type { Logger } from '../../platform/logger.js';
import { createLogSms } from './log.sms.js';
import { maskPhone } from './sms.js';
import { createTwilioSms, SmsProviderError } from './twilio.sms.js';

describe('Twilio', () => {
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
  });
  afterAll(async () => twilio.close());

  const sender = (extra: { from?: string; messagingServiceSid?: string; authToken?: string }) =>
    createTwilioSms({
      accountSid: twilio.accountSid,
      authToken: extra.authToken ?? twilio.authToken,
      from: extra.from,
      messagingServiceSid: extra.messagingServiceSid,
      baseUrl: twilio.baseUrl,
      timeoutMs: 5000,
    });

  it('sends an MMS with basic auth, sender number, body and the picture URL', async () => {
    await sender({ from: '+15005550006' }).send({
      to: '+15551234567',
      body: 'Front Door: Rose walked up to the Front Door at 3:12 PM.',
      mediaUrl: 'https://homesitter.test/media/thumb.jpg?exp=1&sig=abc',
    });
    expect(twilio.received.at(-1)).toEqual({
      To: '+15551234567',
      From: '+15005550006',
      Body: 'Front Door: Rose walked up to the Front Door at 3:12 PM.',
      MediaUrl: 'https://homesitter.test/media/thumb.jpg?exp=1&sig=abc',
    });
  });

  it('sends a plain SMS through a messaging service when one is configured', async () => {
    await sender({ from: '+15005550006', messagingServiceSid: 'MG0123' }).send({
      to: '+491701234567',
      body: 'Hallo',
    });
    expect(twilio.received.at(-1)).toEqual({
      To: '+491701234567',
      MessagingServiceSid: 'MG0123',
      Body: 'Hallo',
    });
  });

  it("cuts a body longer than Twilio's 1,600 characters", async () => {
    await sender({ from: '+15005550006' }).send({ to: '+15551234567', body: 'x'.repeat(2000) });
    expect(twilio.received.at(-1)?.Body).toHaveLength(1600);
  });

  it("throws Twilio's error code when it refuses the number, without the full number in the message", async () => {
    twilio.invalidNumbers.add('+15550000000');
    const error = await sender({ from: '+15005550006' })
      .send({ to: '+15550000000', body: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmsProviderError);
    expect(error).toMatchObject({ status: 400, code: 21211 });
    expect((error as Error).message).not.toContain('+15550000000');
  });

  it('throws on wrong credentials', async () => {
    await expect(
      sender({ from: '+15005550006', authToken: 'wrong' }).send({ to: '+15551234567', body: 'hi' }),
    ).rejects.toMatchObject({ status: 401, code: 20003 });
  });

  it('refuses to start without a sender', () => {
    expect(() => sender({})).toThrow(/TWILIO_FROM/);
  });
});

describe('log sender', () => {
  it('writes one line with the number masked and not the text', async () => {
    const lines: unknown[][] = [];
    const log = { info: (...args: unknown[]) => lines.push(args) } as unknown as Logger;
    await createLogSms(log).send({
      to: '+15551234567',
      body: 'Rose is at the door',
      mediaUrl: 'https://x.test/a.jpg',
    });
    expect(lines).toHaveLength(1);
    const text = JSON.stringify(lines[0]);
    expect(text).toContain('+15•••••••67');
    expect(text).not.toContain('5551234567');
    expect(text).not.toContain('Rose');
    expect(lines[0]?.[0]).toMatchObject({ mms: true, chars: 19 });
  });

  it('masks all but the country code and the last two digits', () => {
    expect(maskPhone('+491701234567')).toBe('+49••••••••67');
    expect(maskPhone('123')).toBe('•••');
  });
});
