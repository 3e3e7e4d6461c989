import { describe, expect, it } from 'vitest';
import { createSupervisedProcess, maskSecrets, type SupervisedProcess } from './supervised-process.js';
import { memoryLog, waitFor } from './test-media.js';
import type { StreamStatus } from './types.js';

/** A stand-in for ffmpeg: node running `script`. */
function supervise(
  script: string,
  extra: { onStdout?: (proc: SupervisedProcess) => void; now?: () => number } = {},
) {
  const log = memoryLog();
  const statuses: { status: StreamStatus; reason: string | undefined }[] = [];
  const listeners = new Set<(status: StreamStatus) => void>();
  const proc: SupervisedProcess = createSupervisedProcess({
    name: 'test stream',
    command: process.execPath,
    args: () => ['-e', script],
    log,
    mask: (text) => maskSecrets(text, ['hunter2']),
    backoff: { initialMs: 20, maxMs: 160 },
    ...(extra.now && { now: extra.now }),
    onStdout: () => extra.onStdout?.(proc),
    onStatus: (status, reason) => {
      statuses.push({ status, reason });
      for (const listener of listeners) listener(status);
    },
  });
  const onStatus = (fn: (status: StreamStatus) => void) => {
    listeners.add(fn);
    return () => void listeners.delete(fn);
  };
  return { proc, log, statuses, onStatus };
}

/** Resolves once `condition` holds, checking every few ms (the test's own timeout is the safety net). */
function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (condition() ? resolve() : setTimeout(check, 10));
    check();
  });
}

const retries = (log: ReturnType<typeof memoryLog>) => log.lines.map((line) => line.obj.retryInMs);

describe('a supervised ffmpeg', () => {
  it('retries with a doubling delay up to the cap, saying why, without the password', async () => {
    const { proc, log, statuses } = supervise(
      "console.error('Connection to rtsp://admin:hunter2@cam/s failed'); process.exit(1)",
    );
    proc.start();
    await until(() => log.lines.length >= 6);
    await proc.stop();
    expect(retries(log).slice(0, 6)).toEqual([20, 40, 80, 160, 160, 160]);
    expect(statuses[0]).toEqual({ status: 'connecting', reason: undefined });
    expect(statuses[1]!.status).toBe('reconnecting');
    expect(statuses[1]!.reason).toBe('ffmpeg exited (code 1): Connection to rtsp://***@cam/s failed');
    expect(JSON.stringify(log.lines)).not.toContain('hunter2');
    expect(log.lines[0]!.obj.stderr).toBe('Connection to rtsp://***@cam/s failed');
  });

  it('starts the doubling over after a run that streamed for a good minute', async () => {
    let clock = 0;
    const { proc, log } = supervise("console.log('frame'); setTimeout(() => process.exit(1), 100)", {
      now: () => clock,
      onStdout: (p) => {
        p.markStreaming();
        // The run is a minute old by the time it fails.
        clock += 61_000;
      },
    });
    proc.start();
    await until(() => log.lines.length >= 3);
    await proc.stop();
    expect(retries(log).slice(0, 3)).toEqual([20, 20, 20]);
  });

  it('is streaming once its consumer says so, and stops the process on stop()', async () => {
    const { proc, statuses, onStatus } = supervise("setInterval(() => console.log('frame'), 20)", {
      onStdout: (p) => p.markStreaming(),
    });
    proc.start();
    await waitFor(onStatus, (status) => status === 'streaming');
    const pid = proc.pid()!;
    await proc.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(statuses.map((s) => s.status)).toEqual(['connecting', 'streaming']);
  });

  it('kills a run its consumer finds broken, and starts again', async () => {
    let runs = 0;
    const { proc, statuses, onStatus } = supervise("setInterval(() => console.log('frame'), 20)", {
      onStdout: (p) => {
        if (p.status() !== 'streaming') {
          runs++;
          p.markStreaming();
          if (runs === 1) p.fail('not MP4');
        }
      },
    });
    proc.start();
    await waitFor(onStatus, () => runs >= 2 && statuses.at(-1)!.status === 'streaming');
    await proc.stop();
    expect(statuses.map((s) => [s.status, s.reason])).toEqual([
      ['connecting', undefined],
      ['streaming', undefined],
      ['reconnecting', 'not MP4'],
      ['streaming', undefined],
    ]);
  });

  it('reports a missing ffmpeg binary as a reason, and keeps trying', async () => {
    const log = memoryLog();
    const reasons: (string | undefined)[] = [];
    const proc = createSupervisedProcess({
      name: 'test stream',
      command: '/nonexistent/ffmpeg',
      args: () => [],
      log,
      backoff: { initialMs: 10 },
      onStdout: () => {},
      onStatus: (_status, reason) => reasons.push(reason),
    });
    proc.start();
    await until(() => log.lines.length >= 2);
    await proc.stop();
    expect(reasons[1]).toMatch(/^cannot start ffmpeg: spawn \/nonexistent\/ffmpeg ENOENT/);
  });
});
