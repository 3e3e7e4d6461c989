import { AppError } from '../../platform/errors.js';

export const siteErrors = {
  notFound: () =>
    new AppError(404, 'site.not_found', 'No property with this id on your account', { generic: true }),
};
