import type { Fanout, FanoutMessage } from '../src/adapters/fanout/fanout.js';

/**
 * Fan-outs of several server instances in one test process, linked as Redis links them: a message published
 * on any reaches the receiver of every one (the publisher's too), in order. The Redis implementation keeps
 * the same promises (adapters/fanout/fanout.test.ts).
 */
export function createLinkedFanouts(count: number): Fanout[] {
  const receivers: (((message: FanoutMessage) => void) | undefined)[] = Array.from({ length: count });
  return receivers.map((_, i) => ({
    kind: 'redis' as const,
    async publish(message: FanoutMessage) {
      // A copy through JSON, as it would travel.
      const sent = JSON.parse(JSON.stringify(message)) as FanoutMessage;
      for (const receive of receivers) receive?.(sent);
    },
    async subscribe(receiver: (message: FanoutMessage) => void) {
      receivers[i] = receiver;
    },
    async close() {
      receivers[i] = undefined;
    },
  }));
}
