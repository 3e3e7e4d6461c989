import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for a server a test or bench starts in another process (which must be
 * told its port before it listens). Another process could take it in between; on loopback in a test run that
 * has not been seen.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
