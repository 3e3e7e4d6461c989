import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { lanAddress } from './lan-address.js';

describe('config', () => {
  it('runs on its embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      PUBLIC_URL: 'http://localhost:8080',
      DATABASE_URL: undefined,
      SMTP_URL: undefined,
      SIGNUP_ENABLED: true,
      VERIFICATION_EXEMPT_EMAILS: [],
      FREE_EVENTS: 100,
    });
  });

  it('resolves DATA_DIR against the directory the command was started in', () => {
    expect(loadConfig({}).DATA_DIR).toBe(resolve(process.cwd(), 'data'));
    expect(loadConfig({ INIT_CWD: '/srv/app' }).DATA_DIR).toBe('/srv/app/data');
    expect(loadConfig({ DATA_DIR: '/var/lib/homesitter', INIT_CWD: '/srv/app' }).DATA_DIR).toBe(
      '/var/lib/homesitter',
    );
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '9000' }).PUBLIC_URL).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://home.example.com/' }).PUBLIC_URL).toBe(
      'https://home.example.com',
    );
  });

  it('takes a PUBLIC_HOST set on purpose as the FTP passive address, never the one derived from PUBLIC_URL', () => {
    const derived = loadConfig({ PUBLIC_URL: 'https://home.example.com' });
    expect(derived.PUBLIC_HOST).toBe('home.example.com');
    expect(derived.FTP_PUBLIC_HOST).toBeUndefined();
    expect(loadConfig({ PUBLIC_HOST: 'cams.example.com' }).FTP_PUBLIC_HOST).toBe('cams.example.com');
    expect(
      loadConfig({ PUBLIC_HOST: 'cams.example.com', FTP_PUBLIC_HOST: '203.0.113.9' }).FTP_PUBLIC_HOST,
    ).toBe('203.0.113.9');
    expect(() => loadConfig({ FTP_PASV_PER_USER: '0' })).toThrow(/FTP_PASV_PER_USER/);
  });

  it("gives cameras this machine's LAN address, never localhost, when PUBLIC_URL names the machine itself", () => {
    const lan = lanAddress();
    expect(lan).not.toMatch(/^(localhost|127\.)/);
    expect(loadConfig({}).PUBLIC_HOST).toBe(lan);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).PUBLIC_HOST).toBe(lan);
    expect(loadConfig({ PUBLIC_HOST: 'cams.example.com' }).PUBLIC_HOST).toBe('cams.example.com');
    // The passive FTP address stays "the address each camera connected to" unless set on purpose.
    expect(loadConfig({}).FTP_PUBLIC_HOST).toBeUndefined();
  });

  it('parses lists and booleans', () => {
    const c = loadConfig({ VERIFICATION_EXEMPT_EMAILS: ' A@x.com, b@y.com ,', SIGNUP_ENABLED: 'off' });
    expect(c.VERIFICATION_EXEMPT_EMAILS).toEqual(['a@x.com', 'b@y.com']);
    expect(c.SIGNUP_ENABLED).toBe(false);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', FREE_EVENTS: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty', FREE_EVENTS: '-1' })).toThrow(/PORT[\s\S]*FREE_EVENTS/);
  });

  it('needs AUTH_ISSUER with AUTH_JWKS_URL', () => {
    expect(() => loadConfig({ AUTH_JWKS_URL: 'https://example.com/jwks.json' })).toThrow(/AUTH_ISSUER/);
  });
});
