import type { Logger } from '../../platform/logger.js';
import { maskPhone, type SmsSender, type TextMessage } from './sms.js';

/**
 * Without Twilio, a text becomes one log line: who (masked) and how long, never what it says, since an alert
 * names people at home and logs are kept longer than alerts.
 */
export function createLogSms(log: Logger): SmsSender {
  return {
    kind: 'log',
    async send(message: TextMessage) {
      log.info(
        { to: maskPhone(message.to), chars: message.body.length, mms: Boolean(message.mediaUrl) },
        'text message not sent: SMS is not configured (TWILIO_*)',
      );
    },
  };
}
