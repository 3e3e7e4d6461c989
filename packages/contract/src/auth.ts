import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { emailSchema, phoneNumberSchema, singleLineText, supportedLanguageSchema } from './common.js';

export const passwordSchema = singleLineText(
  'Password',
  z
    .string({ message: 'Password is required' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
);

export const authUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  verificationExempt: z
    .boolean()
    .describe(
      'The address may use the app without verifying it (a test account in VERIFICATION_EXEMPT_EMAILS)',
    ),
});
export type AuthUser = z.infer<typeof authUserSchema>;

/**
 * The identity provider's session answer. It sits at the top level (like Firebase's REST answers) next to
 * `success`, so any OIDC-style client reads it unchanged.
 */
export const authSessionSchema = z.object({
  success: z.literal(true),
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number().int().describe('Seconds until idToken expires'),
  user: authUserSchema,
});
export type AuthSession = z.infer<typeof authSessionSchema>;

export const signUpRequestSchema = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  phone: phoneNumberSchema.optional(),
  preferred_language: supportedLanguageSchema
    .optional()
    .describe('Language of the mails; else Accept-Language'),
});
export type SignUpRequest = z.input<typeof signUpRequestSchema>;

export const signInRequestSchema = z.strictObject({
  email: emailSchema,
  password: singleLineText('Password', z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH)),
});
export type SignInRequest = z.input<typeof signInRequestSchema>;

export const refreshTokenRequestSchema = z.strictObject({
  refreshToken: singleLineText('refreshToken', z.string().min(1, 'refreshToken is required').max(512)),
});

export const verifyEmailRequestSchema = z.strictObject({
  code: singleLineText('code', z.string().min(1, 'code is required').max(256)),
});

export const forgotPasswordRequestSchema = z.strictObject({
  email: emailSchema,
});

/** Account → change password: the current one proves it is the owner, the new one follows the sign-up rules. */
export const changePasswordRequestSchema = z.strictObject({
  current_password: singleLineText(
    'Current password',
    z.string().min(1, 'Current password is required').max(PASSWORD_MAX_LENGTH),
  ),
  new_password: passwordSchema,
});

export const resetPasswordRequestSchema = z.strictObject({
  code: singleLineText('code', z.string().min(1, 'code is required').max(256)),
  password: passwordSchema,
});

export const emailVerificationStatusSchema = z.object({
  emailVerified: z.boolean(),
});

export const resendVerificationSchema = z.object({
  sent: z.literal(true),
  retryAfterSeconds: z.number().int().describe('Seconds until another mail may be requested'),
});

/** JWT claims every identity token carries. */
export const idTokenClaimsSchema = z.object({
  sub: z.string(),
  email: z.string(),
  email_verified: z.boolean(),
});
export type IdTokenClaims = z.infer<typeof idTokenClaimsSchema>;
