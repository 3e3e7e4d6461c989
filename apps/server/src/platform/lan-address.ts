import { hostname, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

type Interfaces = NodeJS.Dict<NetworkInterfaceInfo[]>;

/** RFC 1918 ranges: the addresses a home router hands out, so the ones a camera on the same network reaches. */
function isPrivateIPv4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** A host name that only ever means the machine itself, which a camera can never upload to. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h) || h === '0.0.0.0';
}

/**
 * The address cameras on this machine's network upload to when nobody configured one: its first private
 * (RFC 1918) IPv4 address, else any other non-loopback IPv4 address, else the machine's name. Never
 * "localhost": a camera resolving that would talk to itself. IPv6 is left out because most camera firmware
 * takes only IPv4 in its FTP and SMTP server fields.
 */
export function lanAddress(interfaces: Interfaces = networkInterfaces(), machineName = hostname()): string {
  const addresses = Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => info.family === 'IPv4' && !info.internal && !isLoopbackHost(info.address))
    .map((info) => info.address);
  return addresses.find(isPrivateIPv4) ?? addresses[0] ?? machineName;
}
