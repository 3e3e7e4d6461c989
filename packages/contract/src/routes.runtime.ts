/**
 * Method, path and access of every endpoint, without zod: the one place these facts are written. The zod
 * endpoint map (endpoints.ts) spreads each entry into its endpoint and `defineEndpoints` refuses an endpoint
 * that differs from its route, so the server, the OpenAPI document and the browser's HTTP client all route
 * by this table, and a browser bundle gets it without the schemas.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint:
 * - `public`: anyone;
 * - `bearer`: a valid ID token;
 * - `verified`: a valid ID token whose email is verified (or exempt);
 * - `admin`: the operator's admin token (`npm run admin`).
 */
export type EndpointAccess = 'public' | 'bearer' | 'verified' | 'admin';

export interface ApiRoute {
  readonly method: HttpMethod;
  /** Fastify-style path with `:param` segments. */
  readonly path: string;
  readonly access: EndpointAccess;
}

export const apiRoutes = {
  // Identity provider (stands in for the product's federated provider)
  signUp: { method: 'POST', path: '/api/auth/sign-up', access: 'public' },
  signIn: { method: 'POST', path: '/api/auth/sign-in', access: 'public' },
  refreshToken: { method: 'POST', path: '/api/auth/token', access: 'public' },
  signOut: { method: 'POST', path: '/api/auth/sign-out', access: 'public' },
  sendVerificationEmail: { method: 'POST', path: '/api/auth/send-verification-email', access: 'bearer' },
  verifyEmail: { method: 'POST', path: '/api/auth/verify-email', access: 'public' },
  forgotPassword: { method: 'POST', path: '/api/auth/forgot-password', access: 'public' },
  resetPassword: { method: 'POST', path: '/api/auth/reset-password', access: 'public' },
  changePassword: { method: 'POST', path: '/api/auth/change-password', access: 'verified' },
  /** A fresh ID token (at most 10 minutes old) buys a device of its own (the desktop helper) a new session. */
  deviceSession: { method: 'POST', path: '/api/auth/device-session', access: 'bearer' },

  // Sign-up gate
  signupStatus: { method: 'GET', path: '/api/signup/status', access: 'public' },
  joinWaitlist: { method: 'POST', path: '/api/signup/waitlist', access: 'public' },

  // User
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
  registerPushToken: { method: 'POST', path: '/api/users/push-notification-token', access: 'verified' },
  disablePushToken: {
    method: 'POST',
    path: '/api/users/push-notification-token/disable',
    access: 'verified',
  },
  verifyPushToken: { method: 'POST', path: '/api/users/verify-push-token', access: 'verified' },

  // Notifications
  getVapidPublicKey: { method: 'GET', path: '/api/push/vapid-public-key', access: 'public' },
  getNotificationChannels: { method: 'GET', path: '/api/push/channels', access: 'public' },

  // Cameras and properties
  listCameras: { method: 'GET', path: '/api/users/cameras', access: 'verified' },
  addCamera: { method: 'POST', path: '/api/users/cameras', access: 'verified' },
  getCamera: { method: 'GET', path: '/api/users/cameras/:name', access: 'verified' },
  configureCamera: { method: 'POST', path: '/api/users/cameras/:name/configure', access: 'verified' },
  getCameraLive: { method: 'GET', path: '/api/users/cameras/:name/live', access: 'verified' },
  startCameraWebRtc: { method: 'POST', path: '/api/users/cameras/:name/live/webrtc', access: 'verified' },
  extendCameraWebRtc: {
    method: 'POST',
    path: '/api/users/cameras/:name/live/webrtc/:sessionId/extend',
    access: 'verified',
  },
  stopCameraWebRtc: {
    method: 'DELETE',
    path: '/api/users/cameras/:name/live/webrtc/:sessionId',
    access: 'verified',
  },
  updateCamera: { method: 'POST', path: '/api/users/update-camera', access: 'verified' },
  updateCameraSettings: { method: 'PUT', path: '/api/cameras/:name/settings', access: 'verified' },
  renameCamera: { method: 'POST', path: '/api/users/update-camera-name', access: 'verified' },
  associateCameraSite: { method: 'POST', path: '/api/users/cameras/site-association', access: 'verified' },
  getCameraUploadCredentials: {
    method: 'GET',
    path: '/api/users/camera-email-credentials',
    access: 'verified',
  },
  regenerateCameraUploadCredentials: {
    method: 'POST',
    path: '/api/users/generate-new-camera-email-credentials',
    access: 'verified',
  },
  listSites: { method: 'GET', path: '/api/users/sites', access: 'verified' },
  createSite: { method: 'POST', path: '/api/users/sites', access: 'verified' },
  renameSite: { method: 'PUT', path: '/api/users/sites/:siteUuid', access: 'verified' },
  deleteSite: { method: 'DELETE', path: '/api/users/sites/:siteUuid', access: 'verified' },
  associateAllMemories: {
    method: 'POST',
    path: '/api/users/sites/:siteUuid/associate-all-memories',
    access: 'verified',
  },

  // The desktop helper (its sockets, /api/helper/connect and /api/helper/live/:cameraUuid, are not JSON calls)
  getHelperStatus: { method: 'GET', path: '/api/users/helper', access: 'verified' },
  listHelperDownloads: { method: 'GET', path: '/api/helper/downloads', access: 'public' },

  // Google Nest (docs/nest.md); the OAuth redirect, GET /api/nest/callback (NEST_CALLBACK_PATH), answers the
  // browser with a redirect to /cameras, not JSON
  getNestLink: { method: 'GET', path: '/api/users/nest', access: 'verified' },
  linkNest: { method: 'POST', path: '/api/nest/link', access: 'verified' },
  unlinkNest: { method: 'DELETE', path: '/api/nest/link', access: 'verified' },

  // Payments (docs/product.md §7 "Payments"); the provider's webhook, POST /api/stripe/webhook, is not a JSON call of
  // the app (raw body, signature header) and is described in docs/billing.md
  getPrices: { method: 'GET', path: '/api/stripe/prices', access: 'verified' },
  createCheckoutSession: { method: 'POST', path: '/api/stripe/create-checkout-session', access: 'verified' },
  getSubscription: { method: 'GET', path: '/api/stripe/subscription', access: 'verified' },
  verifyCheckoutSession: { method: 'GET', path: '/api/stripe/verify-session/:sessionId', access: 'verified' },
  cancelSubscription: { method: 'POST', path: '/api/stripe/cancel-subscription', access: 'verified' },
  createPaymentIntent: { method: 'POST', path: '/api/stripe/create-payment-intent', access: 'verified' },
  activateSubscription: { method: 'POST', path: '/api/stripe/activate-subscription', access: 'verified' },
  updateSubscription: { method: 'POST', path: '/api/stripe/update-subscription', access: 'verified' },
  createPortalSession: { method: 'POST', path: '/api/stripe/create-portal-session', access: 'verified' },

  // Camera uploads over HTTP: cameras sign in with HTTP Basic, checked by the route itself
  ingestEvent: { method: 'POST', path: '/api/ingest/events', access: 'public' },

  // Activities, recognition and corrections
  listActivities: { method: 'GET', path: '/api/users/activities', access: 'verified' },
  getActivity: { method: 'GET', path: '/api/users/activities/:activity_uuid', access: 'verified' },
  deleteCameraHistory: {
    method: 'DELETE',
    path: '/api/users/cameras/:name/activities',
    access: 'verified',
  },
  getActivityRecognition: {
    method: 'GET',
    path: '/api/users/activities/:activity_uuid/recognition',
    access: 'verified',
  },
  correctActivityRecognition: {
    method: 'POST',
    path: '/api/users/activities/:activity_uuid/corrections',
    access: 'verified',
  },

  // Chat, highlights and realtime
  getConversationHistory: {
    method: 'GET',
    path: '/api/users/conversation-history',
    access: 'verified',
  },
  sendMessage: { method: 'POST', path: '/api/users/messages', access: 'verified' },
  getActivitySummaries: { method: 'GET', path: '/api/users/activity-summaries', access: 'verified' },
  realtimeNegotiate: { method: 'POST', path: '/api/realtime/negotiate', access: 'verified' },

  // Memories
  listMemories: { method: 'GET', path: '/api/users/memories', access: 'verified' },
  getMemory: { method: 'GET', path: '/api/users/memories/:category/:id', access: 'verified' },
  createMemory: { method: 'POST', path: '/api/users/memories/:category', access: 'verified' },
  updateMemory: { method: 'POST', path: '/api/users/memories/:category/:id', access: 'verified' },
  deleteMemory: { method: 'DELETE', path: '/api/users/memories/:category/:id', access: 'verified' },
  uploadMemoryImage: { method: 'POST', path: '/api/users/memories/:category/:id/images', access: 'verified' },
  deleteMemoryImage: {
    method: 'DELETE',
    path: '/api/users/memories/:category/:id/images/:imageId',
    access: 'verified',
  },

  // Operator (npm run admin)
  adminSetSignup: { method: 'POST', path: '/api/admin/signup', access: 'admin' },
  adminSetFreeEvents: { method: 'POST', path: '/api/admin/free-events', access: 'admin' },
  adminListWaitlist: { method: 'GET', path: '/api/admin/waitlist', access: 'admin' },
  adminPostAgentMessage: { method: 'POST', path: '/api/admin/chat/agent-message', access: 'admin' },
} as const satisfies Record<string, ApiRoute>;

export type ApiRoutes = typeof apiRoutes;
export type ApiRouteName = keyof ApiRoutes;
