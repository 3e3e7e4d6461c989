/**
 * The IPv4 networks a discovery scan covers: the host's own subnets (from `os.networkInterfaces()`), each at
 * most a /24, at most four of them, and the bounded host list of a CIDR.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { formatCidr, maskOf, parseIpv4 } from './ipv4.js';

export {
  formatIpv4,
  isLoopback,
  MAX_SCAN_HOSTS,
  parseIpv4,
  parseSubnet,
  subnetContains,
  subnetHosts,
  type Ipv4Subnet,
} from './ipv4.js';

/** A subnet wider than this is cut to the /24 around the host's own address. */
const WIDEST_DEFAULT_PREFIX = 24;
/** The default scan covers at most this many subnets (a laptop with Wi-Fi, Ethernet, a VPN and Docker). */
const MAX_DEFAULT_SUBNETS = 4;
export type InterfaceTable = NodeJS.Dict<NetworkInterfaceInfo[]>;

/**
 * The subnets the default scan covers: one per non-internal IPv4 address of the host, in the order the OS
 * lists them, each cut to the /24 around the host's address when it is wider, without duplicates, at most
 * four. `interfaces` is `os.networkInterfaces()` unless a test passes its own.
 */
export function localSubnets(interfaces: InterfaceTable = networkInterfaces()): string[] {
  const subnets: string[] = [];
  for (const info of localIpv4Addresses(interfaces)) {
    const address = parseIpv4(info.address);
    const prefix = prefixOf(info);
    if (address === null || prefix === null) continue;
    const cut = Math.max(prefix, WIDEST_DEFAULT_PREFIX);
    const cidr = formatCidr((address & maskOf(cut)) >>> 0, cut);
    if (!subnets.includes(cidr)) subnets.push(cidr);
    if (subnets.length === MAX_DEFAULT_SUBNETS) break;
  }
  return subnets;
}

/** The host's non-internal IPv4 addresses (what WS-Discovery sends from by default). */
export function localIpv4Addresses(interfaces: InterfaceTable = networkInterfaces()): NetworkInterfaceInfo[] {
  return Object.values(interfaces)
    .flatMap((infos) => infos ?? [])
    .filter((info) => isIpv4(info) && !info.internal);
}

/**
 * The IPv4 addresses of the named interfaces, or the entries themselves where they are IPv4 addresses
 * already (`['eth0', '127.0.0.1']`). Unknown names are left out.
 */
export function interfaceAddresses(
  entries: readonly string[],
  interfaces: InterfaceTable = networkInterfaces(),
): string[] {
  const addresses = entries.flatMap((entry) =>
    parseIpv4(entry) !== null
      ? [entry]
      : (interfaces[entry] ?? []).filter(isIpv4).map((info) => info.address),
  );
  return [...new Set(addresses)];
}

function isIpv4(info: NetworkInterfaceInfo): boolean {
  // Node 18.0–18.3 reported the family as the number 4.
  return info.family === 'IPv4' || (info.family as unknown) === 4;
}

function prefixOf(info: NetworkInterfaceInfo): number | null {
  const fromCidr = info.cidr ? Number(info.cidr.split('/')[1]) : NaN;
  if (Number.isInteger(fromCidr) && fromCidr >= 0 && fromCidr <= 32) return fromCidr;
  const mask = parseIpv4(info.netmask);
  if (mask === null) return null;
  // Counts the leading ones of the mask.
  let prefix = 0;
  while (prefix < 32 && mask & (0x80000000 >>> prefix)) prefix++;
  return prefix;
}
