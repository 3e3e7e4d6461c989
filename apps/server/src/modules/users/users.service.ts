import type {
  CreateUserRequest,
  NotificationPreferences,
  NotificationsStatus,
  SupportedLanguage,
  UserProfile,
} from '@homesitter/contract';
import type { EventBus } from '../../platform/events.js';
import type { AuthContext } from '../../platform/http/route.js';
import { userErrors } from './users.errors.js';
import type { UserPatch, UserRow, UsersRepository } from './users.repository.js';

export interface UsersServiceDeps {
  repo: UsersRepository;
  freeEvents: number;
  /**
   * Ends the identity behind a deleted account (auth): our provider's is removed, an external issuer's is
   * recorded as deleted, so no token of it can come back.
   */
  deleteIdentity: (auth: Pick<AuthContext, 'issuer' | 'subject'>) => Promise<void>;
  events: EventBus;
  now?: () => Date;
  /**
   * Runs before an account is deleted (billing cancels and refunds the subscription); a failure stops the
   * deletion with nothing deleted.
   */
  beforeDelete?: (userId: string) => Promise<void>;
}

/** docs/product.md §3: without stored preferences, both follow notifications_status. */
export function derivePreferences(row: Pick<UserRow, 'notificationPreferences' | 'notificationsStatus'>) {
  if (row.notificationPreferences) return row.notificationPreferences;
  const on = row.notificationsStatus !== 'ALL_DISABLED';
  return { push_enabled: on, sms_mms_enabled: on };
}

export function toProfile(row: UserRow): UserProfile {
  return {
    user_uuid: row.id,
    firebase_user_id: row.authSubject,
    firebase_email_address: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    phone_number: row.phoneNumber,
    created_at: row.createdAt.toISOString(),
    last_updated: row.updatedAt.toISOString(),
    stripe_data:
      row.stripeCustomerId || row.stripeSubscriptionId
        ? {
            customer_id: row.stripeCustomerId,
            subscription:
              row.stripeSubscriptionId && row.stripeSubscriptionStatus
                ? { id: row.stripeSubscriptionId, status: row.stripeSubscriptionStatus }
                : null,
          }
        : null,
    is_global_privacy_mode_enabled: row.isGlobalPrivacyModeEnabled,
    is_facial_recognition_enabled: row.isFacialRecognitionEnabled,
    is_amnesia_mode_enabled: row.isAmnesiaModeEnabled,
    notifications_status: row.notificationsStatus,
    notification_preferences: derivePreferences(row),
    timezone: row.timezone,
    preferred_language: row.preferredLanguage === 'de' ? 'de' : 'en',
    remaining_free_events: row.remainingFreeEvents,
  };
}

type CreateUserInput = { [K in keyof CreateUserRequest]?: CreateUserRequest[K] | null };

/** The user account's rules: profile, privacy switches and notification settings. */
export function createUsersService(deps: UsersServiceDeps) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  async function requireUser(subject: string): Promise<UserRow> {
    const row = await repo.findBySubject(subject);
    if (!row) throw userErrors.notFound();
    return row;
  }

  async function update(subject: string, patch: UserPatch): Promise<UserProfile> {
    const row = await repo.update(subject, patch);
    if (!row) throw userErrors.notFound();
    return toProfile(row);
  }

  return {
    /** Idempotent: a second call returns the existing profile unchanged. */
    async createProfile(
      auth: AuthContext,
      input: CreateUserInput,
    ): Promise<{ profile: UserProfile; created: boolean }> {
      const inserted = await repo.insert({
        authSubject: auth.subject,
        email: auth.email,
        firstName: input.first_name ?? null,
        lastName: input.last_name ?? null,
        phoneNumber: input.phone_number ?? null,
        timezone: input.timezone ?? null,
        preferredLanguage: input.preferred_language ?? 'en',
        isFacialRecognitionEnabled: true,
        remainingFreeEvents: deps.freeEvents,
      });
      if (inserted) return { profile: toProfile(inserted), created: true };
      return { profile: toProfile(await requireUser(auth.subject)), created: false };
    },

    async getProfile(subject: string): Promise<UserProfile> {
      return toProfile(await requireUser(subject));
    },

    async setGlobalPrivacyMode(subject: string, enabled: boolean): Promise<UserProfile> {
      const row = await repo.update(subject, { isGlobalPrivacyModeEnabled: enabled });
      if (!row) throw userErrors.notFound();
      // Stream cameras stop (or resume) pulling at once: private mode means nothing is watched.
      await deps.events.emit('user.privacy-changed', { userId: row.id, enabled });
      return toProfile(row);
    },

    async getSettings(subject: string) {
      const row = await requireUser(subject);
      return { is_facial_recognition_enabled: row.isFacialRecognitionEnabled };
    },

    /** Turning recognition on records the consent time (who: the caller; when: now). */
    async setFacialRecognition(subject: string, enabled: boolean) {
      const profile = await update(subject, {
        isFacialRecognitionEnabled: enabled,
        ...(enabled ? { facialRecognitionConsentAt: now() } : {}),
      });
      return { is_facial_recognition_enabled: profile.is_facial_recognition_enabled };
    },

    /** docs/product.md §4: off sets ALL_DISABLED and both preferences false; on sets ALL_ENABLED and both true. */
    setNotificationsStatus: (subject: string, status: NotificationsStatus) => {
      const on = status === 'ALL_ENABLED';
      return update(subject, {
        notificationsStatus: status,
        notificationPreferences: { push_enabled: on, sms_mms_enabled: on },
      });
    },

    /** Both channels off means notifications are off; any channel on means they are on. */
    setNotificationPreferences: (subject: string, prefs: NotificationPreferences) =>
      update(subject, {
        notificationPreferences: prefs,
        notificationsStatus: prefs.push_enabled || prefs.sms_mms_enabled ? 'ALL_ENABLED' : 'ALL_DISABLED',
      }),

    setPersonalInfo: (
      subject: string,
      info: {
        first_name?: string | null;
        last_name?: string | null;
        phone_number?: string | null;
        timezone?: string;
      },
    ) =>
      update(subject, {
        ...(info.first_name !== undefined ? { firstName: info.first_name || null } : {}),
        ...(info.last_name !== undefined ? { lastName: info.last_name || null } : {}),
        ...(info.phone_number !== undefined ? { phoneNumber: info.phone_number } : {}),
        ...(info.timezone !== undefined ? { timezone: info.timezone } : {}),
      }),

    async setPreferredLanguage(subject: string, language: SupportedLanguage): Promise<UserProfile> {
      const before = (await requireUser(subject)).preferredLanguage;
      const profile = await update(subject, { preferredLanguage: language });
      if (before !== language)
        await deps.events.emit('user.language-changed', { userId: profile.user_uuid, language });
      return profile;
    },

    setAmnesiaMode: (subject: string, enabled: boolean) => update(subject, { isAmnesiaModeEnabled: enabled }),

    /** The user id of a token's subject; the "no profile yet" 404 when there is none. */
    requireId: async (subject: string) => (await requireUser(subject)).id,

    /**
     * Deletes the profile (and with it every row the user owns), then the identity behind it; what must end
     * first (a paid subscription) ends in `beforeDelete`.
     */
    async deleteAccount(auth: AuthContext): Promise<void> {
      const existing = await repo.findBySubject(auth.subject);
      if (existing && deps.beforeDelete) await deps.beforeDelete(existing.id);
      const deleted = await repo.deleteBySubject(auth.subject);
      await deps.deleteIdentity(auth);
      if (deleted) await deps.events.emit('user.deleted', { userId: deleted.id, subject: auth.subject });
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
