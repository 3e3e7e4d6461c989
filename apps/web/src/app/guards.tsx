import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, type Location } from 'react-router';
import { useSession } from '../shared/lib/useSession';
import { PageSpinner } from '../shared/ui/Skeletons';

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

/** Signed in, verified or not (verify-email). */
export function RequireUser({ children }: { children?: ReactNode }) {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner fullScreen />;
  if (status === 'signedOut') return <Navigate to="/auth" replace state={{ from: fromLocation(location) }} />;
  return children ?? <Outlet />;
}

/** Signed in with a verified (or exempt) email: the app itself. */
export function RequireVerified({ children }: { children?: ReactNode }) {
  const { status, isVerified } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner fullScreen />;
  if (status === 'signedOut') return <Navigate to="/auth" replace state={{ from: fromLocation(location) }} />;
  if (!isVerified) return <Navigate to="/verify-email" replace state={{ from: fromLocation(location) }} />;
  return children ?? <Outlet />;
}
