/**
 * `CAMERA_NETWORKS`: the only networks the server may connect to when it reaches a stream camera (no SSRF).
 *
 * A host is resolved once, every address it resolves to must be inside an allowed network, and the caller
 * connects to the address answered here, never to the name again (no DNS rebinding between check and
 * connect). IPv4-mapped IPv6 addresses (`::ffff:10.0.0.5`) are judged by their IPv4 address, so a mapped
 * form cannot sneak a public IPv4 address past a list of IPv6 networks.
 */
import { promises as dns } from 'node:dns';
import { networkInterfaces } from 'node:os';
import { CameraConfigurationError, type NetworkPolicy } from './types.js';

/**
 * Where a camera on the home network may be, seen from the desktop helper on that network: loopback and
 * the private ranges (RFC 1918, IPv6 unique-local and link-local).
 */
export const DEFAULT_CAMERA_NETWORKS =
  '127.0.0.0/8, ::1/128, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7, fe80::/10';

/**
 * The server's default `CAMERA_NETWORKS`: the private ranges only. Loopback and link-local are the server's
 * own ports and its neighbours' services, not cameras; an operator who runs a camera there lists it.
 */
export const DEFAULT_SERVER_CAMERA_NETWORKS = '10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7';

/** One allowed network, parsed. IPv4-mapped IPv6 networks are kept as their IPv4 network. */
export interface CameraNetwork {
  family: 4 | 6;
  /** The network address as a number (32 or 128 bits). */
  base: bigint;
  prefix: number;
  /** The canonical text (`10.0.0.0/8`), for logs and messages. */
  cidr: string;
}

/** A bad `CAMERA_NETWORKS` value; the message names the entry and what is wrong with it. */
export class CameraNetworksError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CameraNetworksError';
  }
}

/** One address as `dns.promises.lookup(host, { all: true })` answers it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

export type HostLookup = (host: string) => Promise<readonly ResolvedAddress[]>;

export interface NetworkPolicyOptions {
  /** Resolves a name to all of its addresses; `dns.promises.lookup(host, { all: true })` by default. */
  lookup?: HostLookup;
  /**
   * The addresses of the machine that connects (the server's `hostAddresses`): each is refused unless a
   * network of the list is that very address, so a user cannot make the server probe its own ports
   * through an address a wide private network happens to contain. None by default.
   */
  ownAddresses?: () => readonly string[];
}

/** Every address of this machine's network interfaces (IPv4 and IPv6, loopback included). */
export function hostAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

const IPV4_BITS = 32;
const IPV6_BITS = 128;
const MAPPED_PREFIX = 0xffffn;

/**
 * Ranges no wide network brings in: loopback, "this host" (connecting to 0.0.0.0 reaches loopback) and
 * link-local. An address in one is allowed only when the list holds a network inside that range
 * (`127.0.0.0/8`, `127.0.0.1`, `169.254.10.0/24`), never through a wider one such as `0.0.0.0/0`.
 */
const GUARDED_RANGES = parseCameraNetworks(
  '127.0.0.0/8, ::1/128, 0.0.0.0/8, ::/128, 169.254.0.0/16, fe80::/10',
);

/** Cloud metadata services (AWS, GCP, Azure, ECS, Alibaba): never a camera, whatever the list says. */
const METADATA_ADDRESSES = parseCameraNetworks(
  '169.254.169.254, 169.254.170.2, 169.254.169.123, fd00:ec2::254, fd00:ec2::23, 100.100.100.200',
);

/**
 * Parses a `CAMERA_NETWORKS` value: CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses (`192.168.1.20`,
 * a /32 or /128), separated by commas and/or white space. An empty value allows nothing. Throws
 * `CameraNetworksError` naming the first bad entry (the server refuses to start with it).
 */
export function parseCameraNetworks(spec: string): CameraNetwork[] {
  return spec
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .map(parseNetwork);
}

