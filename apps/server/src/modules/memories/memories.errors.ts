import { AppError } from '../../platform/errors.js';

export const memoryErrors = {
  notFound: () => new AppError(404, 'memory.not_found', 'No such memory', { generic: true }),
  imageNotFound: () =>
    new AppError(404, 'memory.image_not_found', 'No such image on this memory', { generic: true }),
  /** Bad input: the call's §8 text, the reason in `details`. */
  invalid: (message: string) => new AppError(400, 'memory.invalid', message, { generic: true }),
  photoLimit: (limit: number) =>
    new AppError(
      400,
      'memory.photo_limit',
      `A memory holds at most ${limit} photos; delete one to add another`,
    ),
  imageType: () =>
    new AppError(
      400,
      'memory.image_type',
      'This file is not a supported image; send a JPEG, PNG, WebP or HEIC photo',
    ),
  imageUnreadable: () =>
    new AppError(400, 'memory.image_unreadable', 'The image could not be read; it may be damaged'),
  imageTooLarge: (maxBytes: number) =>
    new AppError(
      413,
      'memory.image_too_large',
      `The image is too large; photos are at most ${Math.floor(maxBytes / (1024 * 1024))} MB`,
    ),
  imageMissing: () =>
    new AppError(400, 'memory.image_missing', 'Send the photo as multipart/form-data in the field "image"'),
};
