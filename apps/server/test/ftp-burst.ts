import { Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';

// Cameras uploading over FTP at once, as the crash, shutdown and fault tests drive them: each camera sends its
// files one after another on one connection, and a file that was not answered 226 (refused, or the
// connection broke) is sent again under a new name on a new connection after a short pause, as a camera
// does. Every answer is recorded: which names were acknowledged, and each refusal's code.
//
// Because a retried file gets a new name, a file stored under a name the camera heard refused (no 226) is a
// duplicate: the camera sent it again. `duplicatedUploads` counts those beside names stored twice.

export interface FtpLogin {
  username: string;
  password: string;
}

export interface BurstRefusal {
  name: string;
  camera: number;
  /** The FTP reply code, or undefined when the connection failed without one (refused, reset, timeout). */
  code: number | undefined;
  /** `performance.now()` of the answer. */
  at: number;
}

export interface BurstOptions {
  cameras: number;
  filesPerCamera: number;
  login: FtpLogin;
  /** Where to connect; asked at every (re)connection, so a test may move the cameras to another server. */
  port: () => number;
  body: Buffer;
  /** The folder of camera `i` (a camera is named by its folder). */
  folder?: (camera: number) => string;
  /** Tries of one file before the camera gives up (the burst then fails). */
  maxAttempts?: number;
  /** Pause before a refused file is sent again. */
  retryDelayMs?: number;
  /** Awaited before that pause (e.g. until a killed server is back). */
  beforeRetry?: () => Promise<void>;
  /** FTP client timeout (connect, each reply). */
  timeoutMs?: number;
  /** Told after every 226. */
  onAck?: (name: string, acked: readonly string[]) => void;
  /** Told after every refusal. */
  onRefusal?: (refusal: BurstRefusal) => void;
}

export interface BurstResult {
  /** Names answered 226, in order. */
  acked: string[];
  refusals: BurstRefusal[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function ftpBurst(options: BurstOptions): Promise<BurstResult> {
  const acked: string[] = [];
  const refusals: BurstRefusal[] = [];
  const maxAttempts = options.maxAttempts ?? 50;
  const folder = options.folder ?? ((i: number) => `Burst ${i}`);

  async function camera(i: number): Promise<void> {
    let client: Client | undefined;
    try {
      for (let n = 0; n < options.filesPerCamera; n++) {
        for (let attempt = 0; ; attempt++) {
          const name = `c${i}-${n}-a${attempt}.jpg`;
          try {
            if (!client) {
              client = new Client(options.timeoutMs ?? 15_000);
              await client.access({
                host: '127.0.0.1',
                port: options.port(),
                user: options.login.username,
                password: options.login.password,
              });
            }
            const res = await client.uploadFrom(Readable.from([options.body]), `/${folder(i)}/${name}`);
            if (res.code !== 226) throw new FTPError(res);
            acked.push(name);
            options.onAck?.(name, acked);
            break;
          } catch (err) {
            const refusal = {
              name,
              camera: i,
              code: err instanceof FTPError ? err.code : undefined,
              at: performance.now(),
            };
            refusals.push(refusal);
            options.onRefusal?.(refusal);
            client?.close();
            client = undefined;
            if (attempt + 1 >= maxAttempts)
              throw new Error(`camera ${i} gave up on file ${n}`, { cause: err });
            await options.beforeRetry?.();
            await sleep(options.retryDelayMs ?? 100);
          }
        }
      }
    } finally {
      client?.close();
    }
  }

  await Promise.all(Array.from({ length: options.cameras }, (_, i) => camera(i)));
  return { acked, refusals };
}

export interface Duplicates {
  /** Names with more than one stored row. */
  storedTwice: number;
  /** Names stored though the camera heard no acknowledgement (so it sent the file again, as a new name). */
  storedRefused: number;
  /** Both: every file the cameras' events hold twice. */
  duplicated: number;
}

/**
 * The duplicates among `stored` (one entry per stored row, by the name the camera gave it) when `refused`
 * are the names a camera was not told were received; the fault tests' `tally()` counts with this rule too.
 */
export function duplicatedUploads(stored: readonly string[], refused: readonly string[]): Duplicates {
  const count = new Map<string, number>();
  for (const name of stored) count.set(name, (count.get(name) ?? 0) + 1);
  const storedTwice = [...count.values()].filter((n) => n > 1).length;
  const storedRefused = new Set(refused.filter((name) => count.has(name))).size;
  return { storedTwice, storedRefused, duplicated: storedTwice + storedRefused };
}
