import { describe, expect, it, vi } from 'vitest';
import { ApiError, createHttpClient, retryPolicyFor, timeoutFor } from './http';
import type { OutgoingRequest } from './xhrTransport';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const profile = { success: true, data: { user_uuid: 'u1' } };

describe('http client', () => {
  it('adds the bearer token to protected calls and none to public ones', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => json(200, profile));
    const client = createHttpClient({ fetch, getToken: async () => 'tok', onUnauthorized: vi.fn() });
    await client.call('getProfile');
    await client.call('signupStatus');
    const headers = fetch.mock.calls.map(
      ([, init]) => (init?.headers as Record<string, string>).Authorization,
    );
    expect(headers).toEqual(['Bearer tok', undefined]);
  });

  it('throws the envelope message and code', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(500, { success: false, message: 'Failed to update privacy mode', code: 'internal' }),
    );
    const client = createHttpClient({ fetch, getToken: async () => 't', onUnauthorized: vi.fn() });
    await expect(
      client.call('updateGlobalPrivacyMode', { body: { is_global_privacy_mode_enabled: true } }),
    ).rejects.toMatchObject({
      message: 'Failed to update privacy mode',
      code: 'internal',
      status: 500,
    });
  });

  it('carries the seconds to wait from a 429', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(429, {
        success: false,
        message: 'Please wait 42 seconds before requesting another email.',
        code: 'auth.resend_too_soon',
        retryAfterSeconds: 42,
      }),
    );
    const client = createHttpClient({ fetch, getToken: async () => 't', onUnauthorized: vi.fn() });
    await expect(client.call('sendVerificationEmail')).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: 42,
    });
  });

  it('retries once with a refreshed token on 401, then ends the session', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      json(401, { success: false, message: 'no', code: 'auth.unauthenticated' }),
    );
    const getToken = vi.fn(async (force?: boolean) => (force ? 'fresh' : 'stale'));
    const onUnauthorized = vi.fn();
    const client = createHttpClient({ fetch, getToken, onUnauthorized });
    await expect(client.call('getProfile')).rejects.toBeInstanceOf(ApiError);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((fetch.mock.calls[1]![1]?.headers as Record<string, string>).Authorization).toBe('Bearer fresh');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  describe('a memory photo upload', () => {
    const image = { image_uuid: 'i1', url: 'https://media.example/i1.jpg' };
    const unauthenticated = () => json(401, { success: false, message: 'no', code: 'auth.unauthenticated' });
    const created = () => json(201, { success: true, data: { image } });

    function photoForm() {
      const form = new FormData();
      form.append('image', new Blob(['jpeg'], { type: 'image/jpeg' }), 'photo.jpg');
      return form;
    }

    it('retries once with a refreshed token on 401, sending the same multipart form', async () => {
      const answers = [unauthenticated(), created()];
      const fetch = vi.fn<typeof globalThis.fetch>(async () => answers.shift()!);
      const getToken = vi.fn(async (force?: boolean) => (force ? 'fresh' : 'stale'));
      const onUnauthorized = vi.fn();
      const client = createHttpClient({ fetch, getToken, onUnauthorized });
      const form = photoForm();
      const answer = await client.call('uploadMemoryImage', {
        params: { category: 'people', id: 'm1' },
        form,
      });
      expect(answer.data.image).toEqual(image);
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(getToken).toHaveBeenLastCalledWith(true);
      const requests = fetch.mock.calls.map(([url, init]) => ({
        url,
        method: init?.method,
        body: init?.body,
        headers: init?.headers as Record<string, string>,
      }));
      expect(requests.map((r) => r.headers.Authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
      for (const request of requests) {
        expect(request).toMatchObject({
          url: '/api/users/memories/people/m1/images',
          method: 'POST',
          body: form,
        });
        // The browser writes the multipart content type with its boundary.
        expect(request.headers['Content-Type']).toBeUndefined();
      }
      expect(onUnauthorized).not.toHaveBeenCalled();
    });

    it('with progress, goes through the upload transport and still refreshes the token once on 401', async () => {
      const answers = [unauthenticated(), created()];
      const sent: OutgoingRequest[] = [];
      const sendWithUploadProgress = vi.fn(
        async (_url: string, request: OutgoingRequest, onProgress: (fraction: number) => void) => {
          sent.push(request);
          onProgress(1);
          return answers.shift()!;
        },
      );
      const fetch = vi.fn<typeof globalThis.fetch>();
      const getToken = vi.fn(async (force?: boolean) => (force ? 'fresh' : 'stale'));
      const client = createHttpClient({ fetch, sendWithUploadProgress, getToken, onUnauthorized: vi.fn() });
      const onUploadProgress = vi.fn();
      const answer = await client.call('uploadMemoryImage', {
        params: { category: 'people', id: 'm1' },
        form: photoForm(),
        onUploadProgress,
      });
      expect(answer.data.image).toEqual(image);
      expect(fetch).not.toHaveBeenCalled();
      expect(sent.map((r) => r.headers.Authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
      expect(onUploadProgress).toHaveBeenCalledWith(1);
    });

    it('ends the session when the refreshed token is refused too', async () => {
      const fetch = vi.fn<typeof globalThis.fetch>(async () => unauthenticated());
      const onUnauthorized = vi.fn();
      const client = createHttpClient({ fetch, getToken: async () => 't', onUnauthorized });
      await expect(
        client.call('uploadMemoryImage', { params: { category: 'people', id: 'm1' }, form: photoForm() }),
      ).rejects.toMatchObject({ status: 401 });
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(onUnauthorized).toHaveBeenCalledOnce();
    });

    it('gets 120 s like every upload, and the given text when the failure carries none', async () => {
      expect(timeoutFor('/api/users/memories/:category/:id/images', true)).toBe(120_000);
      const fetch = vi.fn<typeof globalThis.fetch>(
        async () => new Response('<html>Bad gateway</html>', { status: 502 }),
      );
      const client = createHttpClient({ fetch, getToken: async () => 't', onUnauthorized: vi.fn() });
      await expect(
        client.call('uploadMemoryImage', {
          params: { category: 'people', id: 'm1' },
          form: photoForm(),
          fallbackMessage: 'Failed to upload image',
        }),
      ).rejects.toMatchObject({ status: 502, message: 'Failed to upload image' });
    });
  });

  it('uses the §9 timeouts', () => {
    expect(timeoutFor('/api/users/profile')).toBe(60_000);
    expect(timeoutFor('/api/users/memories/people/1/upload')).toBe(120_000);
  });

  it('retries camera and site calls 3 times 2 s apart, but not rename or site delete on a 4xx', () => {
    expect(retryPolicyFor('GET', '/api/users/cameras')).toEqual({
      attempts: 3,
      delayMs: 2000,
      retryOnClientError: true,
    });
    expect(retryPolicyFor('POST', '/api/users/update-camera-name').retryOnClientError).toBe(false);
    expect(retryPolicyFor('DELETE', '/api/users/sites/:siteUuid').retryOnClientError).toBe(false);
    expect(retryPolicyFor('PUT', '/api/users/sites/:siteUuid')).toMatchObject({
      attempts: 3,
      retryOnClientError: true,
    });
    expect(retryPolicyFor('GET', '/api/users/profile').attempts).toBe(1);
  });

  it('aborts a call that outlives its timeout', async () => {
    vi.useFakeTimers();
    try {
      const fetch = vi.fn<typeof globalThis.fetch>(
        (_url, init) =>
          new Promise((_resolve, reject) =>
            init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
      );
      const client = createHttpClient({ fetch, getToken: async () => 't', onUnauthorized: vi.fn() });
      const pending = client.call('getProfile');
      const assertion = expect(pending).rejects.toMatchObject({ code: 'timeout' });
      await vi.advanceTimersByTimeAsync(60_000);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });
});
