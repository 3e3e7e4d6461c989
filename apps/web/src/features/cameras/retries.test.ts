import { MESSAGES, RETRY_ATTEMPTS, RETRY_DELAY_MS } from '@homesitter/contract/runtime';
import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../shared/lib/http';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A client whose server always answers `status`, counting the calls and the waits between them. */
function clientAnswering(status: number, message = 'nope') {
  const fetch = vi.fn<typeof globalThis.fetch>(async () =>
    json(status, { success: false, message, code: 'x' }),
  );
  const sleep = vi.fn(async () => undefined);
  const client = createHttpClient({ fetch, sleep, getToken: async () => 't', onUnauthorized: vi.fn() });
  return { client, fetch, sleep };
}

const siteUuid = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('camera and site calls (docs/product.md §8 retries)', () => {
  it('do not retry a camera rename answered with a 4xx', async () => {
    const { client, fetch, sleep } = clientAnswering(409, MESSAGES.cameraNameTaken);
    await expect(
      client.call('renameCamera', { body: { current_name: 'A', new_name: 'B' } }),
    ).rejects.toMatchObject({ status: 409, message: MESSAGES.cameraNameTaken });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('do not retry a site delete answered with a 4xx', async () => {
    const { client, fetch } = clientAnswering(404);
    await expect(client.call('deleteSite', { params: { siteUuid } })).rejects.toMatchObject({ status: 404 });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]?.[0]).toBe(`/api/users/sites/${siteUuid}`);
  });

  it('retry rename and site delete on a 5xx: 3 attempts, 2 s apart', async () => {
    for (const call of [
      (c: ReturnType<typeof clientAnswering>['client']) =>
        c.call('renameCamera', { body: { current_name: 'A', new_name: 'B' } }),
      (c: ReturnType<typeof clientAnswering>['client']) => c.call('deleteSite', { params: { siteUuid } }),
    ]) {
      const { client, fetch, sleep } = clientAnswering(503);
      await expect(call(client)).rejects.toMatchObject({ status: 503 });
      expect(fetch).toHaveBeenCalledTimes(RETRY_ATTEMPTS);
      expect(sleep).toHaveBeenCalledWith(RETRY_DELAY_MS);
    }
  });

  it('retry other camera and site calls even on a 4xx', async () => {
    const { client, fetch } = clientAnswering(400);
    await expect(client.call('createSite', { body: { name: 'Home' } })).rejects.toMatchObject({
      status: 400,
    });
    expect(fetch).toHaveBeenCalledTimes(RETRY_ATTEMPTS);
  });
});
