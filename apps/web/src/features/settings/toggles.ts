import { MESSAGES } from '@homesitter/contract/runtime';
import type { UserProfile } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/lib/api';
import { errorText } from '../../shared/lib/errors';
import { profileKey } from '../user/profile';
import { useProfileToggle } from './useProfileToggle';

/** Private mode; its failure toasts are "Failed to enable private mode" / "Failed to leave private mode". */
export function usePrivateModeToggle() {
  const { t } = useTranslation();
  return useProfileToggle<boolean>({
    save: async (on) =>
      (await api.call('updateGlobalPrivacyMode', { body: { is_global_privacy_mode_enabled: on } })).data,
    apply: (p, on) => ({ ...p, is_global_privacy_mode_enabled: on }),
    successText: (on) => t(on ? 'toasts.privateModeEnabled' : 'toasts.privateModeDisabled'),
    failureText: (on) => t(on ? 'toasts.privateModeEnableFailed' : 'toasts.privateModeLeaveFailed'),
  });
}

export function useAmnesiaModeToggle() {
  const { t } = useTranslation();
  return useProfileToggle<boolean>({
    save: async (on) => (await api.call('updateAmnesiaMode', { body: { is_amnesia_mode_enabled: on } })).data,
    apply: (p, on) => ({ ...p, is_amnesia_mode_enabled: on }),
    successText: (on) => t(on ? 'toasts.amnesiaModeEnabled' : 'toasts.amnesiaModeDisabled'),
    failureText: (_on, error) => errorText(t, error, MESSAGES.updateAmnesiaModeFailed),
  });
}

/** Facial recognition lives in the settings call; the answer is merged into the cached profile. */
export function useFacialRecognitionToggle() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useProfileToggle<boolean>({
    save: async (on) => {
      const answer = await api.call('updateUserSettings', { body: { is_facial_recognition_enabled: on } });
      const current = queryClient.getQueryData<UserProfile>(profileKey);
      if (!current) throw new Error(MESSAGES.updateFacialRecognitionFailed);
      return { ...current, ...answer.data };
    },
    apply: (p, on) => ({ ...p, is_facial_recognition_enabled: on }),
    successText: (on) => t(on ? 'toasts.facialRecognitionEnabled' : 'toasts.facialRecognitionDisabled'),
    failureText: (_on, error) => errorText(t, error, MESSAGES.updateFacialRecognitionFailed),
  });
}

/** All notifications: on sets ALL_ENABLED and both channels true; off sets ALL_DISABLED and both false. */
export function useNotificationsToggle() {
  const { t } = useTranslation();
  return useProfileToggle<boolean>({
    save: async (on) =>
      (
        await api.call('updateNotifications', {
          body: { notifications_status: on ? 'ALL_ENABLED' : 'ALL_DISABLED' },
        })
      ).data,
    apply: (p, on) => ({
      ...p,
      notifications_status: on ? 'ALL_ENABLED' : 'ALL_DISABLED',
      notification_preferences: { push_enabled: on, sms_mms_enabled: on },
    }),
    successText: (on) => t(on ? 'toasts.notificationsEnabled' : 'toasts.notificationsDisabled'),
    failureText: (_on, error) => errorText(t, error, MESSAGES.updateNotificationsFailed),
  });
}

export type Channel = 'push_enabled' | 'sms_mms_enabled';

interface ChannelChange {
  channel: Channel;
  on: boolean;
  preferences: UserProfile['notification_preferences'];
}

/** Push or SMS/MMS alone; the other channel keeps its current value. */
export function useChannelToggle() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const mutation = useProfileToggle<ChannelChange>({
    save: async ({ preferences }) =>
      (await api.call('updateNotificationPreferences', { body: { notification_preferences: preferences } }))
        .data,
    apply: (p, { preferences }) => ({ ...p, notification_preferences: preferences }),
    successText: ({ channel, on }) => {
      if (channel === 'push_enabled') return t(on ? 'toasts.pushEnabled' : 'toasts.pushDisabled');
      return t(on ? 'toasts.smsEnabled' : 'toasts.smsDisabled');
    },
    failureText: (_v, error) => errorText(t, error, MESSAGES.updateNotificationPreferencesFailed),
  });
  function toggle(channel: Channel, on: boolean) {
    const current = queryClient.getQueryData<UserProfile>(profileKey)?.notification_preferences;
    const preferences = {
      push_enabled: current?.push_enabled ?? true,
      sms_mms_enabled: current?.sms_mms_enabled ?? true,
      [channel]: on,
    };
    mutation.mutate({ channel, on, preferences });
  }
  return { toggle, isPending: mutation.isPending };
}
