import { expect } from 'vitest';
import { CameraConfigurationError } from './types.js';

/** The configuration error a promise rejects with (failing the test when it resolves or throws another). */
export async function configurationFailure(promise: Promise<unknown>): Promise<CameraConfigurationError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CameraConfigurationError);
  return err as CameraConfigurationError;
}
