import { AppError } from '../../platform/errors.js';

export const userErrors = {
  notFound: () =>
    new AppError(
      404,
      'user.not_found',
      'No profile exists for this account yet; create it with POST /api/users',
      {
        generic: true,
      },
    ),
};
