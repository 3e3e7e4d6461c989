import { describe, expect, it } from 'vitest';
import { addressWithoutLogin } from './address.js';

describe('addressWithoutLogin', () => {
  it('drops a login typed into the address, and keeps the rest', () => {
    expect(addressWithoutLogin('rtsp://admin:p%40ss@192.168.1.20:554/Streaming/101')).toBe(
      'rtsp://192.168.1.20:554/Streaming/101',
    );
    expect(addressWithoutLogin('rtsp://192.168.1.20/live')).toBe('rtsp://192.168.1.20/live');
  });

  it('drops the login of something that is not a URL too', () => {
    expect(addressWithoutLogin('rtsp://admin:sec ret@cam [1]/x')).toBe('rtsp://cam [1]/x');
  });
});
