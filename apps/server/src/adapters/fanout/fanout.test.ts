import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../platform/logger.js';
import type { Fanout, FanoutMessage } from './fanout.js';
import { createInProcessFanout } from './inprocess.fanout.js';
import { createRedisFanout } from './redis.fanout.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
const log = createLogger('silent');

function received(fanout: Fanout) {
  const seen: FanoutMessage[] = [];
  const waiters: (() => void)[] = [];
  return {
    seen,
    async start() {
      await fanout.subscribe((m) => {
        seen.push(m);
        waiters.splice(0).forEach((w) => w());
      });
    },
    async until(count: number) {
      while (seen.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

/** The promises every fan-out keeps, run against each implementation. */
function fanoutSuite(name: string, make: () => Fanout[], skip = false) {
  describe.skipIf(skip)(name, () => {
    it('delivers a published message, with its user, event and payload, to every subscribed instance', async () => {
      const instances = make();
      try {
        const inboxes = instances.map(received);
        for (const inbox of inboxes) await inbox.start();
        const message = { userId: randomUUID(), event: 'ReceiveMessage', payload: { text: 'Grüße 👋' } };
        await instances[0]!.publish(message);
        for (const inbox of inboxes) {
          await inbox.until(1);
          expect(inbox.seen).toEqual([message]);
        }
      } finally {
        await Promise.all(instances.map((f) => f.close()));
      }
    });

    it('keeps the order of messages from one publisher', async () => {
      const instances = make();
      try {
        const inbox = received(instances.at(-1)!);
        await inbox.start();
        const userId = randomUUID();
        for (let i = 0; i < 20; i++) await instances[0]!.publish({ userId, event: 'E', payload: i });
        await inbox.until(20);
        expect(inbox.seen.map((m) => m.payload)).toEqual([...Array(20).keys()]);
      } finally {
        await Promise.all(instances.map((f) => f.close()));
      }
    });
  });
}

fanoutSuite('in-process fan-out', () => [createInProcessFanout()]);

if (!REDIS_URL)
  console.info('Redis fan-out suite skipped: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run it');
const channel = `homesitter:test:${randomUUID()}`;
fanoutSuite(
  'Redis fan-out (two instances)',
  () => [createRedisFanout(REDIS_URL!, log, channel), createRedisFanout(REDIS_URL!, log, channel)],
  !REDIS_URL,
);
