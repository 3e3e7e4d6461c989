import { Redis } from 'ioredis';
import type { Logger } from '../../platform/logger.js';
import type { Fanout, FanoutMessage } from './fanout.js';

/** The pub/sub channel every instance listens on. */
export const REALTIME_CHANNEL = 'homesitter:realtime';

/**
 * Several server instances: messages go through Redis pub/sub (`REDIS_URL`), and every instance, the
 * publisher included, receives each one. A subscriber needs its own connection, hence two clients.
 */
export function createRedisFanout(url: string, log: Logger, channel = REALTIME_CHANNEL): Fanout {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true } as const;
  const pub = new Redis(url, options);
  const sub = new Redis(url, { ...options, enableAutoPipelining: false });
  for (const client of [pub, sub])
    client.on('error', (err: Error) => log.warn({ err: err.message }, 'redis fan-out connection error'));

  return {
    kind: 'redis',
    async publish(message) {
      if (pub.status === 'wait') await pub.connect();
      await pub.publish(channel, JSON.stringify(message));
    },
    async subscribe(receiver) {
      if (sub.status === 'wait') await sub.connect();
      sub.on('message', (from: string, raw: string) => {
        if (from !== channel) return;
        let message: FanoutMessage;
        try {
          message = JSON.parse(raw) as FanoutMessage;
        } catch {
          log.warn('ignored a realtime message that is not JSON');
          return;
        }
        if (typeof message.userId === 'string' && typeof message.event === 'string') receiver(message);
      });
      await sub.subscribe(channel);
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
