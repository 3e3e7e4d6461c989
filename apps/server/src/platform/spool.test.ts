import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeFilesOlderThan } from './spool.js';

describe('removeFilesOlderThan', () => {
  it('removes only the files written before the cutoff, and counts them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hs-spool-'));
    const old = new Date(Date.now() - 7_200_000);
    for (const name of ['a.part', 'b.part']) {
      writeFileSync(join(dir, name), 'x');
      utimesSync(join(dir, name), old, old);
    }
    writeFileSync(join(dir, 'fresh.part'), 'x');
    mkdirSync(join(dir, 'folder'));
    utimesSync(join(dir, 'folder'), old, old);

    expect(await removeFilesOlderThan(dir, Date.now() - 3_600_000)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['folder', 'fresh.part']);
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect(await removeFilesOlderThan(join(tmpdir(), 'hs-no-such-folder-0'), Date.now())).toBe(0);
  });
});
