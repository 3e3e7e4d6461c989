import type { Camera } from '@homesitter/contract';
import { useProfile } from '../user/profile';

/** Private mode for this camera: the account's (global) or its own; either way nothing of it is kept. */
export function useIsPrivate(camera: Pick<Camera, 'settings'>): boolean {
  const global = useProfile().data?.is_global_privacy_mode_enabled ?? false;
  return global || camera.settings.is_private_mode_enabled;
}
