import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Outlet, useParams, useRoutes, type RouteObject } from 'react-router';
import {
  CamerasListSkeleton,
  ChatSkeleton,
  HighlightsSkeleton,
  MemoriesListSkeleton,
  MemoryDetailSkeleton,
  PageSpinner,
} from '../shared/ui/Skeletons';
import { RequireUser, RequireVerified } from './guards';
import { ScrollToTop } from './layouts/ScrollToTop';
import { i18n } from '../shared/lib/i18n';

type PageModule = Promise<{ default: ComponentType }>;

/** Every screen is its own chunk, shown behind the skeleton docs/product.md §2 names for it. */
function lazyPage(load: () => PageModule, Fallback: ComponentType = PageSpinner) {
  const Page = lazy(load);
  return (
    <Suspense fallback={<Fallback />}>
      <Page />
    </Suspense>
  );
}

/** Camera screens wait for their translations (the `cameras` namespace) along with their code. */
function cameras(load: () => PageModule): () => PageModule {
  return () => Promise.all([load(), i18n.loadNamespaces('cameras')]).then(([page]) => page);
}

/** Billing screens wait for the `billing` namespace along with their code. */
function billing(load: () => PageModule): () => PageModule {
  return () => Promise.all([load(), i18n.loadNamespaces('billing')]).then(([page]) => page);
}

/** The discovery flow and the camera test: the `discovery` namespace, and `cameras` for the fields they share. */
function discovery(load: () => PageModule): () => PageModule {
  return () => Promise.all([load(), i18n.loadNamespaces(['cameras', 'discovery'])]).then(([page]) => page);
}

function MemoryDetailFallback() {
  const { category } = useParams();
  return <MemoryDetailSkeleton category={category} />;
}

function Root() {
  return (
    <>
      <ScrollToTop />
      <Outlet />
    </>
  );
}

const AppLayout = lazy(() => import('./layouts/AppLayout'));

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      // Public
      { path: 'privacy', element: lazyPage(() => import('../features/legal/PrivacyPage')) },
      { path: 'cookies', element: lazyPage(() => import('../features/legal/CookiesPage')) },
      { path: 'terms', element: lazyPage(() => import('../features/legal/TermsPage')) },
      {
        path: 'camera-test',
        element: lazyPage(discovery(() => import('../features/discovery/cameraTest/CameraTestPage'))),
      },
      { path: 'auth', element: lazyPage(() => import('../features/auth/AuthPage')) },
      { path: 'auth/success', element: lazyPage(() => import('../features/auth/AuthSuccessPage')) },
      { path: 'waitlist', element: lazyPage(() => import('../features/auth/WaitlistPage')) },
      { path: 'forgot-password', element: lazyPage(() => import('../features/auth/ForgotPasswordPage')) },
      {
        path: 'verify-email',
        element: <RequireUser>{lazyPage(() => import('../features/auth/VerifyEmailPage'))}</RequireUser>,
      },
      // Signed in and verified
      {
        element: (
          <RequireVerified>
            <Suspense fallback={<PageSpinner fullScreen />}>
              <AppLayout />
            </Suspense>
          </RequireVerified>
        ),
        children: [
          { index: true, element: <Navigate to="/highlights" replace /> },
          {
            path: 'highlights',
            element: lazyPage(() => import('../features/highlights/HighlightsPage'), HighlightsSkeleton),
          },
          { path: 'chat', element: lazyPage(() => import('../features/chat/ChatPage'), ChatSkeleton) },
          { path: 'contact', element: lazyPage(() => import('../features/support/SupportPage')) },
          { path: 'support', element: lazyPage(() => import('../features/support/SupportPage')) },
          {
            path: 'memories',
            element: lazyPage(() => import('../features/memories/MemoriesPage'), MemoriesListSkeleton),
          },
          {
            path: 'memories/:category/new',
            element: lazyPage(() => import('../features/memories/NewMemoryPage'), MemoryDetailFallback),
          },
          {
            path: 'memories/:category/:id',
            element: lazyPage(() => import('../features/memories/MemoryDetailPage'), MemoryDetailFallback),
          },
          {
            path: 'cameras',
            element: lazyPage(
              cameras(() => import('../features/cameras/CamerasPage')),
              CamerasListSkeleton,
            ),
          },
          {
            path: 'cameras/add',
            element: lazyPage(cameras(() => import('../features/cameras/AddCameraPage'))),
          },
          {
            path: 'cameras/add/network',
            element: lazyPage(discovery(() => import('../features/discovery/DiscoveryPage'))),
          },
          {
            path: 'cameras/:name',
            element: lazyPage(cameras(() => import('../features/cameras/CameraDetailPage'))),
          },
          {
            path: 'cameras/:name/view',
            element: lazyPage(cameras(() => import('../features/cameras/CameraViewPage'))),
          },
          {
            path: 'cameras/:name/fullscreen',
            element: lazyPage(cameras(() => import('../features/cameras/CameraViewPage'))),
          },
          {
            path: 'camera-preview',
            element: lazyPage(cameras(() => import('../features/cameras/CameraViewPage'))),
          },
          { path: 'settings', element: lazyPage(() => import('../features/settings/SettingsPage')) },
          { path: 'settings/account', element: lazyPage(() => import('../features/settings/AccountPage')) },
          {
            path: 'settings/account/change-plan',
            element: lazyPage(billing(() => import('../features/billing/ChangePlanPage'))),
          },
          {
            path: 'settings/account/cancel',
            element: lazyPage(billing(() => import('../features/billing/CancelSubscriptionPage'))),
          },
          {
            path: 'settings/notifications',
            element: lazyPage(() => import('../features/settings/NotificationsPage')),
          },
          {
            path: 'settings/camera-setup',
            element: lazyPage(cameras(() => import('../features/cameras/CameraSetupPage'))),
          },
          {
            path: 'subscription/success',
            element: lazyPage(billing(() => import('../features/billing/SubscriptionSuccessPage'))),
          },
          {
            path: 'subscription/canceled',
            element: lazyPage(billing(() => import('../features/billing/SubscriptionCanceledPage'))),
          },
          { path: '*', element: lazyPage(() => import('../features/placeholder/NotFoundPage')) },
        ],
      },
    ],
  },
];

/** Declarative routing (no data loaders): the smaller router build keeps /auth within its budget. */
export function AppRoutes() {
  return useRoutes(routes);
}
