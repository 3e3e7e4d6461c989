import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.js';
import { OPENAPI_FILE, renderOpenApi } from './openapi.js';

it('has a committed openapi.json that matches the routes (run `npm run openapi` after changing the API)', async () => {
  const committed = readFileSync(OPENAPI_FILE, 'utf8');
  expect(JSON.parse(committed)).toEqual(JSON.parse(await renderOpenApi(await createTestDatabase())));
});
