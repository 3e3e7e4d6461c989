/**
 * Stable error codes carried in `code` of the error envelope. The web app translates by code where the spec
 * names no fixed text; the server's error factories are the only producers.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'not_found',
  'route_not_found',
  'rate_limited',
  'internal',
  'auth.unauthenticated',
  'auth.invalid_credentials',
  'auth.email_taken',
  'auth.email_not_verified',
  'auth.signup_disabled',
  'auth.refresh_token_invalid',
  'auth.refresh_token_reused',
  'auth.code_invalid',
  'auth.resend_too_soon',
  'auth.already_verified',
  'user.not_found',
  'user.exists',
  'push_token.not_found',
  'admin.forbidden',
  'chat.image_not_allowed',
  'chat.reply_not_found',
  'realtime.token_invalid',
  'camera.name_required',
  'camera.name_taken',
  'camera.not_found',
  'camera.facial_recognition_disabled',
  'site.not_found',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
