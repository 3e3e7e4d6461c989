import type { RealtimeEvents } from '@homesitter/contract';
import { useEffect, useRef } from 'react';

/**
 * Stands in for `shared/lib/useRealtime` in component tests:
 * `vi.mock('…/shared/lib/useRealtime', () => import('…/test/fakeRealtime'))`, then `emitRealtime(…)`.
 */
type Handler = (payload: never) => void;
const handlers = new Map<string, Set<Handler>>();

/** The session's connection: nothing to open in a component test. */
export function useRealtimeSession() {}

/** A component test never loses the connection. */
export function useRealtimeReconnected(handler: () => void) {
  void handler;
}

export function useRealtimeConnection() {
  return { state: 'connected' as const, error: null };
}

export function useRealtimeEvent<E extends keyof RealtimeEvents>(
  event: E,
  handler: (payload: RealtimeEvents[E]) => void,
) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const h = (payload: RealtimeEvents[E]) => latest.current(payload);
    let set = handlers.get(event);
    if (!set) handlers.set(event, (set = new Set()));
    set.add(h);
    return () => {
      set.delete(h);
    };
  }, [event]);
}

/** Delivers a server event to every screen listening for it. */
export function emitRealtime<E extends keyof RealtimeEvents>(event: E, payload: RealtimeEvents[E]) {
  for (const h of handlers.get(event) ?? []) (h as (p: RealtimeEvents[E]) => void)(payload);
}
