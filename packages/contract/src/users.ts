import { z } from 'zod';
import {
  emailSchema,
  phoneNumberSchema,
  singleLineText,
  supportedLanguageSchema,
  timezoneSchema,
} from './common.js';
import { canonicalWebPushToken } from './notifications.js';

const personName = (label: string) =>
  singleLineText(label, z.string().trim().max(100, 'Names are at most 100 characters'));

export const notificationsStatusSchema = z.enum(['ALL_ENABLED', 'ALL_DISABLED']);
export type NotificationsStatus = z.infer<typeof notificationsStatusSchema>;

export const notificationPreferencesSchema = z.strictObject({
  push_enabled: z.boolean(),
  sms_mms_enabled: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const stripeDataSchema = z.object({
  customer_id: z.string().nullable(),
  subscription: z.object({ id: z.string(), status: z.string() }).nullable(),
});

/** docs/product.md §3 "User profile". */
export const userProfileSchema = z.object({
  user_uuid: z.string(),
  firebase_user_id: z.string(),
  firebase_email_address: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone_number: z.string().nullable(),
  created_at: z.string(),
  last_updated: z.string(),
  stripe_data: stripeDataSchema.nullable(),
  is_global_privacy_mode_enabled: z.boolean(),
  is_facial_recognition_enabled: z.boolean(),
  is_amnesia_mode_enabled: z.boolean(),
  notifications_status: notificationsStatusSchema,
  notification_preferences: z.object({ push_enabled: z.boolean(), sms_mms_enabled: z.boolean() }),
  timezone: z.string().nullable(),
  preferred_language: supportedLanguageSchema,
  remaining_free_events: z.number().int(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const createUserRequestSchema = z.strictObject({
  first_name: personName('first_name').optional(),
  last_name: personName('last_name').optional(),
  phone_number: phoneNumberSchema.nullish(),
  timezone: timezoneSchema.optional(),
  preferred_language: supportedLanguageSchema.optional(),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

export const updateGlobalPrivacyModeRequestSchema = z.strictObject({
  is_global_privacy_mode_enabled: z.boolean(),
});

export const userSettingsSchema = z.object({
  is_facial_recognition_enabled: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const updateUserSettingsRequestSchema = z.strictObject({
  is_facial_recognition_enabled: z.boolean(),
});

export const updateNotificationsRequestSchema = z.strictObject({
  notifications_status: notificationsStatusSchema,
});

export const updateNotificationPreferencesRequestSchema = z.strictObject({
  notification_preferences: notificationPreferencesSchema,
});

export const updatePersonalInfoRequestSchema = z
  .strictObject({
    first_name: personName('first_name').nullish(),
    last_name: personName('last_name').nullish(),
    phone_number: phoneNumberSchema.nullish(),
    timezone: timezoneSchema.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to update' });
export type UpdatePersonalInfoRequest = z.input<typeof updatePersonalInfoRequestSchema>;

export const updatePreferredLanguageRequestSchema = z.strictObject({
  preferred_language: supportedLanguageSchema,
});

export const updateAmnesiaModeRequestSchema = z.strictObject({
  is_amnesia_mode_enabled: z.boolean(),
});

export const pushPlatformSchema = z.enum(['ios', 'android', 'web']);
export type PushPlatform = z.infer<typeof pushPlatformSchema>;

const pushTokenValue = singleLineText(
  'token',
  z.string().trim().min(1, 'token is required').max(4096, 'token is too long'),
);

/** docs/product.md §3 "Push token". */
export const pushTokenSchema = z.object({
  token: z.string(),
  platform: pushPlatformSchema,
  is_sandbox: z.boolean(),
  enabled: z.boolean(),
});
export type PushToken = z.infer<typeof pushTokenSchema>;

/**
 * A web token is the browser's PushSubscription as JSON; it is checked strictly and stored in one canonical
 * form (see `canonicalWebPushToken`). Native tokens are the platform's opaque strings.
 */
function canonicalToken<T extends { token: string; platform: PushPlatform }>(value: T, ctx: z.RefinementCtx) {
  if (value.platform !== 'web') return value;
  const token = canonicalWebPushToken(value.token);
  if (token) return { ...value, token };
  ctx.addIssue({
    code: 'custom',
    path: ['token'],
    message: 'A web token is a PushSubscription as JSON: an https endpoint and its p256dh and auth keys',
  });
  return z.NEVER;
}

export const registerPushTokenRequestSchema = z
  .strictObject({
    token: pushTokenValue,
    platform: pushPlatformSchema,
    is_sandbox: z.boolean().default(false),
  })
  .transform(canonicalToken);

export const pushTokenRefRequestSchema = z
  .strictObject({
    token: pushTokenValue,
    platform: pushPlatformSchema,
  })
  .transform(canonicalToken);

export const verifyPushTokenResponseSchema = z.object({ isValid: z.boolean() });

export const signupStatusSchema = z.object({ enabled: z.boolean() });
export const waitlistRequestSchema = z.strictObject({ email: emailSchema });
export const waitlistEntrySchema = z.object({ email: z.string(), created_at: z.string() });
