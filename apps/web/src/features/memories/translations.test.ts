import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import de from '../../../public/locales/de/memories.json';
import en from '../../../public/locales/en/memories.json';
import { expirationFromInput } from './expiry';
import { inBatchesOf } from './MemoriesPrefetch';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`),
  );
}

function has(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.length > 0;
}

describe('memories translations', () => {
  it('English and German have the same keys, none empty', () => {
    expect(keysOf(de).sort()).toEqual(keysOf(en).sort());
    for (const tree of [en, de]) for (const key of keysOf(tree)) expect(has(tree, key)).toBe(true);
  });

  it('every key the memories screens use exists (templated keys for each category)', () => {
    const dir = path.resolve(__dirname);
    const missing: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.tsx'))) {
      const code = readFileSync(path.join(dir, file), 'utf8');
      for (const [, key] of code.matchAll(/\bt\(\s*'([a-z][A-Za-z.]+)'/g))
        if (key && !has(en, key) && !has(en, `${key}_one`)) missing.push(`${file}: ${key}`);
      for (const [, prefix] of code.matchAll(/\bt\(\s*`([a-zA-Z.]+)\.\$\{(?:category|c)\}`/g))
        for (const c of ['people', 'vehicles', 'animals', 'other'])
          if (prefix && !has(en, `${prefix}.${c}`)) missing.push(`${file}: ${prefix}.${c}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('memory expiry input', () => {
  it('turns a local date-time into the API wall clock with AM/PM', () => {
    expect(expirationFromInput('2030-06-15T17:30')).toEqual({
      date: '2030-06-15',
      hour: 5,
      minute: 30,
      period: 'PM',
    });
    expect(expirationFromInput('2030-06-15T00:05')).toEqual({
      date: '2030-06-15',
      hour: 12,
      minute: 5,
      period: 'AM',
    });
    expect(expirationFromInput('2030-06-15T12:00')).toEqual({
      date: '2030-06-15',
      hour: 12,
      minute: 0,
      period: 'PM',
    });
    expect(expirationFromInput('')).toBeNull();
  });
});

describe('image prefetch', () => {
  it('runs at most the given number at a time and visits every item', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await inBatchesOf([1, 2, 3, 4, 5, 6, 7, 8, 9], 4, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      seen.push(n);
      running -= 1;
    });
    expect(peak).toBe(4);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
