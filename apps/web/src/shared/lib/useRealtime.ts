import type { RealtimeEventName } from '@homesitter/contract/runtime';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { realtime, type RealtimeHandler } from './realtime';
import { useSession } from './useSession';

/** Keeps the realtime connection open while the calling screen is shown (signed-in, verified users only). */
export function useRealtimeConnection() {
  const { status, isVerified } = useSession();
  const enabled = status === 'signedIn' && isVerified;
  useEffect(() => (enabled ? realtime.acquire() : undefined), [enabled]);
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
