/**
 * Waiting for the thing itself rather than for time. `recordCalls(object, 'method')` records every call of that
 * method from now on; the method still runs (as does a Vitest spy on it, whose record stays whole), and
 * `find` resolves with the first call a predicate accepts, at once or when it comes: no deadline but the
 * test's own. It sees calls that go through the object at call time, as the app's `deps.x.method(…)` do.
 */
import type { ChatMessage } from '@homesitter/contract';

type Fn = (...args: never[]) => unknown;
type ArgsOf<F> = F extends (...args: infer A extends unknown[]) => unknown ? A : never;
type MethodOf<T> = { [K in keyof T]-?: T[K] extends Fn ? K : never }[keyof T];

export interface RecordedCall<A> {
  args: A;
  /** What the call returned: for an async method, a promise to await for its effect. */
  result: unknown;
}

export interface CallRecorder<A extends unknown[]> {
  readonly calls: RecordedCall<A>[];
  /** The first call (recorded, or still to come) whose arguments `match` accepts. */
  find(match?: (...args: A) => boolean): Promise<RecordedCall<A>>;
  /** Stops recording (the method keeps running as before). */
  stop(): void;
}

export function recordCalls<T extends object, K extends MethodOf<T>>(
  object: T,
  method: K,
): CallRecorder<ArgsOf<T[K]>> {
  type A = ArgsOf<T[K]>;
  const calls: RecordedCall<A>[] = [];
  const waiting: { match: (...args: A) => boolean; resolve: (call: RecordedCall<A>) => void }[] = [];
  let recording = true;
  const inner = object[method] as (...args: unknown[]) => unknown;
  const wrapper = function (this: unknown, ...args: unknown[]) {
    const result = inner.apply(this, args);
    if (recording) {
      const call = { args: args as A, result };
      calls.push(call);
      for (const waiter of waiting.filter((w) => w.match(...call.args))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(call);
      }
    }
    return result;
  };
  Object.assign(object, { [method]: wrapper });
  return {
    calls,
    find(match = () => true) {
      const found = calls.find((call) => match(...call.args));
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiting.push({ match, resolve }));
    },
    stop() {
      recording = false;
      // Unwrapped only when nothing was put over it since; otherwise it stays, passing calls through.
      if (object[method] === (wrapper as unknown)) Object.assign(object, { [method]: inner });
    },
  };
}

/**
 * Waits until the server has pushed a chat message that `match` accepts to a user's open apps (realtime
 * `ReceiveMessage`); the message is stored before it is pushed. `published` records `realtime.publish`.
 */
export async function messagePushed(
  published: CallRecorder<[userId: string, event: string, payload: unknown]>,
  match: (message: ChatMessage, userId: string) => boolean,
): Promise<void> {
  const { result } = await published.find(
    (userId, event, payload) => event === 'ReceiveMessage' && match(payload as ChatMessage, userId),
  );
  await result;
}

/**
 * Reads `read` until `done` accepts its value, and answers that value: for state that a job or another
 * instance changes where there is no call to wait for. It keeps looking as long as the test may run (Vitest's
 * timeout is the only limit), so a slow machine only makes it wait longer.
 */
export async function stateReached<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
