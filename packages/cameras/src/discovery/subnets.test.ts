import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  interfaceAddresses,
  localSubnets,
  MAX_SCAN_HOSTS,
  parseSubnet,
  subnetContains,
  subnetHosts,
  type InterfaceTable,
} from './subnets.js';

function v4(cidr: string, internal = false): NetworkInterfaceInfo {
  const [address = '', prefix = '24'] = cidr.split('/');
  const bits = Number(prefix);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const netmask = [24, 16, 8, 0].map((shift) => (mask >>> shift) & 0xff).join('.');
  return { address, netmask, family: 'IPv4', mac: '02:00:00:00:00:01', internal, cidr };
}

function v6(cidr: string): NetworkInterfaceInfo {
  const [address = ''] = cidr.split('/');
  return {
    address,
    netmask: 'ffff:ffff:ffff:ffff::',
    family: 'IPv6',
    mac: '02:00:00:00:00:01',
    internal: false,
    cidr,
    scopeid: 0,
  };
}

describe('localSubnets', () => {
  it('covers each interface subnet, cutting one wider than /24 to the /24 around the host', () => {
    const interfaces: InterfaceTable = {
      lo: [v4('127.0.0.1/8', true), { ...v6('::1/128'), internal: true }],
      eth0: [v4('192.168.1.20/24'), v6('fe80::1/64')],
      wlan0: [v4('10.20.30.40/16')],
    };
    expect(localSubnets(interfaces)).toEqual(['192.168.1.0/24', '10.20.30.0/24']);
  });

  it('skips internal interfaces and IPv6, and keeps a subnet narrower than /24 as it is', () => {
    const interfaces: InterfaceTable = {
      lo: [v4('127.0.0.1/8', true)],
      eth0: [v6('fd00::2/64'), v4('172.16.5.130/25')],
    };
    expect(localSubnets(interfaces)).toEqual(['172.16.5.128/25']);
  });

  it('lists a subnet once and at most four of them', () => {
    const interfaces: InterfaceTable = {
      eth0: [v4('192.168.1.20/24'), v4('192.168.1.21/24')],
      eth1: [v4('192.168.2.1/24')],
      docker0: [v4('172.17.0.1/16')],
      tun0: [v4('10.8.0.2/24')],
      wlan0: [v4('192.168.178.30/24')],
    };
    expect(localSubnets(interfaces)).toEqual([
      '192.168.1.0/24',
      '192.168.2.0/24',
      '172.17.0.0/24',
      '10.8.0.0/24',
    ]);
  });

  it('reads the prefix from the netmask when the OS gives no CIDR', () => {
    const info = { ...v4('192.168.7.9/16'), cidr: null };
    expect(localSubnets({ eth0: [info] })).toEqual(['192.168.7.0/24']);
  });

  it('answers nothing on a host with loopback only', () => {
    expect(localSubnets({ lo: [v4('127.0.0.1/8', true)] })).toEqual([]);
  });
});

describe('subnet helpers', () => {
  it('parses CIDRs and single addresses, clearing host bits, and refuses anything else', () => {
    expect(parseSubnet('192.168.1.77/24')?.cidr).toBe('192.168.1.0/24');
    expect(parseSubnet('10.0.0.5')?.cidr).toBe('10.0.0.5/32');
    for (const bad of [
      '',
      '192.168.1.0/33',
      '192.168.1/24',
      '256.1.1.1/24',
      '01.2.3.4/8',
      'fe80::/64',
      'a/b/c',
    ]) {
      expect(parseSubnet(bad), bad).toBeNull();
    }
  });

  it('lists the hosts of a subnet without its network and broadcast addresses', () => {
    const hosts = subnetHosts(parseSubnet('192.168.1.0/24')!);
    expect(hosts).toHaveLength(254);
    expect(hosts[0]).toBe('192.168.1.1');
    expect(hosts.at(-1)).toBe('192.168.1.254');
    expect(subnetHosts(parseSubnet('10.0.0.4/30')!)).toEqual(['10.0.0.5', '10.0.0.6']);
    expect(subnetHosts(parseSubnet('10.0.0.4/31')!)).toEqual(['10.0.0.4', '10.0.0.5']);
    expect(subnetHosts(parseSubnet('10.0.0.9/32')!)).toEqual(['10.0.0.9']);
  });

  it('never lists more hosts than one scan probes', () => {
    expect(subnetHosts(parseSubnet('10.0.0.0/8')!)).toHaveLength(MAX_SCAN_HOSTS);
  });

  it('tells whether an address lies in a subnet', () => {
    const subnet = parseSubnet('192.168.1.0/24')!;
    expect(subnetContains(subnet, '192.168.1.200')).toBe(true);
    expect(subnetContains(subnet, '192.168.2.1')).toBe(false);
    expect(subnetContains(subnet, 'camera.local')).toBe(false);
  });

  it('resolves interface names to their IPv4 addresses and keeps addresses as they are', () => {
    const interfaces: InterfaceTable = { eth0: [v4('192.168.1.20/24'), v6('fe80::1/64')] };
    expect(interfaceAddresses(['eth0', '127.0.0.1', 'nope', '192.168.1.20'], interfaces)).toEqual([
      '192.168.1.20',
      '127.0.0.1',
    ]);
  });
});
