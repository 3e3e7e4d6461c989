import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadConfig, type HelperConfig } from '../../src/config.js';
import { startHelper, type RunningHelper, type StartHelperOptions } from '../../src/helper.js';
import type { FakeServer } from './fake-server.js';

/** A fresh config folder; `remove` deletes it. */
export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'homesitter-helper-test-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The helper's settings for a test: port 0, a temp config folder, quiet unless HELPER_TEST_LOG is set. */
export function testConfig(configDir: string, env: NodeJS.ProcessEnv = {}): HelperConfig {
  return loadConfig({
    HELPER_PORT: '0',
    HELPER_CONFIG_DIR: configDir,
    LOG_LEVEL: process.env.HELPER_TEST_LOG ?? 'silent',
    ...env,
  });
}

export function startTestHelper(
  configDir: string,
  env: NodeJS.ProcessEnv,
  options: Omit<StartHelperOptions, 'config'> = {},
): Promise<RunningHelper> {
  return startHelper({ config: testConfig(configDir, env), ...options });
}

/**
 * Resolves with the first truthy value of `check`, looked at every 25 ms: tests wait for what happens,
 * never for a fixed time. The timeout is only a safety net.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 90_000,
): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Signs the helper in the way the browser does: the app sends it to /callback with a fresh ID token. */
export async function signIn(helper: RunningHelper, fake: FakeServer): Promise<void> {
  const token = `browser.${Math.random().toString(36).slice(2)}.signature`;
  fake.browserTokens.add(token);
  const res = await fetch(await callbackUrl(helper, token), { redirect: 'manual' });
  expect(res.status).toBe(302);
}

/** What the app's sign-in page sends the browser to: the started sign-in's callback with the token added. */
export async function callbackUrl(helper: RunningHelper, token: string): Promise<string> {
  const res = await fetch(`${helper.url}/sign-in`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const callback = new URL(new URL(res.headers.get('location')!).searchParams.get('redirect')!);
  callback.searchParams.set('token', token);
  return callback.toString();
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
