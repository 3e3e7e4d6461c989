import type { Fanout, FanoutMessage } from './fanout.js';

/** One server instance: a published message goes straight to this instance's receiver. */
export function createInProcessFanout(): Fanout {
  let receiver: ((message: FanoutMessage) => void) | undefined;
  return {
    kind: 'in-process',
    async publish(message) {
      receiver?.(message);
    },
    async subscribe(r) {
      receiver = r;
    },
    async close() {
      receiver = undefined;
    },
  };
}
