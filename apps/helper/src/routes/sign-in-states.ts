import { randomBytes } from 'node:crypto';

/** How long a started sign-in may take: the same bound as the server's device-session token age. */
const STATE_TTL_MS = 10 * 60_000;
/** Outstanding sign-ins kept at most; the oldest goes first (a page that keeps asking gains nothing). */
const MAX_STATES = 16;

/**
 * One-time `state` values for `/callback`. Only a sign-in the app started through the local API (which only
 * the app's origins may call) can sign the helper in: a hostile page that sends the browser to
 * `/callback?token=<its own account's token>` is refused, so it cannot make the helper register this home's
 * cameras with someone else's account (login CSRF).
 */
export function createSignInStates(now: () => number = Date.now) {
  const states = new Map<string, number>();

  function prune(): void {
    const at = now();
    for (const [state, expiresAt] of states) if (expiresAt <= at) states.delete(state);
  }

  return {
    issue(): string {
      prune();
      while (states.size >= MAX_STATES) states.delete(states.keys().next().value!);
      const state = randomBytes(18).toString('base64url');
      states.set(state, now() + STATE_TTL_MS);
      return state;
    },
    /** True once for a live state it issued; the state is used up either way. */
    consume(state: string): boolean {
      prune();
      const known = states.has(state);
      states.delete(state);
      return known;
    },
  };
}

export type SignInStates = ReturnType<typeof createSignInStates>;
