import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDisabledVisionEngine } from './adapters/vision/disabled.vision.js';
import { createServer } from './app.js';
import { createAdapters } from './bootstrap.js';
import { loadSigningKey } from './modules/auth/tokens.js';
import { loadConfig } from './platform/config.js';
import { createDatabase, type Database } from './platform/db/client.js';
import { createLogger } from './platform/logger.js';
import { serverPath } from './platform/paths.js';

export const OPENAPI_FILE = serverPath('openapi.json');

/**
 * The OpenAPI document as the routes describe it, rendered the way it is committed. A test passes a database
 * it opened faster than an empty one is created; it is closed here either way.
 */
export async function renderOpenApi(given?: Database): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hs-openapi-'));
  const database = given ?? (await createDatabase({}));
  // Nothing is pulled here: the database has no tables, only the routes are read.
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:8080',
    STREAMS_ENABLED: 'false',
  });
  const { app } = await createServer(
    await createAdapters(config, {
      log: createLogger('silent'),
      database,
      mailer: { kind: 'outbox', send: async () => {}, close: async () => {} },
      signingKey: await loadSigningKey(undefined, join(dataDir, 'key.pem')),
      adminToken: 'unused',
      vision: createDisabledVisionEngine(),
      webDistDir: undefined,
    }),
  );
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
