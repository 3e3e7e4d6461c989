import { spawn, type ChildProcess } from 'node:child_process';
import type { CameraLogger, StreamStatus } from './types.js';

/**
 * One long-running ffmpeg that must keep running: restarted with exponential backoff when it exits or goes
 * quiet, its stderr kept (masked) for the log line that says why. Stream pull and frame source share it so
 * the reconnect rules live in one place.
 */

export interface BackoffOptions {
  /** The first retry's delay (default 1 s), doubling per failure… */
  initialMs?: number;
  /** …up to this (default 30 s). */
  maxMs?: number;
  /** A run that streamed this long (default 1 min) starts the doubling over. */
  resetAfterMs?: number;
}

export interface SupervisedProcessOptions {
  /** Names the process in log lines, e.g. `main stream`. */
  name: string;
  command: string;
  /** Called per start: the arguments may change between runs. */
  args: () => string[];
  log: CameraLogger;
  /** Hides secrets in stderr and reasons before they reach a log line or a status. */
  mask?: (text: string) => string;
  /** No stdout for this long (default 10 s) counts as a failure. */
  stallMs?: number;
  backoff?: BackoffOptions;
  /** A new run starts: reset parsers. */
  onSpawn?: () => void;
  /** Bytes from stdout; a throw counts as a failure of this run (its message is the reason). */
  onStdout: (chunk: Buffer) => void;
  onStatus: (status: StreamStatus, reason?: string) => void;
  /** The clock that measures a good run (tests). */
  now?: () => number;
}

export interface SupervisedProcess {
  start(): void;
  /** Kills the process; resolves once it has exited. */
  stop(): Promise<void>;
  status(): StreamStatus;
  /** The consumer saw real output (a fragment, a frame): the run is healthy. */
  markStreaming(): void;
  /** Kills the current run and reconnects with backoff. */
  fail(reason: string): void;
  /** The running process's id, if any (tests). */
  pid(): number | undefined;
}

const STDERR_TAIL_CHARS = 4000;
const KILL_GRACE_MS = 3000;

export function createSupervisedProcess(options: SupervisedProcessOptions): SupervisedProcess {
  const { name, command, log, onStdout, onStatus } = options;
  const mask = options.mask ?? ((text: string) => text);
  const stallMs = options.stallMs ?? 10_000;
  const initialMs = options.backoff?.initialMs ?? 1000;
  const maxMs = options.backoff?.maxMs ?? 30_000;
  const resetAfterMs = options.backoff?.resetAfterMs ?? 60_000;
  const now = options.now ?? Date.now;

  let running = false;
  let child: ChildProcess | undefined;
  let current: StreamStatus = 'connecting';
  let currentReason: string | undefined;
  let delayMs = initialMs;
  let streamingSince: number | undefined;
  let failure: string | undefined;
  let stderrTail = '';
  let stallTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let exited: Promise<void> = Promise.resolve();

  function setStatus(status: StreamStatus, reason?: string): void {
    if (status === current && reason === currentReason) return;
    current = status;
    currentReason = reason;
    onStatus(status, reason);
  }

  function run(): void {
    retryTimer = undefined;
    if (!running) return;
    failure = undefined;
    stderrTail = '';
    streamingSince = undefined;
    options.onSpawn?.();
    const proc = spawn(command, options.args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let settle!: () => void;
    exited = new Promise((resolve) => (settle = resolve));
    stallTimer = setTimeout(() => fail(`no data for ${Math.round(stallMs / 1000)} s`), stallMs);
    proc.stdout.on('data', (chunk: Buffer) => {
      if (child !== proc || failure !== undefined) return;
      stallTimer?.refresh();
      try {
        onStdout(chunk);
      } catch (err) {
        fail(err instanceof Error ? err.message : String(err));
      }
    });
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    const finished = (why: string): void => {
      settle();
      if (child !== proc) return;
      child = undefined;
      clearTimeout(stallTimer);
      if (!running) return;
      fail(why);
      scheduleRetry();
    };
    proc.once('error', (err) => {
      // A process that never started (no binary) emits no 'close'.
      if (proc.pid === undefined) finished(`cannot start ffmpeg: ${err.message}`);
    });
    proc.once('close', (code, signal) => {
      const lastLine = stderrTail.trim().split('\n').pop()?.trim();
      finished(`ffmpeg exited (${signal ?? `code ${code}`})${lastLine ? `: ${lastLine}` : ''}`);
    });
  }

  function scheduleRetry(): void {
    if (!running || retryTimer) return;
    retryTimer = setTimeout(run, delayMs);
    delayMs = Math.min(delayMs * 2, maxMs);
  }

  function kill(proc: ChildProcess): void {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    // ffmpeg blocked on a dead socket may not notice SIGTERM.
    const hard = setTimeout(() => proc.kill('SIGKILL'), KILL_GRACE_MS);
    proc.once('close', () => clearTimeout(hard));
  }

  function fail(reason: string): void {
    if (!running || failure !== undefined) return;
    const masked = mask(reason);
    failure = masked;
    clearTimeout(stallTimer);
    if (streamingSince !== undefined && now() - streamingSince >= resetAfterMs) delayMs = initialMs;
    log.warn(
      { stream: name, reason: masked, retryInMs: delayMs, stderr: mask(stderrTail.trim()) || undefined },
      'camera stream failed; reconnecting',
    );
    setStatus('reconnecting', masked);
    if (child) kill(child);
    else scheduleRetry();
  }

  return {
    start() {
      if (running) return;
      running = true;
      delayMs = initialMs;
      current = 'connecting';
      currentReason = undefined;
      onStatus('connecting');
      run();
    },
    async stop() {
      running = false;
      clearTimeout(stallTimer);
      clearTimeout(retryTimer);
      retryTimer = undefined;
      if (child) kill(child);
      await exited;
    },
    status: () => current,
    markStreaming() {
      if (!running || failure !== undefined) return;
      streamingSince ??= now();
      setStatus('streaming');
    },
    fail,
    pid: () => child?.pid,
  };
}

/** Hides the login of any URL (`rtsp://user:pass@host` → `rtsp://***@host`) and the given secrets. */
export function maskSecrets(text: string, secrets: (string | undefined)[] = []): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@'"]+@/gi, '$1***@');
  for (const secret of secrets) {
    if (!secret || secret.length < 3) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}
