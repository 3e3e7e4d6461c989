import { describe, expect, it } from 'vitest';
import { createOwnMediaCheck } from './chat.media.js';

const USER = '0b5e6c1a-7d44-4a0e-9f7e-1d2c3b4a5f60';
const OTHER = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

describe('own media check', () => {
  const check = createOwnMediaCheck('https://home.example');

  it("accepts this server's media URLs under the user's own folder, absolute or relative", () => {
    expect(check(USER, `https://home.example/media/users/${USER}/a.jpg?exp=1&sig=x`)).toBe(true);
    expect(check(USER, `/media/users/${USER}/memories/b.webp`)).toBe(true);
  });

  it("refuses other origins, other users' folders, other paths and tricks", () => {
    for (const url of [
      `https://evil.example/media/users/${USER}/a.jpg`,
      `/media/users/${OTHER}/a.jpg`,
      `/media/users/${USER}/../${OTHER}/a.jpg`,
      `/media/users/${USER}/%2e%2e/${OTHER}/a.jpg`,
      '/api/users/profile',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
    ])
      expect(check(USER, url), url).toBe(false);
  });

  it("uses the media module's signature check when given one", () => {
    const signed = createOwnMediaCheck('https://home.example', (_key, _exp, sig) =>
      sig === 'good' ? 'valid' : sig === 'old' ? 'expired' : 'invalid',
    );
    expect(signed(USER, `/media/users/${USER}/a.jpg?exp=1&sig=good`)).toBe(true);
    expect(signed(USER, `/media/users/${USER}/a.jpg?exp=1&sig=old`)).toBe(true);
    expect(signed(USER, `/media/users/${USER}/a.jpg?exp=1&sig=forged`)).toBe(false);
  });
});
