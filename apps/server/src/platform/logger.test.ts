import { describe, expect, it } from 'vitest';
import { redactToken, redactUrl } from './logger.js';

describe('log redaction', () => {
  it('keeps at most 8 characters of a token', () => {
    expect(redactToken('abcdefghijklmnop')).toBe('abcdefgh…');
    expect(redactToken('short')).toBe('short');
    expect(redactToken(undefined)).toBe('');
  });

  it('shortens secret query values and leaves the rest', () => {
    expect(redactUrl('/verify-email?code=abcdefghijklmnopqrstuvwxyz&lang=de')).toBe(
      '/verify-email?code=abcdefgh%E2%80%A6&lang=de',
    );
    expect(redactUrl('/api/users/profile')).toBe('/api/users/profile');
  });
});
