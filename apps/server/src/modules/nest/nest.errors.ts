import { AppError } from '../../platform/errors.js';

export const nestErrors = {
  notConfigured: () =>
    new AppError(
      503,
      'nest.not_configured',
      'This server is not set up for Google Nest cameras (NEST_PROJECT_ID); see the operator guide.',
    ),
  notLinked: () => new AppError(404, 'nest.not_linked', 'No Google account is linked for Nest cameras.'),
};
