import { useSyncExternalStore } from 'react';
import { session } from './api';

export function useSession() {
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  return { ...state, isVerified: session.isVerified(state.user) };
}
