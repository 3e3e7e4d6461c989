import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CAMERA_CONFIGURATION_STATUSES } from '@homesitter/contract/runtime';
import { describe, expect, it } from 'vitest';
import de from '../../../public/locales/de/discovery.json';
import en from '../../../public/locales/en/discovery.json';
import { STEPS } from './flow';
import type { HelperProblem, TestAdvice } from './helperProblems';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`),
  );
}

function has(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.trim().length > 0;
}

const hasKey = (key: string) => has(en, key) || has(en, `${key}_one`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe('discovery translations', () => {
  it('English and German have the same keys, none empty', () => {
    expect(keysOf(de).sort()).toEqual(keysOf(en).sort());
    for (const tree of [en, de]) for (const key of keysOf(tree)) expect(has(tree, key)).toBe(true);
  });

  it('every key the discovery screens name exists', () => {
    const sections = new Set(Object.keys(en));
    const missing: string[] = [];
    for (const file of sourceFiles(__dirname)) {
      // The helper client holds the helper's own error codes (`helper.not_signed_in`), not text keys.
      if (file.endsWith('helperClient.ts')) continue;
      const code = readFileSync(file, 'utf8');
      for (const [, key] of code.matchAll(/['"`]([a-z][A-Za-z_]*(?:\.[A-Za-z_]+)+)['"`]/g)) {
        if (key && sections.has(key.split('.')[0]!) && !hasKey(key))
          missing.push(`${path.relative(__dirname, file)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has a text for every step, problem, job status, verdict and piece of advice', () => {
    const problems: HelperProblem['kind'][] = [
      'not_running',
      'blocked',
      'outdated',
      'origin_not_allowed',
      'stopped',
    ];
    const advice: TestAdvice[] = [
      'works',
      'h264',
      'wrong_credentials',
      'unreachable',
      'timed_out',
      'invalid_response',
      'network_not_allowed',
      'failed',
    ];
    const keys = [
      ...STEPS.map((s) => `steps.${s}`),
      ...problems.map((p) => `problems.${p}.title`),
      ...[...CAMERA_CONFIGURATION_STATUSES, 'lost'].map((s) => `progress.status.${s}`),
      ...['works', 'unsupported', 'failed'].map((v) => `test.verdicts.${v}`),
      ...advice.map((a) => `test.advice.${a}`),
      ...['onvif', 'frames'].map((m) => `test.motionSources.${m}`),
      ...['not_a_camera', 'no_video_service', 'unknown'].map((c) => `device.unsupported.${c}`),
      ...['scan', 'login', 'summary', 'progress'].map((s) => `welcome.what.${s}`),
      ...['power', 'network', 'onvif', 'vpn', 'guest'].map((tip) => `scan.empty.tips.${tip}`),
      ...[
        'unreachable',
        'wrong_credentials',
        'no_supported_stream',
        'timed_out',
        'network_not_allowed',
        'invalid_response',
        'name_taken',
        'server_error',
        'unknown',
      ].map((c) => `jobErrors.${c}`),
      'problems.blocked.textServer',
      'problems.blocked.textNoCors',
      'problems.blocked.safari',
      'problems.blocked.safariHttps',
    ];
    expect(keys.filter((k) => !hasKey(k))).toEqual([]);
  });
});
