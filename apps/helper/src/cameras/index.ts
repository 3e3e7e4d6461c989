// The front door of the helper's own camera work: reaching cameras, the camera test, ffmpeg's place.
export { createCameraAccess, type CameraAccess } from './camera-access.js';
export { cameraDetails, videoInfo } from './camera-details.js';
export { failureMessage, testCamera } from './camera-test.js';
export { findMediaTools, missingMediaTools, type MediaTools } from './media-tools.js';
