import { STALE_TIME_MS } from '@homesitter/contract/runtime';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { session } from '../shared/lib/api';
import { isNativeApp } from '../shared/lib/native';
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
        <Toaster
          position="top-center"
          theme="dark"
          richColors
          closeButton
          offset={isNativeApp() ? { top: 'calc(var(--safe-top) + 16px)' } : 16}
          mobileOffset={isNativeApp() ? { top: 'calc(var(--safe-top) + 12px)' } : 12}
        />
      </Suspense>
    </QueryClientProvider>
  );
}
