import { CAMERA_CONFIGURATION_ERRORS, MESSAGES } from '@homesitter/contract';
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
  networkNotAllowed: () =>
    new AppError(400, 'camera.network_not_allowed', CAMERA_CONFIGURATION_ERRORS.network_not_allowed),
  notStreamCamera: () =>
    new AppError(
      400,
      'camera.not_stream_camera',
      'This camera uploads its events; only RTSP and ONVIF cameras are configured',
    ),
  /** Configuration of a camera the desktop helper bridges happens in the helper, on the owner's computer. */
  configuredByHelper: () =>
    new AppError(
      409,
      'camera.not_stream_camera',
      'This camera is set up by the Homesitter helper on your computer; retry there.',
    ),
  /** A Nest camera's connection is its Google link: Settings → camera setup, Reconnect Google Nest. */
  managedByNest: () =>
    new AppError(
      409,
      'camera.not_stream_camera',
      'This is a Google Nest camera; it is set up through your linked Google account (Reconnect Google Nest).',
    ),
  siteNotFound: () =>
    new AppError(404, 'site.not_found', 'No property with this id on your account', { generic: true }),
};
