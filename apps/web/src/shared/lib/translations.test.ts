import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import deCameras from '../../../public/locales/de/cameras.json';
import deChat from '../../../public/locales/de/chat.json';
import deHighlights from '../../../public/locales/de/highlights.json';
import deLegal from '../../../public/locales/de/legal.json';
import de from '../../../public/locales/de/translation.json';
import enCameras from '../../../public/locales/en/cameras.json';
import enChat from '../../../public/locales/en/chat.json';
import enHighlights from '../../../public/locales/en/highlights.json';
import enLegal from '../../../public/locales/en/legal.json';
import en from '../../../public/locales/en/translation.json';

function keysOf(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keysOf(v, `${prefix}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'test' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function has(resource: unknown, key: string): boolean {
  let node: unknown = resource;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return node !== undefined;
}

describe('translations', () => {
  it('English and German have exactly the same keys', () => {
    expect(keysOf(de).sort()).toEqual(keysOf(en).sort());
    expect(keysOf(deLegal).sort()).toEqual(keysOf(enLegal).sort());
    expect(keysOf(deCameras).sort()).toEqual(keysOf(enCameras).sort());
  });

  it('no text is empty', () => {
    for (const resource of [en, de, enLegal, deLegal, enCameras, deCameras]) {
      const empty = keysOf(resource).filter((k) => {
        const value = k
          .split(/\.|\[|\]/)
          .filter(Boolean)
          .reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], resource);
        return typeof value === 'string' && value.trim() === '';
      });
      expect(empty).toEqual([]);
    }
  });

  it('every key the code uses exists', () => {
    const namespaces = new Set(Object.keys(en));
    const root = path.resolve(__dirname, '../..');
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      const code = readFileSync(file, 'utf8');
      for (const [, key] of code.matchAll(/['"`]([a-z][A-Za-z]+(?:\.[A-Za-z]+)+)['"`]/g)) {
        if (!key || !namespaces.has(key.split('.')[0]!)) continue;
        // A count picks `key_one` / `key_other` (i18next plurals).
        if (!has(en, key) && !has(en, `${key}_other`)) missing.push(`${path.relative(root, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('English error texts are the docs/product.md §8 messages word for word, and German has them all', () => {
    expect(en.errors).toEqual(MESSAGES);
    expect(Object.keys(de.errors).sort()).toEqual(Object.keys(MESSAGES).sort());
  });

  it('the camera name texts match §5 word for word', () => {
    expect(enCameras.nameErrors.required).toBe(MESSAGES.cameraNameRequired);
    expect(enCameras.nameErrors.taken).toBe(MESSAGES.cameraNameTaken);
  });

  it('every key the cameras screens use exists in the cameras namespace', () => {
    const root = path.resolve(__dirname, '../../features/cameras');
    const missing: string[] = [];
    for (const file of sourceFiles(root)) {
      const code = readFileSync(file, 'utf8');
      for (const [, key] of code.matchAll(/\bt\(['"`]([a-z][A-Za-z]+(?:\.[A-Za-z]+)*)['"`]/g)) {
        if (key && !has(enCameras, key) && !has(enCameras, `${key}_one`))
          missing.push(`${path.basename(file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the terms texts match §5', () => {
    expect(en.auth.agreeToTerms).toBe(MESSAGES.agreeToTerms);
    expect(en.auth.acceptTermsError).toBe(MESSAGES.acceptTerms);
  });
});

describe('chat and highlights namespaces', () => {
  const pairs = { chat: [enChat, deChat], highlights: [enHighlights, deHighlights] } as const;

  it.each(Object.entries(pairs))('%s: English and German have the same keys, none empty', (_ns, [en, de]) => {
    expect(keysOf(de).sort()).toEqual(keysOf(en).sort());
    for (const resource of [en, de])
      for (const key of keysOf(resource)) expect(has(resource, key) && String(key).length > 0).toBe(true);
  });

  it('every chat and highlights key the code uses exists', () => {
    const root = path.resolve(__dirname, '../../features');
    const missing: string[] = [];
    for (const [ns, [en]] of Object.entries(pairs)) {
      for (const file of sourceFiles(path.join(root, ns))) {
        const code = readFileSync(file, 'utf8');
        if (!code.includes(`useTranslation('${ns}')`)) continue;
        for (const [, key] of code.matchAll(/\bt\(\s*'([a-z][A-Za-z.]+)'/g)) {
          if (key && !has(en, key) && !has(en, `${key}_one`)) missing.push(`${ns}: ${key}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('uses the docs/product.md §8 texts word for word in English', () => {
    expect(enChat.message.failed).toBe(MESSAGES.sendMessageFailed);
    expect(enChat.older.failed).toBe(MESSAGES.loadOlderMessagesFailed);
    expect(enChat.connection.refresh).toBe(MESSAGES.refreshPageToReconnect);
    expect(enHighlights.error).toBe(MESSAGES.fetchActivitySummaryFailed);
  });
});
