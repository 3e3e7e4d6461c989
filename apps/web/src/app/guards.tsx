import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { fromLocation } from '../shared/lib/returnPath';
import { useSession } from '../shared/lib/useSession';
import { PageSpinner } from '../shared/ui/Skeletons';

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
