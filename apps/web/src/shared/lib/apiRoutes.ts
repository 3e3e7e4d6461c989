import type { EndpointName, Endpoints } from '@homesitter/contract';

type RouteOf<K extends EndpointName> = {
  readonly method: Endpoints[K]['method'];
  readonly path: Endpoints[K]['path'];
  readonly access: Endpoints[K]['access'];
};

/**
 * Method, path and access of the contract's endpoints the web app calls. The compiler holds every entry to
 * the contract's literal types (and a unit test compares them with the runtime `endpoints` map), so the
 * bundle gets the routing facts without shipping the zod schemas behind them.
 */
export const apiRoutes = {
  signUp: { method: 'POST', path: '/api/auth/sign-up', access: 'public' },
  signIn: { method: 'POST', path: '/api/auth/sign-in', access: 'public' },
  refreshToken: { method: 'POST', path: '/api/auth/token', access: 'public' },
  signOut: { method: 'POST', path: '/api/auth/sign-out', access: 'public' },
  sendVerificationEmail: { method: 'POST', path: '/api/auth/send-verification-email', access: 'bearer' },
  verifyEmail: { method: 'POST', path: '/api/auth/verify-email', access: 'public' },
  forgotPassword: { method: 'POST', path: '/api/auth/forgot-password', access: 'public' },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', access: 'public' },
  signupStatus: { method: 'GET', path: '/api/signup/status', access: 'public' },
  joinWaitlist: { method: 'POST', path: '/api/signup/waitlist', access: 'public' },
  createUser: { method: 'POST', path: '/api/users', access: 'bearer' },
  getProfile: { method: 'GET', path: '/api/users/profile', access: 'bearer' },
  updateGlobalPrivacyMode: {
    method: 'POST',
    path: '/api/users/update-global-privacy-mode',
    access: 'verified',
  },
  getUserSettings: { method: 'GET', path: '/api/users/settings', access: 'verified' },
  updateUserSettings: { method: 'PUT', path: '/api/users/settings', access: 'verified' },
  deleteUser: { method: 'DELETE', path: '/api/users', access: 'verified' },
  updateNotifications: { method: 'POST', path: '/api/users/notifications', access: 'verified' },
  updateNotificationPreferences: {
    method: 'POST',
    path: '/api/users/notification-preferences',
    access: 'verified',
  },
  updatePersonalInfo: { method: 'POST', path: '/api/users/personal-info', access: 'verified' },
  updatePreferredLanguage: { method: 'POST', path: '/api/users/preferred-language', access: 'verified' },
  updateAmnesiaMode: { method: 'POST', path: '/api/users/update-amnesia-mode', access: 'verified' },
} as const satisfies { readonly [K in EndpointName]?: RouteOf<K> };

export type RouteName = keyof typeof apiRoutes;
