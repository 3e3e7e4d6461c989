import { describe, expect, it } from 'vitest';
import {
  CameraNetworksError,
  DEFAULT_CAMERA_NETWORKS,
  DEFAULT_SERVER_CAMERA_NETWORKS,
  createNetworkPolicy,
  hostAddresses,
  isAddressAllowed,
  parseCameraNetworks,
  type ResolvedAddress,
} from './networks.js';
import { CameraConfigurationError } from './types.js';

const defaults = parseCameraNetworks(DEFAULT_CAMERA_NETWORKS);

function allowedBy(spec: string, address: string): boolean {
  return isAddressAllowed(address, parseCameraNetworks(spec));
}

function fakeLookup(table: Record<string, ResolvedAddress[]>) {
  const calls: string[] = [];
  const lookup = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
  return { lookup, calls };
}

async function refusal(promise: Promise<unknown>): Promise<CameraConfigurationError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CameraConfigurationError);
  return err as CameraConfigurationError;
}

describe('parseCameraNetworks', () => {
  it('reads the default list: loopback and the private ranges, IPv4 and IPv6', () => {
    expect(defaults.map((n) => n.cidr)).toEqual([
      '127.0.0.0/8',
      '::1/128',
      '10.0.0.0/8',
      '172.16.0.0/12',
      '192.168.0.0/16',
      'fc00::/7',
      'fe80::/10',
    ]);
  });

  it('accepts commas, spaces, tabs and new lines between entries, and ignores empty ones', () => {
    const nets = parseCameraNetworks(' 10.0.0.0/8,192.168.1.0/24\t fd00::/8\n,, 2001:db8::1 ');
    expect(nets.map((n) => n.cidr)).toEqual(['10.0.0.0/8', '192.168.1.0/24', 'fd00::/8', '2001:db8::1/128']);
  });

  it('allows nothing when the value is empty', () => {
    expect(parseCameraNetworks('')).toEqual([]);
    expect(parseCameraNetworks('  ,  ')).toEqual([]);
    expect(isAddressAllowed('127.0.0.1', parseCameraNetworks(''))).toBe(false);
  });

  it('reads a single address as a /32 or /128 network', () => {
    expect(parseCameraNetworks('192.168.1.20 ::1').map((n) => n.cidr)).toEqual([
      '192.168.1.20/32',
      '::1/128',
    ]);
  });

  it('keeps a network written in the IPv4-mapped form as the IPv4 network', () => {
    expect(parseCameraNetworks('::ffff:10.0.0.0/104')).toEqual([
      { family: 4, base: 0x0a000000n, prefix: 8, cidr: '10.0.0.0/8' },
    ]);
  });

  it.each([
    ['10.0.0.0/33', /bad prefix length \(0 to 32 for IPv4\)/],
    ['fd00::/129', /bad prefix length \(0 to 128 for IPv6\)/],
    ['10.0.0.0/', /bad prefix length/],
    ['10.0.0.0/-1', /bad prefix length/],
    ['10.0.0.0/8/8', /bad prefix length/],
    ['10.0.0.0/8x', /bad prefix length/],
    ['10.0.0/8', /not an IPv4 or IPv6 network/],
    ['256.0.0.0/8', /not an IPv4 or IPv6 network/],
    ['010.0.0.0/8', /not an IPv4 or IPv6 network/],
    ['0x0a.0.0.0/8', /not an IPv4 or IPv6 network/],
    ['camera.local', /not an IPv4 or IPv6 network/],
    ['fd00:::/8', /not an IPv4 or IPv6 network/],
    ['1:2:3:4:5:6:7:8:9/128', /not an IPv4 or IPv6 network/],
    ['fe80::1%eth0/128', /not an IPv4 or IPv6 network/],
    ['192.168.1.1/24', /bits set beyond its \/24 prefix; did you mean 192\.168\.1\.0\/24\?/],
    ['fd00::1/8', /did you mean fd00::\/8\?/],
  ])('refuses the bad entry %s with a clear message', (entry, message) => {
    const attempt = () => parseCameraNetworks(`127.0.0.0/8, ${entry}`);
    expect(attempt).toThrow(CameraNetworksError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(`"${entry}"`);
  });
});

describe('isAddressAllowed', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['172.15.255.255', false],
    ['192.168.0.1', true],
    ['192.169.0.1', false],
    ['8.8.8.8', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['100.64.0.1', false],
  ])('judges the IPv4 address %s against the defaults: %s', (address, expected) => {
    expect(isAddressAllowed(address, defaults)).toBe(expected);
  });

  it.each([
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::', false],
    ['::2', false],
    ['fc00::1', true],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['FD12:3456::ABCD', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['2001:4860:4860::8888', false],
    ['2606:4700::1111', false],
    ['64:ff9b::808:808', false],
  ])('judges the IPv6 address %s against the defaults: %s', (address, expected) => {
    expect(isAddressAllowed(address, defaults)).toBe(expected);
  });

  it.each([
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::FFFF:192.168.1.20', true],
    ['0:0:0:0:0:ffff:10.0.0.5', true],
    ['::ffff:8.8.8.8', false],
    ['::ffff:808:808', false],
    ['::ffff:169.254.169.254', false],
  ])('judges the IPv4-mapped address %s by its IPv4 address: %s', (address, expected) => {
    expect(isAddressAllowed(address, defaults)).toBe(expected);
  });

  it('does not let an IPv6 network cover IPv4-mapped addresses of public IPv4', () => {
    expect(allowedBy('::/0', '::ffff:8.8.8.8')).toBe(false);
    expect(allowedBy('::/0', '2001:db8::1')).toBe(true);
    expect(allowedBy('0.0.0.0/0', '::ffff:8.8.8.8')).toBe(true);
  });

  it('handles the edge prefixes /0, /32 and /128', () => {
    expect(allowedBy('0.0.0.0/0', '8.8.8.8')).toBe(true);
    expect(allowedBy('0.0.0.0/0', '255.255.255.255')).toBe(true);
    expect(allowedBy('0.0.0.0/0', '::1')).toBe(false);
    // Loopback only when listed itself (see "the server's own ports" below).
    expect(allowedBy('::/0', '::1')).toBe(false);
    expect(allowedBy('::/0', '127.0.0.1')).toBe(false);
    expect(allowedBy('192.168.1.20/32', '192.168.1.20')).toBe(true);
    expect(allowedBy('192.168.1.20/32', '192.168.1.21')).toBe(false);
    expect(allowedBy('192.168.1.20/32', '192.168.1.19')).toBe(false);
    expect(allowedBy('2001:db8::5/128', '2001:db8::5')).toBe(true);
    expect(allowedBy('2001:db8::5/128', '2001:db8::4')).toBe(false);
    expect(allowedBy('192.168.1.0/31', '192.168.1.1')).toBe(true);
    expect(allowedBy('192.168.1.0/31', '192.168.1.2')).toBe(false);
  });

  it('refuses anything that is not a strict address literal', () => {
    for (const address of [
      '',
      'localhost',
      '127.1',
      '2130706433',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '1.2.3.4%eth0',
    ]) {
      expect(isAddressAllowed(address, parseCameraNetworks('0.0.0.0/0, ::/0'))).toBe(false);
    }
  });
});

