import { describe, expect, it } from 'vitest';
import { normaliseMac, parseArpOutput, parseProcNetArp, readArpTable } from './arp.js';

describe('ARP table', () => {
  it('reads /proc/net/arp, leaving out incomplete entries', () => {
    const text = [
      'IP address       HW type     Flags       HW address            Mask     Device',
      '192.168.1.1      0x1         0x2         a0:b1:c2:d3:e4:f5     *        eth0',
      '192.168.1.64     0x1         0x2         44:19:B6:12:34:56     *        eth0',
      '192.168.1.99     0x1         0x0         00:00:00:00:00:00     *        eth0',
      '',
    ].join('\n');
    expect([...parseProcNetArp(text)]).toEqual([
      ['192.168.1.1', 'a0:b1:c2:d3:e4:f5'],
      ['192.168.1.64', '44:19:b6:12:34:56'],
    ]);
  });

  it('reads `arp -an` on macOS, whose MACs drop leading zeros', () => {
    const text = [
      '? (192.168.1.1) at a0:b1:c2:d3:e4:f5 on en0 ifscope [ethernet]',
      '? (192.168.1.64) at 0:11:2:33:44:5 on en0 ifscope [ethernet]',
      '? (192.168.1.77) at (incomplete) on en0 ifscope [ethernet]',
      '? (224.0.0.251) at 1:0:5e:0:0:fb on en0 ifscope permanent [ethernet]',
    ].join('\n');
    const table = parseArpOutput(text);
    expect(table.get('192.168.1.64')).toBe('00:11:02:33:44:05');
    expect(table.has('192.168.1.77')).toBe(false);
    expect(table.size).toBe(3);
  });

  it('reads `arp -a` on Windows', () => {
    const text = [
      '',
      'Interface: 192.168.1.10 --- 0xb',
      '  Internet Address      Physical Address      Type',
      '  192.168.1.1           a0-b1-c2-d3-e4-f5     dynamic',
      '  192.168.1.255         ff-ff-ff-ff-ff-ff     static',
    ].join('\r\n');
    expect([...parseArpOutput(text)]).toEqual([['192.168.1.1', 'a0:b1:c2:d3:e4:f5']]);
  });

  it('normalises MACs and refuses what is none', () => {
    expect(normaliseMac('A0-B1-C2-D3-E4-F5')).toBe('a0:b1:c2:d3:e4:f5');
    expect(normaliseMac('00:00:00:00:00:00')).toBeNull();
    expect(normaliseMac('(incomplete)')).toBeNull();
    expect(normaliseMac('a0:b1:c2:d3:e4')).toBeNull();
  });

  it('never throws, whatever the platform has', async () => {
    await expect(readArpTable()).resolves.toBeInstanceOf(Map);
    await expect(readArpTable('aix')).resolves.toBeInstanceOf(Map);
  });
});
