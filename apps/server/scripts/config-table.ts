/**
 * Renders the configuration table from the settings declared in src/platform/config.ts and writes it into
 * the README between its CONFIG markers (npm run docs:config). A test fails when the README is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderConfigTable, withConfigTable } from '../src/platform/config-table.js';
import { serverPath } from '../src/platform/paths.js';

const readme = serverPath('..', '..', 'README.md');
writeFileSync(readme, withConfigTable(readFileSync(readme, 'utf8'), renderConfigTable()));
console.log(`updated the configuration table in ${readme}`);
