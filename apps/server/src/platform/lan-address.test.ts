import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, lanAddress } from './lan-address.js';

function ipv4(address: string, internal = false): NetworkInterfaceInfo {
  return {
    address,
    netmask: '255.255.255.0',
    family: 'IPv4',
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
  };
}
function ipv6(address: string): NetworkInterfaceInfo {
  return {
    address,
    netmask: 'ffff::',
    family: 'IPv6',
    mac: '00:00:00:00:00:00',
    internal: false,
    cidr: null,
    scopeid: 0,
  };
}

describe('lanAddress', () => {
  it('prefers a private address to a public one, whatever the order of the interfaces', () => {
    const interfaces = {
      lo: [ipv4('127.0.0.1', true)],
      wan0: [ipv4('203.0.113.7'), ipv6('2001:db8::7')],
      wlan0: [ipv6('fe80::1'), ipv4('192.168.1.23')],
    };
    expect(lanAddress(interfaces, 'homebox')).toBe('192.168.1.23');
    expect(lanAddress({ eth0: [ipv4('172.20.0.5')], eth1: [ipv4('10.0.0.9')] }, 'homebox')).toBe(
      '172.20.0.5',
    );
    expect(lanAddress({ eth0: [ipv4('172.32.0.5')], eth1: [ipv4('10.0.0.9')] }, 'homebox')).toBe('10.0.0.9');
  });

  it('takes another non-loopback IPv4 address when there is no private one, else the machine name', () => {
    expect(
      lanAddress({ lo: [ipv4('127.0.0.1', true)], eth0: [ipv4('192.0.2.2'), ipv6('fd00::2')] }, 'homebox'),
    ).toBe('192.0.2.2');
    expect(lanAddress({ lo: [ipv4('127.0.0.1', true)], eth0: [ipv6('fd00::2')] }, 'homebox')).toBe('homebox');
  });
});

describe('isLoopbackHost', () => {
  it('knows the names of the machine itself', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'app.localhost',
      '127.0.0.1',
      '127.8.9.1',
      '::1',
      '[::1]',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['home.example.com', '192.168.1.23', 'localhost.example.com']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
