import { AppError } from '../../platform/errors.js';

export const helperErrors = {
  buildName: () =>
    new AppError(
      400,
      'validation_failed',
      'Not a helper build: the files are named homesitter-helper-<os>-<arch>, with .exe for Windows',
    ),
  buildNotFound: () =>
    new AppError(404, 'not_found', 'This server has no helper build of that name', { generic: true }),
  buildUnavailable: (reason: string) =>
    new AppError(
      503,
      'server.unavailable',
      `The helper download could not be built on this server: ${reason}`,
    ),
};
