import { AppError } from '../../platform/errors.js';
import { MESSAGES } from '@homesitter/contract/runtime';

export const authErrors = {
  invalidCredentials: () => new AppError(401, 'auth.invalid_credentials', 'Authentication failed'),
  currentPasswordWrong: () => new AppError(400, 'auth.current_password_wrong', MESSAGES.currentPasswordWrong),
  passwordNotOurs: () => new AppError(400, 'auth.password_elsewhere', MESSAGES.passwordManagedElsewhere),
  emailTaken: () =>
    new AppError(409, 'auth.email_taken', 'An account with this email already exists. Sign in instead.'),
  signupDisabled: () =>
    new AppError(
      403,
      'auth.signup_disabled',
      'Sign-up is closed for now because of high demand. Join the waitlist and we will email you.',
    ),
  refreshTokenInvalid: () =>
    new AppError(401, 'auth.refresh_token_invalid', 'Your session has expired. Please sign in again.'),
  refreshTokenReused: () =>
    new AppError(
      401,
      'auth.refresh_token_reused',
      'This session was signed out for your safety. Please sign in again.',
    ),
  verificationCodeInvalid: () =>
    new AppError(
      400,
      'auth.code_invalid',
      'This verification link is invalid or has expired. Request a new one.',
      {
        generic: true,
      },
    ),
  resetCodeInvalid: () =>
    new AppError(400, 'auth.code_invalid', 'This reset link is invalid or has expired. Request a new one.', {
      generic: true,
    }),
  resendTooSoon: (seconds: number) =>
    new AppError(
      429,
      'auth.resend_too_soon',
      `Please wait ${seconds} seconds before requesting another email.`,
      {
        retryAfterSeconds: seconds,
      },
    ),
  alreadyVerified: () => new AppError(409, 'auth.already_verified', 'Your email address is already verified'),
  /** `POST /api/auth/device-session` with an ID token older than `DEVICE_SESSION_MAX_TOKEN_AGE_S`. */
  deviceSessionTokenTooOld: (maxMinutes: number) =>
    new AppError(
      401,
      'auth.unauthenticated',
      `Sign in again to link this device: the sign-in must be at most ${maxMinutes} minutes old.`,
    ),
  /** Tokens of an external issuer (AUTH_JWKS_URL) have no session of ours to copy. */
  deviceSessionExternal: () =>
    new AppError(
      401,
      'auth.unauthenticated',
      "Device sessions are for accounts that sign in with this server's own email and password.",
    ),
  noIdentity: () =>
    new AppError(404, 'not_found', 'This account does not use email and password sign-in', { generic: true }),
};
