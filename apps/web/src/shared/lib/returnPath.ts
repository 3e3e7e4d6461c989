import type { Location } from 'react-router';

/** Navigation state carried from a guard to /auth and /verify-email, so the user returns to where they were. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

export function fromLocation(location: Location): FromState['from'] {
  return { pathname: location.pathname, search: location.search, hash: location.hash };
}

/** Where to go once signed in and verified: the guarded origin, else highlights. */
export function originPath(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from?.pathname || from.pathname === '/auth' || from.pathname === '/verify-email') return '/highlights';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
