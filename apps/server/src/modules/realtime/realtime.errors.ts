import { AppError } from '../../platform/errors.js';

export const realtimeErrors = {
  tokenInvalid: () =>
    new AppError(
      401,
      'realtime.token_invalid',
      'The realtime access token is missing, expired or not yours; negotiate again',
    ),
};
