import type { AuthSession } from '@homesitter/contract';

function b64(value: unknown) {
  return btoa(JSON.stringify(value)).replace(/=+$/, '');
}

/** A sign-in answer with an unsigned token that expires in an hour. */
export function fakeAuthSession(emailVerified: boolean, email = 'sam@example.com'): AuthSession {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return {
    success: true,
    idToken: `${b64({ alg: 'none' })}.${b64({ sub: 'u1', email, email_verified: emailVerified, exp })}.sig`,
    refreshToken: 'refresh-1',
    expiresIn: 3600,
    user: { uid: 'u1', email, emailVerified, verificationExempt: false },
  };
}

export const profileFixture = {
  user_uuid: 'u1',
  firebase_user_id: 'u1',
  firebase_email_address: 'sam@example.com',
  first_name: 'Sam',
  last_name: null,
  phone_number: null,
  created_at: '2025-01-01T00:00:00Z',
  last_updated: '2025-01-01T00:00:00Z',
  stripe_data: null,
  is_global_privacy_mode_enabled: false,
  is_facial_recognition_enabled: true,
  is_amnesia_mode_enabled: false,
  notifications_status: 'ALL_ENABLED' as const,
  notification_preferences: { push_enabled: true, sms_mms_enabled: true },
  timezone: 'Europe/Berlin',
  preferred_language: 'en' as const,
  remaining_free_events: 100,
};