function parseNetwork(entry: string): CameraNetwork {
  const slash = entry.indexOf('/');
  const addressText = slash === -1 ? entry : entry.slice(0, slash);
  const prefixText = slash === -1 ? null : entry.slice(slash + 1);
  const parsed = parseIp(addressText);
  if (!parsed) {
    throw new CameraNetworksError(
      `CAMERA_NETWORKS: "${entry}" is not an IPv4 or IPv6 network (expected e.g. 192.168.0.0/16 or fd00::/8)`,
    );
  }
  const bits = parsed.family === 4 ? IPV4_BITS : IPV6_BITS;
  let prefix = bits;
  if (prefixText !== null) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) {
      throw new CameraNetworksError(
        `CAMERA_NETWORKS: "${entry}" has a bad prefix length (0 to ${bits} for IPv${parsed.family})`,
      );
    }
    prefix = Number(prefixText);
  }
  const base = parsed.value & mask(prefix, bits);
  if (base !== parsed.value) {
    throw new CameraNetworksError(
      `CAMERA_NETWORKS: "${entry}" has address bits set beyond its /${prefix} prefix; did you mean ${formatCidr(parsed.family, base, prefix)}?`,
    );
  }
  // A network written in the IPv4-mapped form (::ffff:10.0.0.0/104) is that IPv4 network.
  if (parsed.family === 6 && prefix >= 96 && base >> 32n === MAPPED_PREFIX) {
    const v4Prefix = prefix - 96;
    const v4Base = base & 0xffffffffn;
    return { family: 4, base: v4Base, prefix: v4Prefix, cidr: formatCidr(4, v4Base, v4Prefix) };
  }
  return { family: parsed.family, base, prefix, cidr: formatCidr(parsed.family, base, prefix) };
}

/**
 * Whether an address literal may be a camera: inside one of the networks, not a metadata service, and, when
 * it is loopback, link-local or one of `own` (this machine's addresses), inside a network listed for that
 * range itself (see GUARDED_RANGES). IPv4-mapped IPv6 addresses are judged by their IPv4 address; a zone
 * (`fe80::1%eth0`) is ignored. Anything that is not an address is not allowed.
 */
export function isAddressAllowed(
  address: string,
  networks: readonly CameraNetwork[],
  own: readonly string[] = [],
): boolean {
  const ip = normaliseAddress(address);
  if (!ip) return false;
  if (METADATA_ADDRESSES.some((net) => contains(net, ip))) return false;
  const listed = networks.filter((net) => contains(net, ip));
  if (listed.length === 0) return false;
  const guards = GUARDED_RANGES.filter((range) => contains(range, ip));
  if (guards.length === 0 && own.some((a) => sameAddress(a, ip))) {
    guards.push(hostNetwork(ip));
  }
  return guards.every((range) => listed.some((net) => within(net, range)));
}

function contains(net: CameraNetwork, ip: ParsedIp): boolean {
  const bits = ip.family === 4 ? IPV4_BITS : IPV6_BITS;
  return net.family === ip.family && (ip.value & mask(net.prefix, bits)) === net.base;
}

/** Whether `net` lies inside `range`: the same family, a prefix at least as long, the same leading bits. */
function within(net: CameraNetwork, range: CameraNetwork): boolean {
  return (
    net.family === range.family &&
    net.prefix >= range.prefix &&
    contains(range, { family: net.family, value: net.base })
  );
}

function sameAddress(text: string, ip: ParsedIp): boolean {
  const other = normaliseAddress(text);
  return other !== null && other.family === ip.family && other.value === ip.value;
}

function hostNetwork(ip: ParsedIp): CameraNetwork {
  const prefix = ip.family === 4 ? IPV4_BITS : IPV6_BITS;
  return { family: ip.family, base: ip.value, prefix, cidr: formatCidr(ip.family, ip.value, prefix) };
}

/**
 * The policy the configuration (and anything else that connects to a camera) asks before it connects.
 * `check(host)` takes an IP literal (with or without brackets) or a name; a name is resolved once, to all
 * of its addresses, and every one must be allowed. It answers the address to connect to: the literal
 * itself, or the first address the name resolved to (an IPv4-mapped address is answered as plain IPv4).
 */
