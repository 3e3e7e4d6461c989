/**
 * MAC addresses from the operating system's ARP table, best effort: `/proc/net/arp` on Linux, `arp -a`
 * elsewhere (macOS, the BSDs and Windows print it differently; all three forms are read). Nothing here
 * throws: an unreadable table is an empty one.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** IPv4 address → MAC (lower case, `aa:bb:cc:dd:ee:ff`). */
export type ArpTable = Map<string, string>;

const ARP_COMMAND_TIMEOUT_MS = 2_000;
const MAX_ARP_OUTPUT_BYTES = 1024 * 1024;

/** Reads the table once; an empty map when it cannot be read. */
export async function readArpTable(platform: NodeJS.Platform = process.platform): Promise<ArpTable> {
  try {
    if (platform === 'linux') return parseProcNetArp(await readFile('/proc/net/arp', 'utf8'));
    return parseArpOutput(await runArp());
  } catch {
    return new Map();
  }
}

/** `/proc/net/arp`: a header line, then `IP  HW-type  Flags  HW-address  Mask  Device` per entry. */
export function parseProcNetArp(text: string): ArpTable {
  const table: ArpTable = new Map();
  for (const line of text.split('\n').slice(1)) {
    const [ip, , flags, hw] = line.trim().split(/\s+/);
    // Flags 0x0 is an incomplete entry (the host did not answer).
    if (!ip || !hw || flags === '0x0') continue;
    const mac = normaliseMac(hw);
    if (mac) table.set(ip, mac);
  }
  return table;
}

/**
 * `arp -a` / `arp -an` output:
 * - macOS/BSD: `? (192.168.1.20) at 0:11:22:3:44:55 on en0 ifscope [ethernet]`
 * - Windows: `  192.168.1.20          00-11-22-33-44-55     dynamic`
 */
export function parseArpOutput(text: string): ArpTable {
  const table: ArpTable = new Map();
  for (const line of text.split(/\r?\n/)) {
    const bsd = /\((\d{1,3}(?:\.\d{1,3}){3})\)\s+at\s+([0-9a-fA-F:]+)/.exec(line);
    const windows = /^\s*(\d{1,3}(?:\.\d{1,3}){3})\s+([0-9a-fA-F]{2}(?:-[0-9a-fA-F]{2}){5})\s/.exec(line);
    const match = bsd ?? windows;
    if (!match) continue;
    const mac = normaliseMac(match[2]!);
    if (mac) table.set(match[1]!, mac);
  }
  return table;
}

/** `0:11:22:3:44:55` or `00-11-22-33-44-55` → `00:11:22:03:44:55`; null for anything else or all zeros. */
export function normaliseMac(text: string): string | null {
  const parts = text.split(/[:-]/);
  if (parts.length !== 6 || !parts.every((part) => /^[0-9a-fA-F]{1,2}$/.test(part))) return null;
  const mac = parts.map((part) => part.padStart(2, '0').toLowerCase()).join(':');
  return mac === '00:00:00:00:00:00' || mac === 'ff:ff:ff:ff:ff:ff' ? null : mac;
}

function runArp(): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      'arp',
      ['-a', ...(process.platform === 'win32' ? [] : ['-n'])],
      { timeout: ARP_COMMAND_TIMEOUT_MS, maxBuffer: MAX_ARP_OUTPUT_BYTES, windowsHide: true },
      (err, stdout) => resolve(err ? '' : stdout),
    );
  });
}
