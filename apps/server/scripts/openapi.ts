/** Writes apps/server/openapi.json from the routes (npm run openapi). */
import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from '../src/openapi.js';

writeFileSync(OPENAPI_FILE, await renderOpenApi());
console.log(`wrote ${OPENAPI_FILE}`);