describe("the server's own ports", () => {
  const serverDefaults = parseCameraNetworks(DEFAULT_SERVER_CAMERA_NETWORKS);

  it('leaves loopback and link-local out of the server default, keeping the private ranges', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', 'fe80::1', '169.254.1.1'])
      expect(isAddressAllowed(address, serverDefaults), address).toBe(false);
    for (const address of ['10.1.2.3', '172.16.0.1', '192.168.1.20', 'fd12::1'])
      expect(isAddressAllowed(address, serverDefaults), address).toBe(true);
  });

  it('never lets a wide network bring in loopback, "this host" or link-local: they are listed themselves', () => {
    const wide = parseCameraNetworks('0.0.0.0/0, ::/0');
    for (const address of ['127.0.0.1', '0.0.0.0', '0.1.2.3', '::', '::1', '169.254.7.7', 'fe80::1'])
      expect(isAddressAllowed(address, wide), address).toBe(false);
    expect(isAddressAllowed('8.8.8.8', wide)).toBe(true);
    expect(allowedBy('0.0.0.0/0, 127.0.0.0/8', '127.0.0.1')).toBe(true);
    expect(allowedBy('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(allowedBy('127.0.0.1', '127.0.0.2')).toBe(false);
    expect(allowedBy('::1', '::1')).toBe(true);
    expect(allowedBy('169.254.10.0/24', '169.254.10.9')).toBe(true);
  });

  it('refuses cloud metadata addresses even when a listed network holds them', () => {
    for (const [spec, address] of [
      ['169.254.0.0/16', '169.254.169.254'],
      ['169.254.169.254', '169.254.169.254'],
      ['0.0.0.0/0', '::ffff:169.254.169.254'],
      ['fc00::/7', 'fd00:ec2::254'],
      [DEFAULT_CAMERA_NETWORKS, 'fd00:ec2::254'],
      ['100.64.0.0/10', '100.100.100.200'],
    ])
      expect(allowedBy(spec!, address!), `${spec} ${address}`).toBe(false);
  });

  it("refuses the machine's own addresses unless one is listed by itself", () => {
    const own = ['127.0.0.1', '192.168.1.5', 'fd12::5', 'fe80::5'];
    expect(isAddressAllowed('192.168.1.5', serverDefaults, own)).toBe(false);
    expect(isAddressAllowed('::ffff:192.168.1.5', serverDefaults, own)).toBe(false);
    expect(isAddressAllowed('fd12::5', serverDefaults, own)).toBe(false);
    expect(isAddressAllowed('192.168.1.6', serverDefaults, own)).toBe(true);
    const listed = parseCameraNetworks(`${DEFAULT_SERVER_CAMERA_NETWORKS}, 192.168.1.5, 127.0.0.0/8`);
    expect(isAddressAllowed('192.168.1.5', listed, own)).toBe(true);
    expect(isAddressAllowed('127.0.0.1', listed, own)).toBe(true);
  });

  it('checks names and literals against the own addresses of the moment', async () => {
    let own = ['10.0.0.2'];
    const { lookup } = fakeLookup({ 'nas.home': [{ address: '10.0.0.2', family: 4 }] });
    const policy = createNetworkPolicy(DEFAULT_SERVER_CAMERA_NETWORKS, { lookup, ownAddresses: () => own });
    expect((await refusal(policy.check('10.0.0.2'))).code).toBe('network_not_allowed');
    expect((await refusal(policy.check('nas.home'))).code).toBe('network_not_allowed');
    expect((await refusal(policy.check('127.0.0.1'))).code).toBe('network_not_allowed');
    own = ['10.0.0.3'];
    await expect(policy.check('nas.home')).resolves.toBe('10.0.0.2');
  });

  it("reads this machine's addresses from its interfaces, loopback among them", () => {
    expect(hostAddresses()).toContain('127.0.0.1');
  });
});

describe('createNetworkPolicy', () => {
  it('answers an allowed IPv4 literal without looking anything up', async () => {
    const { lookup, calls } = fakeLookup({});
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup });
    await expect(policy.check('192.168.1.20')).resolves.toBe('192.168.1.20');
    expect(calls).toEqual([]);
  });

  it('answers an IPv6 literal, with or without brackets, in its canonical form', async () => {
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup: fakeLookup({}).lookup });
    await expect(policy.check('[::1]')).resolves.toBe('::1');
    await expect(policy.check('FD00:0:0:0:0:0:0:20')).resolves.toBe('fd00::20');
    await expect(policy.check('fe80::1%eth0')).resolves.toBe('fe80::1%eth0');
  });

  it('answers an IPv4-mapped literal as plain IPv4', async () => {
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup: fakeLookup({}).lookup });
    await expect(policy.check('[::ffff:127.0.0.1]')).resolves.toBe('127.0.0.1');
    const err = await refusal(policy.check('::ffff:8.8.8.8'));
    expect(err.code).toBe('network_not_allowed');
  });

  it('refuses a literal outside the networks before any connection is tried', async () => {
    const { lookup, calls } = fakeLookup({});
    const policy = createNetworkPolicy('10.0.0.0/8', { lookup });
    const err = await refusal(policy.check('127.0.0.1'));
    expect(err.code).toBe('network_not_allowed');
    expect(calls).toEqual([]);
  });

  it('resolves a name once and answers its first address', async () => {
    const { lookup, calls } = fakeLookup({
      'cam.local': [
        { address: '192.168.1.20', family: 4 },
        { address: 'fd00::20', family: 6 },
      ],
    });
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup });
    await expect(policy.check('cam.local')).resolves.toBe('192.168.1.20');
    expect(calls).toEqual(['cam.local']);
  });

  it('refuses a name when any one of its addresses is outside the networks', async () => {
    const { lookup } = fakeLookup({
      'mixed.example': [
        { address: '192.168.1.20', family: 4 },
        { address: '2001:4860:4860::8888', family: 6 },
      ],
      'mixed-v4.example': [
        { address: '10.0.0.5', family: 4 },
        { address: '93.184.216.34', family: 4 },
      ],
      'sneaky-mapped.example': [{ address: '::ffff:93.184.216.34', family: 6 }],
    });
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup });
    const mixed = await refusal(policy.check('mixed.example'));
    expect(mixed.code).toBe('network_not_allowed');
    expect(mixed.message).toContain('2001:4860:4860::8888');
    expect(mixed.message).not.toContain('192.168.1.20,');
    expect((await refusal(policy.check('mixed-v4.example'))).code).toBe('network_not_allowed');
    expect((await refusal(policy.check('sneaky-mapped.example'))).code).toBe('network_not_allowed');
  });

  it('answers a name that resolves to an IPv4-mapped private address as plain IPv4', async () => {
    const { lookup } = fakeLookup({ 'mapped.local': [{ address: '::ffff:10.0.0.7', family: 6 }] });
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup });
    await expect(policy.check('mapped.local')).resolves.toBe('10.0.0.7');
  });

  it('answers unreachable when a name does not resolve, or resolves to nothing', async () => {
    const { lookup } = fakeLookup({ 'empty.local': [] });
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS, { lookup });
    const missing = await refusal(policy.check('nowhere.local'));
    expect(missing.code).toBe('unreachable');
    expect(missing.message).toContain('ENOTFOUND');
    expect((await refusal(policy.check('empty.local'))).code).toBe('unreachable');
    expect((await refusal(policy.check('  '))).code).toBe('unreachable');
  });

  it('resolves odd numeric host forms and judges what they resolve to', async () => {
    // `2130706433` and `127.1` are not literals here: the system resolver turns them into 127.0.0.1.
    const { lookup, calls } = fakeLookup({ '2130706433': [{ address: '127.0.0.1', family: 4 }] });
    await expect(createNetworkPolicy('127.0.0.0/8', { lookup }).check('2130706433')).resolves.toBe(
      '127.0.0.1',
    );
    expect(calls).toEqual(['2130706433']);
    const refused = await refusal(createNetworkPolicy('10.0.0.0/8', { lookup }).check('2130706433'));
    expect(refused.code).toBe('network_not_allowed');
  });

  it('allows nothing with an empty list', async () => {
    const { lookup } = fakeLookup({ 'cam.local': [{ address: '192.168.1.20', family: 4 }] });
    const policy = createNetworkPolicy('', { lookup });
    expect((await refusal(policy.check('127.0.0.1'))).code).toBe('network_not_allowed');
    expect((await refusal(policy.check('cam.local'))).code).toBe('network_not_allowed');
  });

  it('takes parsed networks as well as the text', async () => {
    const policy = createNetworkPolicy(parseCameraNetworks('192.168.0.0/16'));
    await expect(policy.check('192.168.7.7')).resolves.toBe('192.168.7.7');
  });

  it('uses the system resolver by default (localhost is loopback)', async () => {
    const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS);
    const address = await policy.check('localhost');
    expect(isAddressAllowed(address, parseCameraNetworks('127.0.0.0/8, ::1/128'))).toBe(true);
  });

  it('throws a clear error for a bad list given as text', () => {
    expect(() => createNetworkPolicy('10.0.0.0/8, nonsense')).toThrow(CameraNetworksError);
  });
});
