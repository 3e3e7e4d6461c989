import {
  authSessionSchema,
  emailVerificationStatusSchema,
  forgotPasswordRequestSchema,
  refreshTokenRequestSchema,
  resendVerificationSchema,
  resetPasswordRequestSchema,
  changePasswordRequestSchema,
  signInRequestSchema,
  signUpRequestSchema,
  verifyEmailRequestSchema,
} from './auth.js';
import { activitiesEndpoints } from './activities.endpoints.js';
import { billingEndpoints } from './billing.endpoints.js';
import { adminFreeEventsSchema, adminSetFreeEventsRequestSchema } from './billing.js';
import { aiEndpoints } from './ai.endpoints.js';
import { camerasEndpoints } from './cameras.endpoints.js';
import { chatEndpoints } from './chat.endpoints.js';
import { defineEndpoints, type Endpoint } from './endpoint.js';
import { helperEndpoints } from './helper.endpoints.js';
import { nestEndpoints } from './nest.endpoints.js';
import { ingestEndpoints } from './ingest.endpoints.js';
import { messageEnvelope, okEnvelope, successOnlySchema } from './envelope.js';
import { memoriesEndpoints } from './memories.endpoints.js';
import { MESSAGES } from './messages.js';
import { notificationsEndpoints } from './notifications.endpoints.js';
import { apiRoutes, type ApiRouteName } from './routes.runtime.js';
import {
  createUserRequestSchema,
  pushTokenRefRequestSchema,
  pushTokenSchema,
  registerPushTokenRequestSchema,
  signupStatusSchema,
  updateAmnesiaModeRequestSchema,
  updateGlobalPrivacyModeRequestSchema,
  updateNotificationPreferencesRequestSchema,
  updateNotificationsRequestSchema,
  updatePersonalInfoRequestSchema,
  updatePreferredLanguageRequestSchema,
  updateUserSettingsRequestSchema,
  userProfileSchema,
  userSettingsSchema,
  verifyPushTokenResponseSchema,
  waitlistEntrySchema,
  waitlistRequestSchema,
} from './users.js';
import { z } from 'zod';

export {
  helperDownloadSchema,
  helperLinkStatusSchema,
  type HelperDownload,
  type HelperLinkStatus,
} from './helper.endpoints.js';

const profile = okEnvelope(userProfileSchema);

/**
 * Every endpoint of docs/product.md §7 served so far, plus the identity provider's own: one for each entry of the route
 * table (`satisfies` below), each with that entry's method, path and access (`defineEndpoints`).
 */
