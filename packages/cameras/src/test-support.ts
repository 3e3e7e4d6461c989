import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
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

/** A port on 127.0.0.1 where nothing listens (taken, then given back). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
