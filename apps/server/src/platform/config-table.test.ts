import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderConfigTable, withConfigTable } from './config-table.js';
import { serverPath } from './paths.js';

it('has every setting in the README configuration table (run `npm run docs:config` after adding one)', () => {
  const readme = readFileSync(serverPath('..', '..', 'README.md'), 'utf8');
  expect(readme).toBe(withConfigTable(readme, renderConfigTable()));
});
