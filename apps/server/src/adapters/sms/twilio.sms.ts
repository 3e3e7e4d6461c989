import { maskPhone, type SmsSender, type TextMessage } from './sms.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The sender number; or `messagingServiceSid`, which lets Twilio pick one. */
  from?: string | undefined;
  messagingServiceSid?: string | undefined;
  /** https://api.twilio.com */
  baseUrl: string;
  timeoutMs: number;
}

/** A text Twilio did not take. `code` is Twilio's error code (21211 invalid number, 21610 opted out…). */
export class SmsProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'SmsProviderError';
  }
}

/** Twilio's longest message body; longer ones are refused, so the end is cut off instead. */
const MAX_BODY_CHARS = 1600;

/**
 * SMS and MMS through Twilio's REST API: POST /2010-04-01/Accounts/{sid}/Messages.json with basic auth and
 * a form body (To, From or MessagingServiceSid, Body, MediaUrl).
 */
export function createTwilioSms(options: TwilioOptions): SmsSender {
  if (!options.from && !options.messagingServiceSid) {
    throw new Error('Twilio needs TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID');
  }
  const url = new URL(
    `/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`,
    options.baseUrl,
  ).toString();
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    kind: 'twilio',
    async send(message: TextMessage) {
      const form = new URLSearchParams({
        To: message.to,
        Body: [...message.body].slice(0, MAX_BODY_CHARS).join(''),
      });
      if (options.messagingServiceSid) form.set('MessagingServiceSid', options.messagingServiceSid);
      else if (options.from) form.set('From', options.from);
      if (message.mediaUrl) form.set('MediaUrl', message.mediaUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: form,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new SmsProviderError(`twilio: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (response.ok) return;
      let detail: { code?: number; message?: string } = {};
      try {
        detail = (await response.json()) as typeof detail;
      } catch {
        // Not Twilio's JSON error (a proxy page): the status says enough.
      }
      throw new SmsProviderError(
        // Twilio's text repeats the number; errors end up in logs, so every phone-like run is masked.
        `twilio refused the text to ${maskPhone(message.to)}: ${(detail.message ?? response.statusText).replace(/\+?\d{6,}/g, maskPhone)}`,
        response.status,
        detail.code,
      );
    },
  };
}
