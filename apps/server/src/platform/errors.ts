import type { ErrorCode } from '@homesitter/contract';

export interface AppErrorOptions {
  /**
   * The message is the reason, not the text users see: on a route with a docs/product.md §8 failure text, that text
   * is shown and this message goes into `details`.
   */
  generic?: boolean;
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** An expected failure with a stable code; the error handler renders it as the envelope. */
export class AppError extends Error {
  readonly generic: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.generic = options.generic ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const commonErrors = {
  unauthenticated: (reason = 'Sign in to continue') => new AppError(401, 'auth.unauthenticated', reason),
  emailNotVerified: () =>
    new AppError(403, 'auth.email_not_verified', 'Verify your email address to continue'),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limited', `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, {
      retryAfterSeconds,
    }),
  notFound: (what: string) => new AppError(404, 'not_found', `${what} not found`, { generic: true }),
};
