import { describe, expect, it, vi } from 'vitest';
import { createFakeHelper, device, testResult } from '../../test/fakeHelper';
import { createHelperClient } from './helperClient';
import { checkHelper, jobErrorKey, testAdvice, unsupportedReason } from './helperProblems';

function setup() {
  const fake = createFakeHelper();
  return { fake, client: createHelperClient({ fetch: fake.fetch }) };
}

describe('why the helper cannot be used (docs/product.md §8 camera discovery problems)', () => {
  it('is ready when /status answers as the Homesitter helper', async () => {
    const { client } = setup();
    expect(await checkHelper(client)).toMatchObject({ ready: true, status: { version: '1.0.0' } });
  });

  it('is not running when nothing answers, even without CORS, and the server knows no helper', async () => {
    const { fake, client } = setup();
    fake.state.running = false;
    const serverSaysConnected = vi.fn(async () => false);
    expect(await checkHelper(client, { serverSaysConnected })).toEqual({
      ready: false,
      problem: { kind: 'not_running' },
    });
    expect(serverSaysConnected).toHaveBeenCalledOnce();
  });

  it('is blocked when the server says the helper is connected but the page cannot reach it (ad blocker)', async () => {
    const { fake, client } = setup();
    fake.state.running = false;
    expect(await checkHelper(client, { serverSaysConnected: async () => true })).toEqual({
      ready: false,
      problem: { kind: 'blocked', evidence: 'server' },
    });
  });

  it('is blocked when a no-cors request gets through while the readable one fails', async () => {
    const { fake, client } = setup();
    fake.state.corsBlocked = true;
    const serverSaysConnected = vi.fn(async () => false);
    expect(await checkHelper(client, { serverSaysConnected })).toEqual({
      ready: false,
      problem: { kind: 'blocked', evidence: 'no_cors' },
    });
    expect(serverSaysConnected).not.toHaveBeenCalled();
  });

  it('asks no server when none is given (the public camera test)', async () => {
    const { fake, client } = setup();
    fake.state.running = false;
    expect(await checkHelper(client)).toEqual({ ready: false, problem: { kind: 'not_running' } });
  });

  it('treats a failing server check as no helper connected', async () => {
    const { fake, client } = setup();
    fake.state.running = false;
    const check = await checkHelper(client, {
      serverSaysConnected: () => Promise.reject(new Error('offline')),
    });
    expect(check).toEqual({ ready: false, problem: { kind: 'not_running' } });
  });

  it('is outdated (plugin missing) when something else answers on the port', async () => {
    const { fake, client } = setup();
    fake.state.status = { app: 'something-else', version: '0.3' };
    expect(await checkHelper(client)).toEqual({
      ready: false,
      problem: { kind: 'outdated', version: '0.3' },
    });

    fake.state.status = { app: 'homesitter-helper', version: '0.1.0' };
    expect(await checkHelper(client)).toEqual({
      ready: false,
      problem: { kind: 'outdated', version: '0.1.0' },
    });

    fake.state.statusError = { status: 404, code: 'not_found' };
    expect(await checkHelper(client)).toEqual({ ready: false, problem: { kind: 'outdated', version: null } });
  });

  it('says when the helper refuses this page’s origin', async () => {
    const { fake, client } = setup();
    fake.state.statusError = { status: 403, code: 'helper.origin_not_allowed' };
    expect(await checkHelper(client)).toEqual({ ready: false, problem: { kind: 'origin_not_allowed' } });
  });
});

describe('per camera', () => {
  it('explains an unsupported device by its code, else by the helper’s sentence', () => {
    expect(
      unsupportedReason(
        device({ address: '192.168.1.9', supported: false, unsupported_code: 'not_a_camera' }),
      ),
    ).toEqual({ key: 'device.unsupported.not_a_camera' });
    expect(
      unsupportedReason(
        device({ address: '192.168.1.9', supported: false, unsupported_reason: 'A printer' }),
      ),
    ).toEqual({ text: 'A printer' });
  });

  it('turns a test verdict into the one thing to change', () => {
    expect(testAdvice(testResult())).toBe('works');
    expect(testAdvice(testResult({ verdict: 'unsupported', error_code: 'no_supported_stream' }))).toBe(
      'h264',
    );
    expect(testAdvice(testResult({ verdict: 'failed', error_code: 'wrong_credentials' }))).toBe(
      'wrong_credentials',
    );
    expect(testAdvice(testResult({ verdict: 'failed', error_code: 'unreachable' }))).toBe('unreachable');
    expect(testAdvice(testResult({ verdict: 'failed', error_code: 'timed_out' }))).toBe('timed_out');
    expect(testAdvice(testResult({ verdict: 'failed', error_code: null }))).toBe('failed');
  });

  it('translates job failures it knows, the helper’s sentence otherwise', () => {
    expect(jobErrorKey({ error_code: 'wrong_credentials' })).toBe('jobErrors.wrong_credentials');
    expect(jobErrorKey({ error_code: 'name_taken' })).toBe('jobErrors.name_taken');
    expect(jobErrorKey({ error_code: null })).toBeNull();
  });
});
