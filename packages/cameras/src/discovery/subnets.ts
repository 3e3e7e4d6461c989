/**
 * The IPv4 networks a discovery scan covers: the host's own subnets (from `os.networkInterfaces()`), each at
 * most a /24, at most four of them, and the bounded host list of a CIDR.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

/** A subnet wider than this is cut to the /24 around the host's own address. */
const WIDEST_DEFAULT_PREFIX = 24;
/** The default scan covers at most this many subnets (a laptop with Wi-Fi, Ethernet, a VPN and Docker). */
const MAX_DEFAULT_SUBNETS = 4;
/** No scan probes more hosts than four /24s hold, whatever subnets it is given. */
export const MAX_SCAN_HOSTS = 4 * 254;

export type InterfaceTable = NodeJS.Dict<NetworkInterfaceInfo[]>;

export interface Ipv4Subnet {
  /** The network address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
  /** Canonical text, e.g. `192.168.1.0/24`. */
  cidr: string;
}

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

/** Parses `a.b.c.d/n` (or a single address, a /32); null when it is not one. Host bits are cleared. */
export function parseSubnet(text: string): Ipv4Subnet | null {
  const [addressText = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  const address = parseIpv4(addressText);
  if (address === null) return null;
  let prefix = 32;
  if (prefixText !== undefined) {
    if (!/^\d{1,2}$/.test(prefixText) || Number(prefixText) > 32) return null;
    prefix = Number(prefixText);
  }
  const base = (address & maskOf(prefix)) >>> 0;
  return { base, prefix, cidr: formatCidr(base, prefix) };
}

/**
 * The host addresses of a subnet: without its network and broadcast addresses, except in a /31 or /32 where
 * every address is a host. Stops at `limit` addresses.
 */
export function subnetHosts(subnet: Ipv4Subnet, limit = MAX_SCAN_HOSTS): string[] {
  const size = 2 ** (32 - subnet.prefix);
  const first = subnet.prefix >= 31 ? 0 : 1;
  const last = subnet.prefix >= 31 ? size - 1 : size - 2;
  const hosts: string[] = [];
  for (let offset = first; offset <= last && hosts.length < limit; offset++) {
    hosts.push(formatIpv4(subnet.base + offset));
  }
  return hosts;
}

/** Whether an IPv4 address lies in the subnet. */
export function subnetContains(subnet: Ipv4Subnet, address: string): boolean {
  const value = parseIpv4(address);
  return value !== null && (value & maskOf(subnet.prefix)) >>> 0 === subnet.base;
}

/** Strict dotted quad (no octal, no hex, no short forms) as an unsigned 32-bit number; null otherwise. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

export function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => String((value >>> shift) & 0xff)).join('.');
}

export function isLoopback(address: string): boolean {
  return address.startsWith('127.');
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

function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

function formatCidr(base: number, prefix: number): string {
  return `${formatIpv4(base)}/${prefix}`;
}
