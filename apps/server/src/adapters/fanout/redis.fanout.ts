import { Redis } from 'ioredis';
import type { Logger } from '../../platform/logger.js';
import type { Fanout, FanoutMessage } from './fanout.js';

/** The pub/sub channel every instance listens on. */
export const REALTIME_CHANNEL = 'homesitter:realtime';

/**
 * Several server instances: messages go through Redis pub/sub (`REDIS_URL`), and every instance, the
 * publisher included, receives each one. A subscriber needs its own connection, hence two clients.
 *
 * While Redis is unreachable a message is delivered to this instance's own receiver instead (its clients
 * still hear their events; other instances' clients catch up when they next load), and publishing fails
 * at once rather than queueing behind the reconnection. Both clients reconnect by themselves, the
 * subscriber subscribes again, and fan-out goes through Redis as soon as both are back.
 */
export function createRedisFanout(url: string, log: Logger, channel = REALTIME_CHANNEL): Fanout {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableAutoPipelining: true } as const;
  // No offline queue on the publisher: while Redis is down a publish fails at once and falls back.
  const pub = new Redis(url, { ...options, enableOfflineQueue: false });
  const sub = new Redis(url, { ...options, enableAutoPipelining: false });
  let down = false;
  for (const [name, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    client.on('error', (err: Error) => {
      if (!down) log.warn({ err: err.message, client: name }, 'redis fan-out connection error');
      down = true;
    });
    client.on('ready', () => {
      if (down && pub.status === 'ready' && sub.status === 'ready') {
        down = false;
        log.info('redis fan-out connected again');
      }
    });
  }
  let local: ((message: FanoutMessage) => void) | undefined;
  // Subscribed (and so hearing the channel) only from the first `subscribe` on.
  let subscribed = false;
  const hearsChannel = () => subscribed && sub.status === 'ready';

  return {
    kind: 'redis',
    async publish(message) {
      if (pub.status === 'wait') await pub.connect();
      if (local && !hearsChannel()) {
        // This instance would not hear its own message back: deliver it here, and to the others if Redis
        // takes it.
        local(message);
        await pub.publish(channel, JSON.stringify(message)).catch(() => undefined);
        return;
      }
      try {
        await pub.publish(channel, JSON.stringify(message));
      } catch (err) {
        if (!local) throw err;
        log.debug(
          { err: (err as Error).message },
          'redis down: realtime message delivered on this instance only',
        );
        local(message);
      }
    },
    async subscribe(receiver) {
      local = receiver;
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
      subscribed = true;
    },
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
