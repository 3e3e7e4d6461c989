import { MESSAGES } from '@homesitter/contract';
import { AppError } from '../../platform/errors.js';

export const cameraErrors = {
  nameRequired: () => new AppError(400, 'camera.name_required', MESSAGES.cameraNameRequired),
  nameTaken: () => new AppError(409, 'camera.name_taken', MESSAGES.cameraNameTaken),
  notFound: () =>
    new AppError(404, 'camera.not_found', 'No camera with this name on your account', { generic: true }),
  facialRecognitionOff: () =>
    new AppError(
      400,
      'camera.facial_recognition_disabled',
      'Turn on facial recognition in your settings before enabling it for a camera',
    ),
  siteNotFound: () =>
    new AppError(404, 'site.not_found', 'No property with this id on your account', { generic: true }),
};
