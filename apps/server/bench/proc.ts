import { readdirSync, readFileSync } from 'node:fs';

/** Figures of running processes from Linux's /proc, for the benches' memory reports. */

/** A field of /proc/<pid>/status in MB (VmHWM: peak resident memory; VmRSS: resident now), or undefined once it is gone. */
export function statusMb(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux on every architecture Node runs on). */
export const CLOCK_TICKS = 100;

/** CPU time a process has used so far, in clock ticks (user + system), or undefined once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    // The command's name (field 2) may hold spaces, so count fields after it.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Ids of the running vision processes of a server (its children running vision.worker). */
export function visionChildren(parent: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (ppid !== parent) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('vision.worker')) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}
