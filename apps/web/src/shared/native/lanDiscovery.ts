/**
 * The phone's camera transport (issue 33, docs/mobile.md "Camera discovery"): the project's own Capacitor
 * plugin `LanDiscovery` (apps/web/plugins/lan-discovery) answers the four calls of
 * `@homesitter/cameras/transport`, plus the Wi-Fi's address and prefix, which say which subnet to scan.
 */
import type { CameraTransport } from '@homesitter/cameras/transport';

export interface WifiInfo {
  connected: boolean;
  address?: string;
  prefix?: number;
}

export interface LanDiscoveryPlugin extends CameraTransport {
  wifiInfo(): Promise<WifiInfo>;
}

/** A subnet wider than this is cut to the /24 around the phone's address (the helper's rule for its own). */
const WIDEST_PREFIX = 24;

/** The subnet to scan (`192.168.1.0/24`), or null off Wi-Fi. */
export function wifiSubnet(info: WifiInfo): string | null {
  if (!info.connected || !info.address || info.prefix === undefined) return null;
  const octets = info.address.split('.').map(Number);
  if (octets.length !== 4 || octets.some((o) => !Number.isInteger(o) || o < 0 || o > 255)) return null;
  const prefix = Math.max(WIDEST_PREFIX, Math.min(32, info.prefix));
  const value = octets.reduce((sum, octet) => sum * 256 + octet, 0);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const base = (value & mask) >>> 0;
  return `${[24, 16, 8, 0].map((shift) => (base >>> shift) & 0xff).join('.')}/${prefix}`;
}
