import { CAMERA_NAME_MAX } from '@homesitter/contract';

/** The camera of an upload that names none. */
export const DEFAULT_CAMERA_NAME = 'Camera';

/**
 * A camera name as an upload gives it (FTP folder, mail sender, form field) into the name cameras are
 * stored under: control characters dropped, whitespace collapsed and trimmed, at most CAMERA_NAME_MAX
 * characters (cut at a character, not inside a surrogate pair); nothing left → "Camera". The one camera-name
 * rule of uploads: the ingest applies it when it stores an upload, the processing again (it changes nothing
 * on a name it made) before it finds or registers the camera.
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
