import { CAMERA_NAME_MAX } from '@homesitter/contract';

/** The camera of an upload that names none. */
export const DEFAULT_CAMERA_NAME = 'Camera';

/**
 * A camera name as an upload gives it (FTP folder, mail sender, form field) into the name cameras are
 * stored under: control characters dropped, whitespace collapsed and trimmed, at most CAMERA_NAME_MAX
 * characters (cut at a character, not inside a surrogate pair); nothing left → "Camera".
 */
export function normalizeCameraName(raw: string | undefined | null): string {
  const cleaned = (raw ?? '')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return Array.from(cleaned).slice(0, CAMERA_NAME_MAX).join('').trim() || DEFAULT_CAMERA_NAME;
}

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
