/** One text message. With `mediaUrl` it goes out as MMS (the carrier fetches the picture from the URL). */
export interface TextMessage {
  /** E.164, as profiles store phone numbers (`+15551234567`). */
  to: string;
  body: string;
  /** A publicly reachable image (a signed URL that outlives delivery, minutes at least). */
  mediaUrl?: string;
}

/** The SMS/MMS port: one implementation per file beside this one. `send` throws when the text did not go out. */
export interface SmsSender {
  readonly kind: 'twilio' | 'log';
  send(message: TextMessage): Promise<void>;
}

/** A phone number for logs: the country code's first digits and the last two, the rest hidden. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length <= 4) return '•'.repeat(digits.length);
  return `${phone.startsWith('+') ? '+' : ''}${digits.slice(0, 2)}${'•'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}
