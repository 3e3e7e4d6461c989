/**
 * IPv4 arithmetic of discovery (subnets, their hosts, dotted quads), apart from the host's own interfaces so that
 * the phone app's discovery (transport/) uses the same rules without Node.
 */

/** No scan probes more hosts than four /24s hold, whatever subnets it is given. */
export const MAX_SCAN_HOSTS = 4 * 254;

export interface Ipv4Subnet {
  /** The network address as an unsigned 32-bit number. */
  base: number;
  prefix: number;
  /** Canonical text, e.g. `192.168.1.0/24`. */
  cidr: string;
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

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export function formatCidr(base: number, prefix: number): string {
  return `${formatIpv4(base)}/${prefix}`;
}