export const endpoints = defineEndpoints({
  ...camerasEndpoints,
  ...ingestEndpoints,
  // Identity provider (stands in for the product's federated provider)
  signUp: {
    ...apiRoutes.signUp,
    summary: 'Create an identity account and mail the verification link',
    tags: ['auth'],
    body: signUpRequestSchema,
    response: authSessionSchema,
    successStatus: 201,
  },
  signIn: {
    ...apiRoutes.signIn,
    summary: 'Sign in with email and password',
    tags: ['auth'],
    body: signInRequestSchema,
    response: authSessionSchema,
    failureMessage: MESSAGES.authenticationFailed,
  },
  refreshToken: {
    ...apiRoutes.refreshToken,
    summary: 'Exchange a refresh token for a new ID token and a rotated refresh token',
    tags: ['auth'],
    body: refreshTokenRequestSchema,
    response: authSessionSchema,
  },
  deviceSession: {
    ...apiRoutes.deviceSession,
    summary:
      'A new session (its own refresh token) for a device of the caller, e.g. the desktop helper: the bearer ' +
      'ID token must be at most DEVICE_SESSION_MAX_TOKEN_AGE_S (10 minutes) old',
    tags: ['auth'],
    response: authSessionSchema,
  },
  signOut: {
    ...apiRoutes.signOut,
    summary: 'Revoke a refresh token',
    tags: ['auth'],
    body: refreshTokenRequestSchema,
    response: successOnlySchema,
  },
  sendVerificationEmail: {
    ...apiRoutes.sendVerificationEmail,
    summary: 'Send the verification mail again (once a minute)',
    tags: ['auth'],
    response: okEnvelope(resendVerificationSchema),
    failureMessage: MESSAGES.sendVerificationEmailFailed,
  },
  verifyEmail: {
    ...apiRoutes.verifyEmail,
    summary: 'Mark the email verified with the code from the mailed link',
    tags: ['auth'],
    body: verifyEmailRequestSchema,
    response: okEnvelope(emailVerificationStatusSchema),
  },
  forgotPassword: {
    ...apiRoutes.forgotPassword,
    summary: 'Mail a password-reset link (always answers 200)',
    tags: ['auth'],
    body: forgotPasswordRequestSchema,
    response: successOnlySchema,
  },
  resetPassword: {
    ...apiRoutes.resetPassword,
    summary: 'Set a new password with the mailed code; signs out every session',
    tags: ['auth'],
    body: resetPasswordRequestSchema,
    response: successOnlySchema,
    failureMessage: MESSAGES.resetPasswordFailed,
  },
  changePassword: {
    ...apiRoutes.changePassword,
    summary:
      'Change the password with the current one; signs out every other session and answers a new session for this one',
    tags: ['auth'],
    body: changePasswordRequestSchema,
    response: authSessionSchema,
    failureMessage: MESSAGES.changePasswordFailed,
  },

  // Sign-up gate
  signupStatus: {
    ...apiRoutes.signupStatus,
    summary: 'Whether new accounts may be created',
    tags: ['signup'],
    response: okEnvelope(signupStatusSchema),
  },
  joinWaitlist: {
    ...apiRoutes.joinWaitlist,
    summary: 'Put an email on the waitlist (idempotent)',
    tags: ['signup'],
    body: waitlistRequestSchema,
    response: successOnlySchema,
    failureMessage: MESSAGES.joinWaitlistFailed,
  },

  // User (§7 "User")
  createUser: {
    ...apiRoutes.createUser,
    summary: 'Create the profile of the signed-in identity (idempotent)',
    tags: ['users'],
    body: createUserRequestSchema,
    response: profile,
    successStatus: 201,
    failureMessage: MESSAGES.createUserFailed,
  },
  getProfile: {
    ...apiRoutes.getProfile,
    summary: 'The profile of the signed-in user',
    tags: ['users'],
    response: profile,
    failureMessage: MESSAGES.loadUserDataFailed,
  },
  updateGlobalPrivacyMode: {
    ...apiRoutes.updateGlobalPrivacyMode,
    summary: 'Turn private mode on or off for every camera',
    tags: ['users'],
    body: updateGlobalPrivacyModeRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updatePrivacyModeFailed,
  },
  getUserSettings: {
    ...apiRoutes.getUserSettings,
    summary: 'User settings',
    tags: ['users'],
    response: okEnvelope(userSettingsSchema),
    failureMessage: MESSAGES.getUserSettingsFailed,
  },
  updateUserSettings: {
    ...apiRoutes.updateUserSettings,
    summary: 'Turn facial recognition on or off (records consent when turned on)',
    tags: ['users'],
    body: updateUserSettingsRequestSchema,
    response: messageEnvelope(userSettingsSchema),
    failureMessage: MESSAGES.updateFacialRecognitionFailed,
  },
  deleteUser: {
    ...apiRoutes.deleteUser,
    summary: 'Delete the account, its identity and everything it owns',
    tags: ['users'],
    response: successOnlySchema,
    failureMessage: MESSAGES.deleteUserFailed,
  },
  updateNotifications: {
    ...apiRoutes.updateNotifications,
    summary: 'All notifications on or off',
    tags: ['users'],
    body: updateNotificationsRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updateNotificationsFailed,
  },
  updateNotificationPreferences: {
    ...apiRoutes.updateNotificationPreferences,
    summary: 'Push and SMS/MMS on or off',
    tags: ['users'],
    body: updateNotificationPreferencesRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updateNotificationPreferencesFailed,
  },
  updatePersonalInfo: {
    ...apiRoutes.updatePersonalInfo,
    summary: 'Name, phone number and time zone',
    tags: ['users'],
    body: updatePersonalInfoRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updatePersonalInfoFailed,
  },
  updatePreferredLanguage: {
    ...apiRoutes.updatePreferredLanguage,
    summary: 'Language of the app, mails and the home sitter',
    tags: ['users'],
    body: updatePreferredLanguageRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updatePreferredLanguageFailed,
  },
  updateAmnesiaMode: {
    ...apiRoutes.updateAmnesiaMode,
    summary: 'Amnesia mode: alerts still go out, nothing new is kept',
    tags: ['users'],
    body: updateAmnesiaModeRequestSchema,
    response: profile,
    failureMessage: MESSAGES.updateAmnesiaModeFailed,
  },
  registerPushToken: {
    ...apiRoutes.registerPushToken,
    summary: 'Register (or re-enable) a device push token',
    tags: ['users'],
    body: registerPushTokenRequestSchema,
    response: okEnvelope(pushTokenSchema),
  },
  disablePushToken: {
    ...apiRoutes.disablePushToken,
    summary: 'Stop pushing to a device token',
    tags: ['users'],
    body: pushTokenRefRequestSchema,
    response: okEnvelope(pushTokenSchema),
  },
  verifyPushToken: {
    ...apiRoutes.verifyPushToken,
    summary: 'Whether a device token is registered and enabled for this user',
    tags: ['users'],
    body: pushTokenRefRequestSchema,
    response: okEnvelope(verifyPushTokenResponseSchema),
  },

  // Operator (npm run admin)
  adminSetSignup: {
    ...apiRoutes.adminSetSignup,
    summary: 'Open or close sign-up',
    tags: ['admin'],
    body: z.strictObject({ enabled: z.boolean() }),
    response: okEnvelope(signupStatusSchema),
  },
  adminSetFreeEvents: {
    ...apiRoutes.adminSetFreeEvents,
    summary:
      "Set a user's remaining free motion events (support, tests); a new grant tells them again when they run out",
    tags: ['admin'],
    body: adminSetFreeEventsRequestSchema,
    response: okEnvelope(adminFreeEventsSchema),
  },
  adminListWaitlist: {
    ...apiRoutes.adminListWaitlist,
    summary: 'Everyone on the waitlist, oldest first',
    tags: ['admin'],
    response: okEnvelope(z.array(waitlistEntrySchema)),
  },

  ...chatEndpoints,
  ...memoriesEndpoints,
  ...notificationsEndpoints,
  ...aiEndpoints,
  ...activitiesEndpoints,
  ...helperEndpoints,
  ...nestEndpoints,
  ...billingEndpoints,
}) satisfies Record<ApiRouteName, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
