import { DEFAULT_CAMERA_NAME, normalizeCameraName } from '../cameras/cameras.module.js';

/**
 * The camera an FTP upload belongs to, from its path inside the user's root: the first folder
 * (`/Front Door/2026/11/20/x.jpg` → "Front Door"); for a file at the root, its name's prefix before the first
 * `_` or `-` (`Garage_20261120.jpg` → "Garage"), else "Camera".
 */
export function cameraNameFromFtpPath(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length > 1) return normalizeCameraName(segments[0]);
  const file = segments[0] ?? '';
  const cut = file.search(/[_-]/);
  return cut > 0 ? normalizeCameraName(file.slice(0, cut)) : DEFAULT_CAMERA_NAME;
}
