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
  registerPushToken: { method: 'POST', path: '/api/users/push-notification-token', access: 'verified' },
  disablePushToken: {
    method: 'POST',
    path: '/api/users/push-notification-token/disable',
    access: 'verified',
  },
  getVapidPublicKey: { method: 'GET', path: '/api/push/vapid-public-key', access: 'public' },
  // Cameras and properties
  listCameras: { method: 'GET', path: '/api/users/cameras', access: 'verified' },
  addCamera: { method: 'POST', path: '/api/users/cameras', access: 'verified' },
  getCamera: { method: 'GET', path: '/api/users/cameras/:name', access: 'verified' },
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
  getConversationHistory: {
    method: 'GET',
    path: '/api/users/conversation-history',
    access: 'verified',
  },
  sendMessage: { method: 'POST', path: '/api/users/messages', access: 'verified' },
  getActivitySummaries: { method: 'GET', path: '/api/users/activity-summaries', access: 'verified' },
  realtimeNegotiate: { method: 'POST', path: '/api/realtime/negotiate', access: 'verified' },
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
  listActivities: { method: 'GET', path: '/api/users/activities', access: 'verified' },
  getActivity: { method: 'GET', path: '/api/users/activities/:activity_uuid', access: 'verified' },
  deleteCameraHistory: {
    method: 'DELETE',
    path: '/api/users/cameras/:name/activities',
    access: 'verified',
  },
} as const satisfies { readonly [K in EndpointName]?: RouteOf<K> };

export type RouteName = keyof typeof apiRoutes;
