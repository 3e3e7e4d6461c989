import { AppError } from '../../platform/errors.js';

export const chatErrors = {
  videoNotAllowed: (url: string) =>
    new AppError(
      400,
      'chat.video_not_allowed',
      `Only your own saved clips can be attached; this video is not one: ${url.slice(0, 100)}`,
      { generic: true },
    ),
  imageNotAllowed: (url: string) =>
    new AppError(
      400,
      'chat.image_not_allowed',
      `Only your own saved media can be attached; this image is not one: ${url.slice(0, 100)}`,
      { generic: true },
    ),
  userNotFound: () => new AppError(404, 'not_found', 'No user has this email address'),
  replyNotFound: () =>
    new AppError(404, 'chat.reply_not_found', 'The message you are replying to does not exist', {
      generic: true,
    }),
};