export function createNetworkPolicy(
  networks: readonly CameraNetwork[] | string,
  options: NetworkPolicyOptions = {},
): NetworkPolicy {
  const allowed = typeof networks === 'string' ? parseCameraNetworks(networks) : [...networks];
  const lookup = options.lookup ?? defaultLookup;
  // Read at every check: interfaces come and go (a VPN, DHCP).
  const own = options.ownAddresses ?? (() => []);

  return {
    async check(host: string): Promise<string> {
      const name = stripBrackets(host.trim());
      if (name === '') throw new CameraConfigurationError('unreachable', 'empty host');

      const literal = normaliseAddress(name);
      if (literal) {
        if (!isAddressAllowed(name, allowed, own())) {
          throw new CameraConfigurationError('network_not_allowed', `${name} is outside CAMERA_NETWORKS`);
        }
        return formatAddress(literal, name);
      }

      let resolved: readonly ResolvedAddress[];
      try {
        resolved = await lookup(name);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'lookup failed';
        throw new CameraConfigurationError('unreachable', `${name} does not resolve (${code})`);
      }
      if (resolved.length === 0) {
        throw new CameraConfigurationError('unreachable', `${name} resolves to no address`);
      }
      const ownNow = own();
      const refused = resolved.filter((r) => !isAddressAllowed(r.address, allowed, ownNow));
      if (refused.length > 0) {
        throw new CameraConfigurationError(
          'network_not_allowed',
          `${name} resolves to ${refused.map((r) => r.address).join(', ')}, outside CAMERA_NETWORKS`,
        );
      }
      const first = resolved[0]!;
      return formatAddress(normaliseAddress(first.address)!, first.address);
    },
  };
}

const defaultLookup: HostLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

// ---- address arithmetic ----

interface ParsedIp {
  family: 4 | 6;
  value: bigint;
}

function mask(prefix: number, bits: number): bigint {
  if (prefix === 0) return 0n;
  const all = (1n << BigInt(bits)) - 1n;
  return (all >> BigInt(bits - prefix)) << BigInt(bits - prefix);
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** An address literal as a number, with IPv4-mapped IPv6 turned into IPv4 and any zone dropped. */
function normaliseAddress(address: string): ParsedIp | null {
  const percent = address.indexOf('%');
  const parsed = parseIp(percent === -1 ? address : address.slice(0, percent));
  if (!parsed) return null;
  if (percent !== -1 && parsed.family === 4) return null; // a zone only exists on IPv6
  if (parsed.family === 6 && parsed.value >> 32n === MAPPED_PREFIX) {
    return { family: 4, value: parsed.value & 0xffffffffn };
  }
  return parsed;
}

/** The address to connect to, canonical: IPv4 dotted, IPv6 compressed (keeping a zone, which a connect needs). */
function formatAddress(ip: ParsedIp, original: string): string {
  if (ip.family === 4) return formatIpv4(ip.value);
  const percent = original.indexOf('%');
  return formatIpv6(ip.value) + (percent === -1 ? '' : original.slice(percent));
}

function parseIp(text: string): ParsedIp | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 !== null) return { family: 6, value: v6 };
  return null;
}

/** Strict dotted quad: four decimal parts 0–255 without leading zeros (no octal or hex forms). */
function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!text.includes(':')) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const tail = halves.length === 2 ? (halves[1] === '' ? [] : halves[1]!.split(':')) : [];
  const groups: number[] = [];
  const pushGroups = (parts: string[], allowIpv4Last: boolean): boolean => {
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (allowIpv4Last && i === parts.length - 1 && part.includes('.')) {
        const v4 = parseIpv4(part);
        if (v4 === null) return false;
        groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return false;
      groups.push(parseInt(part, 16));
    }
    return true;
  };
  if (halves.length === 1) {
    if (!pushGroups(head, true) || groups.length !== 8) return null;
  } else {
    if (!pushGroups(head, false)) return null;
    const headCount = groups.length;
    if (!pushGroups(tail, true)) return null;
    const tailGroups = groups.splice(headCount);
    if (headCount + tailGroups.length > 7) return null;
    groups.push(...new Array<number>(8 - headCount - tailGroups.length).fill(0), ...tailGroups);
  }
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn));
  // Compress the longest run (two or more) of zero groups, as RFC 5952 asks.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function formatCidr(family: 4 | 6, base: bigint, prefix: number): string {
  return `${family === 4 ? formatIpv4(base) : formatIpv6(base)}/${prefix}`;
}
