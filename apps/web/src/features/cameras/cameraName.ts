import { CAMERA_NAME_MAX, MESSAGES } from '@homesitter/contract/runtime';

export type CameraNameProblem = 'required' | 'taken' | 'tooLong' | null;

/** docs/product.md §5, checked as the user types: required, at most 100 characters, unique ignoring case. */
export function cameraNameProblem(
  name: string,
  existing: readonly string[],
  current?: string,
): CameraNameProblem {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  if (trimmed.length > CAMERA_NAME_MAX) return 'tooLong';
  const lower = trimmed.toLowerCase();
  if (existing.some((n) => n.toLowerCase() === lower && n.toLowerCase() !== current?.toLowerCase())) {
    return 'taken';
  }
  return null;
}

/** The server's answers for the same rules, mapped onto the inline problems. */
export function problemFromServer(message: string): CameraNameProblem {
  if (message === MESSAGES.cameraNameRequired) return 'required';
  if (message === MESSAGES.cameraNameTaken) return 'taken';
  return null;
}
