/**
 * Back-pressure between receiving and processing camera uploads. Receiving (a spool, a file copy and a
 * group commit) is cheaper than processing (thumbnails, activities, the AI's job), so cameras sending flat
 * out would otherwise be acknowledged faster than their files become events, and the queue between the two
 * would grow for as long as they send: every event later than the one before. Instead, at most `limit`
 * acknowledged uploads wait for processing in this process; the next upload (already stored, not yet
 * committed) waits for a place before its commit, so its camera waits a little longer for "received"
 * rather than every event waiting longer to appear. "Acknowledged ⇒ durable" is untouched: the wait comes
 * before the commit, the acknowledgement after it.
 *
 * A place is freed when processing is done with the upload (`settled`), or after `staleMs` whatever happened
 * (an upload processed by another instance, a lost signal), and no upload waits longer than `maxWaitMs`:
 * the gate slows receiving down, it never stops it.
 */
export interface BacklogGate {
  /** Waits for places for these uploads (about to be committed), then holds them. */
  admit(uploadIds: string[]): Promise<void>;
  /** Processing is done with the upload (or its commit failed): its place is free. */
  settled(uploadId: string): void;
  /** Uploads holding a place now. */
  size(): number;
}

export interface BacklogGateOptions {
  /** Acknowledged uploads waiting for processing at most; 0 turns the gate off. */
  limit: number;
  maxWaitMs?: number;
  staleMs?: number;
  now?: () => number;
}

export function createBacklogGate(options: BacklogGateOptions): BacklogGate {
  const { limit } = options;
  const maxWaitMs = options.maxWaitMs ?? 5_000;
  const staleMs = options.staleMs ?? 60_000;
  const now = options.now ?? Date.now;
  /** Upload id → when it took its place (insertion order is age order). */
  const held = new Map<string, number>();
  const waiters: { ids: string[]; admit: () => void }[] = [];

  function dropStale(): void {
    const cutoff = now() - staleMs;
    for (const [id, since] of held) {
      if (since >= cutoff) break;
      held.delete(id);
    }
  }

  function take(ids: string[]): void {
    const at = now();
    for (const id of ids) held.set(id, at);
  }

  /** Lets waiters in, oldest first, while there is room (one larger than the room goes in alone). */
  function pump(): void {
    dropStale();
    while (waiters.length > 0 && (held.size === 0 || held.size + waiters[0]!.ids.length <= limit))
      waiters.shift()!.admit();
  }

  return {
    admit(uploadIds) {
      if (limit <= 0) return Promise.resolve();
      dropStale();
      if (waiters.length === 0 && (held.size === 0 || held.size + uploadIds.length <= limit)) {
        take(uploadIds);
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const waiter = {
          ids: uploadIds,
          admit: () => {
            clearTimeout(timer);
            take(uploadIds);
            resolve();
          },
        };
        // Processing stuck (or slower than ever expected): the camera still hears back in time.
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          waiter.admit();
        }, maxWaitMs);
        waiters.push(waiter);
      });
    },

    settled(uploadId) {
      if (held.delete(uploadId)) pump();
    },

    size: () => held.size,
  };
}
