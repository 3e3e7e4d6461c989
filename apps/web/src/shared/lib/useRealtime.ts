import type { RealtimeEventName } from '@homesitter/contract/runtime';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { realtime, type RealtimeHandler } from './realtime';
import { useSession } from './useSession';

/**
 * Opens the realtime connection for the signed-in, verified session and closes it on sign-out. Called once, by
 * the signed-in layout: screens coming and going never open or close it (docs/product.md §1, §4).
 */
export function useRealtimeSession() {
  const { status, isVerified } = useSession();
  const enabled = status === 'signedIn' && isVerified;
  useEffect(() => (enabled ? realtime.acquire() : undefined), [enabled]);
}

/** The state of the session's realtime connection (docs/product.md §4), for any screen that shows it. */
export function useRealtimeConnection() {
  return useSyncExternalStore(realtime.subscribe, realtime.getSnapshot, realtime.getSnapshot);
}

/**
 * Calls `handler` for each server event of that name while mounted (always the latest handler); the name
 * picks the payload's type from the contract's event map.
 */
export function useRealtimeEvent<E extends RealtimeEventName>(event: E, handler: RealtimeHandler<E>) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => realtime.on(event, (payload) => latest.current(payload)), [event]);
}

/** Calls `handler` each time the connection is back after it was lost: what was sent meanwhile was missed. */
export function useRealtimeReconnected(handler: () => void) {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => realtime.onReconnected(() => latest.current()), []);
}
