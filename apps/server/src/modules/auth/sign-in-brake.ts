/**
 * The brake on guessing a password, per account (email) and client address, in memory per instance.
 *
 * - **Per address**: `perAddress` failed sign-ins for one email from one address pause that address for
 *   that email until `windowMs` after its first failure.
 * - **Per email**: once an email has `freeFailures` failures from anywhere (each forgotten `windowMs` after
 *   the email's last one), every further attempt from an address that has failed for it waits a delay
 *   that doubles with each failure (1 s, 2 s, 4 s … up to `maxDelayMs`) after the email's last failure.
 * - **A clean address** (no failure for this email in the window) is never held back: the owner typing the
 *   right password on their own phone is let in, however many strangers are guessing elsewhere. Each
 *   stranger's address gets one guess that way, then it is slowed like the rest.
 *
 * An attempt counts as a failure as soon as it is let through (so a burst of parallel guesses cannot all
 * pass before the first one is judged); a right password takes it back.
 */
export interface SignInBrakeOptions {
  perAddress: number;
  freeFailures: number;
  windowMs: number;
  maxDelayMs: number;
  now?: () => number;
}

/** What the owner is told about: how many failures, from which addresses, and whether it holds back. */
export interface SignInFailures {
  failures: number;
  addresses: string[];
  /** This address is paused for this email. */
  addressPaused: boolean;
  /** Further attempts for this email from addresses that failed wait a growing delay. */
  slowed: boolean;
}

const FIRST_DELAY_MS = 1_000;
/** Entries kept before expired ones are swept (a flood of made-up emails must not grow memory forever). */
const SWEEP_AT = 10_000;

export function createSignInBrake(options: SignInBrakeOptions) {
  const now = options.now ?? Date.now;
  /** Per email: failures from anywhere, when the last was, and the addresses they came from. */
  const byEmail = new Map<string, { failures: number; lastAt: number; addresses: Set<string> }>();
  /** Per email and address: failures and when the window of the first ends. */
  const byAddress = new Map<string, { failures: number; until: number }>();
  const addressKey = (email: string, address: string) => `${email}\n${address}`;

  function current(email: string, address: string, t: number) {
    let e = byEmail.get(email);
    if (e && e.lastAt + options.windowMs <= t) {
      byEmail.delete(email);
      e = undefined;
    }
    let a = byAddress.get(addressKey(email, address));
    if (a && a.until <= t) {
      byAddress.delete(addressKey(email, address));
      a = undefined;
    }
    return { e, a };
  }

  function sweep(t: number) {
    if (byEmail.size + byAddress.size < SWEEP_AT) return;
    for (const [k, e] of byEmail) if (e.lastAt + options.windowMs <= t) byEmail.delete(k);
    for (const [k, a] of byAddress) if (a.until <= t) byAddress.delete(k);
  }

  /** The delay after the email's last failure that slowed addresses wait, 0 while it is not slowed. */
  function delayMs(failures: number): number {
    if (failures < options.freeFailures) return 0;
    const doublings = Math.min(failures - options.freeFailures, 30);
    return Math.min(options.maxDelayMs, FIRST_DELAY_MS * 2 ** doublings);
  }

  return {
    /**
     * Whether a sign-in for `email` from `address` may be tried now: the seconds to wait, or 0, in which case
     * the attempt is counted as a failure until `succeeded` takes it back.
     */
    attempt(email: string, address: string): number {
      const t = now();
      sweep(t);
      const { e, a } = current(email, address, t);
      if (a && a.failures >= options.perAddress) return Math.ceil((a.until - t) / 1000);
      if (a && e) {
        const readyAt = e.lastAt + delayMs(e.failures);
        if (readyAt > t) return Math.ceil((readyAt - t) / 1000);
      }
      const forEmail = e ?? { failures: 0, lastAt: t, addresses: new Set<string>() };
      forEmail.failures += 1;
      forEmail.lastAt = t;
      forEmail.addresses.add(address);
      byEmail.set(email, forEmail);
      const forAddress = a ?? { failures: 0, until: t + options.windowMs };
      forAddress.failures += 1;
      byAddress.set(addressKey(email, address), forAddress);
      return 0;
    },

    /** The right password: the attempt is no failure, and the address is clean again for this email. */
    succeeded(email: string, address: string): void {
      const { e } = current(email, address, now());
      byAddress.delete(addressKey(email, address));
      if (!e) return;
      e.failures -= 1;
      e.addresses.delete(address);
      if (e.failures <= 0) byEmail.delete(email);
    },

    /** The failures of `email` as they stand, seen from `address` (after a wrong password from there). */
    failures(email: string, address: string): SignInFailures {
      const { e, a } = current(email, address, now());
      return {
        failures: e?.failures ?? 0,
        addresses: e ? [...e.addresses] : [],
        addressPaused: (a?.failures ?? 0) >= options.perAddress,
        slowed: (e?.failures ?? 0) >= options.freeFailures,
      };
    },
  };
}
export type SignInBrake = ReturnType<typeof createSignInBrake>;
