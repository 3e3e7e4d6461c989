/**
 * The eval's clock: the whole process (server, jobs, the embedded PGlite, whose `now()` reads this process's
 * clock) sees the real clock shifted by an offset, so the household's "now" is a pinned wall time and each
 * question is asked at its own `ask_at`. The clock keeps ticking at real speed; timers are untouched.
 */
const RealDate = Date;
let offsetMs = 0;

class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as [string | number | Date]));
  }
  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}

let installed = false;

/** Replaces the global Date (once) so that `new Date()` and `Date.now()` read the shifted clock. */
export function installClock(): void {
  if (installed) return;
  installed = true;
  globalThis.Date = ShiftedDate as DateConstructor;
}

/** From now on the clock reads `at` (and runs on from there). */
export function setClock(at: Date): void {
  offsetMs = at.getTime() - RealDate.now();
}
