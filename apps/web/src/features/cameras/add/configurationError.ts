import type { Camera } from '@homesitter/contract';
import { CAMERA_CONFIGURATION_ERRORS } from '@homesitter/contract/runtime';
import type { TFunction } from 'i18next';

const codes = new Set<string>(Object.keys(CAMERA_CONFIGURATION_ERRORS));

/**
 * Why configuration failed, in the user's language: by its code where the catalogue knows it (English is
 * the server's sentence word for word), else the server's own sentence.
 */
export function configurationErrorText(
  t: TFunction<'cameras'>,
  camera: Pick<Camera, 'configuration_error' | 'configuration_error_code'>,
): string {
  const code = camera.configuration_error_code;
  if (code && codes.has(code)) return t(`configErrors.${code}`);
  return camera.configuration_error ?? t('configErrors.unknown');
}
