import { BOTTOM_BAR_HEIGHT_REM, SIDEBAR_WIDTH_PX, STALE_TIME_MS } from '@homesitter/contract/runtime';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { session } from '../shared/lib/api';
import { isNativeApp } from '../shared/lib/native';
import { useMediaQuery } from '../shared/lib/useMediaQuery';
import { watchSafeAreaInsets } from '../shared/lib/safeArea';
import { SESSION_STORAGE_KEY } from '../shared/lib/session';
import { AppRoutes } from './router';

const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));
// The native shell (iOS/Android apps only) loads apart from the website's first paint.
const NativeShell = lazy(() =>
  import('../shared/native/NativeShell').then((m) => ({ default: m.NativeShell })),
);

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: STALE_TIME_MS, retry: 1, refetchOnWindowFocus: true },
  },
});

const TOAST_GAP_PX = 16;

/**
 * Toasts never cover a page's title or its banners (both at the top), nor the bottom bar: on large screens they
 * sit at the foot of the sidebar, as wide as it; on small ones above the bottom bar (or where it would be, which
 * keeps a screen's own bottom controls, like the chat's composer, clear).
 */
function Toasts() {
  const large = useMediaQuery('(min-width: 1024px)');
  const safeBottom = 'var(--safe-bottom, 0px)';
  const aboveBar = `calc(${BOTTOM_BAR_HEIGHT_REM}rem + ${safeBottom} + ${TOAST_GAP_PX}px)`;
  return (
    <Toaster
      position={large ? 'bottom-left' : 'bottom-center'}
      theme="dark"
      richColors
      closeButton
      style={large ? { ['--width' as string]: `${SIDEBAR_WIDTH_PX - 2 * TOAST_GAP_PX}px` } : undefined}
      offset={
        large
          ? { bottom: `calc(${safeBottom} + ${TOAST_GAP_PX}px)`, left: TOAST_GAP_PX }
          : { bottom: aboveBar }
      }
      mobileOffset={{ bottom: aboveBar, left: 12, right: 12 }}
    />
  );
}

export function App() {
  useEffect(() => watchSafeAreaInsets(), []);
  useEffect(
    () =>
      session.on((event) => {
        if (event === 'loggedOut') queryClient.clear();
      }),
    [],
  );
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === SESSION_STORAGE_KEY) session.syncFromStorage();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        {isNativeApp() ? (
          <Suspense fallback={null}>
            <NativeShell />
          </Suspense>
        ) : null}
        <AppRoutes />
      </BrowserRouter>
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
    </QueryClientProvider>
  );
}
