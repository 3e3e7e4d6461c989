import { describe, expect, it } from 'vitest';
import { checkStreamForm, emptyStreamForm, formFromSummary, type StreamFormValues } from './streamConnection';

const onvif = (over: Partial<StreamFormValues>) => ({ ...emptyStreamForm, ...over });
const rtsp = (over: Partial<StreamFormValues>) => ({ ...emptyStreamForm, type: 'rtsp' as const, ...over });

describe('the stream camera form, checked like the contract', () => {
  it('builds an ONVIF connection with the default port 80', () => {
    expect(checkStreamForm(onvif({ host: ' cam.local ', username: 'admin', password: 'pw' }))).toEqual({
      problems: {},
      connection: { type: 'onvif', host: 'cam.local', port: 80, username: 'admin', password: 'pw' },
    });
    expect(checkStreamForm(onvif({ host: '192.168.1.20', port: '' })).connection).toEqual({
      type: 'onvif',
      host: '192.168.1.20',
      username: '',
      password: '',
    });
  });

  it('accepts IPv6 hosts and refuses a scheme, a path or a bad port', () => {
    expect(checkStreamForm(onvif({ host: 'fe80::1' })).problems).toEqual({});
    expect(checkStreamForm(onvif({ host: '[fe80::1]' })).problems).toEqual({});
    expect(checkStreamForm(onvif({ host: '' })).problems.host).toBe('hostRequired');
    expect(checkStreamForm(onvif({ host: 'http://cam' })).problems.host).toBe('hostInvalid');
    expect(checkStreamForm(onvif({ host: 'cam/onvif' })).problems.host).toBe('hostInvalid');
    for (const port of ['0', '65536', '8o', '-1', '1.5'])
      expect(checkStreamForm(onvif({ host: 'cam', port })).problems.port).toBe('portInvalid');
  });

  it('needs an rtsp:// or rtsps:// address; the login is optional and left out when empty', () => {
    expect(checkStreamForm(rtsp({ url: '' })).problems.url).toBe('urlRequired');
    expect(checkStreamForm(rtsp({ url: 'http://cam/stream' })).problems.url).toBe('urlInvalid');
    expect(checkStreamForm(rtsp({ url: 'rtsp://' })).problems.url).toBe('urlInvalid');
    expect(checkStreamForm(rtsp({ url: ' rtsps://cam:322/main ' })).connection).toEqual({
      type: 'rtsp',
      url: 'rtsps://cam:322/main',
    });
    expect(checkStreamForm(rtsp({ url: 'rtsp://cam/1', username: 'u', password: 'p' })).connection).toEqual({
      type: 'rtsp',
      url: 'rtsp://cam/1',
      username: 'u',
      password: 'p',
    });
  });

  it('refuses control characters and over-long logins', () => {
    expect(checkStreamForm(rtsp({ url: 'rtsp://cam', username: 'a\u0000b' })).problems.username).toBe(
      'controlCharacters',
    );
    expect(checkStreamForm(rtsp({ url: 'rtsp://cam', password: 'x'.repeat(257) })).problems.password).toBe(
      'passwordTooLong',
    );
  });

  it('fills the form from what the server remembers, never a password', () => {
    expect(
      formFromSummary({
        type: 'onvif',
        url: null,
        host: 'cam.local',
        port: 8080,
        username: 'admin',
        manufacturer: null,
        model: null,
        motion_source: null,
        video: null,
        has_audio: false,
      }),
    ).toEqual({ type: 'onvif', host: 'cam.local', port: '8080', url: '', username: 'admin', password: '' });
  });
});
