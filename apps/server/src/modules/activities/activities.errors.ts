import { AppError } from '../../platform/errors.js';

export const activityErrors = {
  notFound: () =>
    new AppError(404, 'activity.not_found', 'No activity with this id on your account', { generic: true }),
};
