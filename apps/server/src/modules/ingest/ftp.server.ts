import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { once, type EventEmitter } from 'node:events';
import type { AddressInfo, Server, Socket } from 'node:net';
import { posix } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { FtpSrv, type FileSystem, type FtpConnection } from 'ftp-srv';
import type { Logger } from '../../platform/logger.js';
import { createLoginFailures } from '../../platform/rate-limiter.js';
import { cameraNameFromFtpPath } from './camera-name.js';
import { UploadRefusedError } from './ingest.errors.js';
import type { IngestService } from './ingest.service.js';
import { quietLibraryLog } from './library-log.js';

export interface FtpIngestOptions {
  ingest: Pick<IngestService, 'acceptUpload'>;
  verify: (username: string, password: string) => Promise<string | null>;
  log: Logger;
  host: string;
  port: number;
  pasvMin: number;
  pasvMax: number;
  /**
   * Address (or name of one) passive-mode clients connect to. Unset: the address the client's control
   * connection reached. Clients on this machine (loopback) always get the address they reached.
   */
  publicHost?: string | undefined;
  /** Open passive listeners one login may hold over all its sessions (each session holds one at most). */
  pasvPerUser: number;
  /** Open passive listeners the sessions from one client address may hold together. */
  pasvPerAddress: number;
  tls?: { certFile: string; keyFile: string } | undefined;
}

export interface FtpIngestServer {
  port: number;
  /**
   * Stops taking connections and commands (421), lets running commands finish with their answer (a STOR:
   * its 226 once committed; up to `timeoutMs`), then says 421 to everyone and closes their connections.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** What the next 550 of a connection's failed STOR becomes (ftp-srv answers every failed STOR with 550). */
interface PendingReply {
  code: number;
  message: string;
}

/** Bytes of a too-large upload read (and dropped) after refusing it before the transfer is cut off. */
const MAX_DISCARD_BYTES = 256 * 1024 * 1024;

/** ftp-srv replies 550 with the message of whatever a file system method throws. */
const refused = (message: string) => new Error(message);

const stat = (name: string, isDirectory: boolean, size = 0) => ({
  name,
  size,
  mode: isDirectory ? 0o40755 : 0o100644,
  mtime: new Date(),
  uid: 0,
  gid: 0,
  nlink: 1,
  isDirectory: () => isDirectory,
});

/**
 * The one user's view of the FTP server: an empty, virtual root. Folders can be made and entered (cameras
 * create date folders and change into them) but nothing is ever listed, read, renamed or deleted, and no
 * path reaches a real directory: every path is resolved as text inside `/`, where `..` stops.
 */
class CameraUploadFileSystem {
  private cwd = '/';
  /** Files stored in this session and their sizes, so a camera that checks SIZE after STOR sees its file. */
  private readonly stored = new Map<string, number>();
  pendingReply: PendingReply | undefined;

  constructor(
    private readonly userId: string,
    private readonly deps: Pick<FtpIngestOptions, 'ingest' | 'log'>,
  ) {}

  private resolve(path = '.'): string {
    return posix.resolve('/', this.cwd, path.replace(/\\/g, '/'));
  }

  currentDirectory(): string {
    return this.cwd;
  }

  get(fileName: string) {
    const path = this.resolve(fileName);
    const size = this.stored.get(path);
    if (size !== undefined) return stat(posix.basename(path), false, size);
    // Any folder "exists" (empty); no other file does.
    if (path === '/' || !posix.extname(path)) return stat(posix.basename(path) || '/', true);
    throw refused('No such file');
  }

  list(): unknown[] {
    return [];
  }

  chdir(path?: string): string {
    this.cwd = this.resolve(path);
    return this.cwd;
  }

  mkdir(path: string): string {
    return this.resolve(path);
  }

  read(): never {
    throw refused('Downloads are not available');
  }

  delete(): never {
    throw refused('Permission denied');
  }

  rename(): never {
    throw refused('Permission denied');
  }

  chmod(): never {
    throw refused('Permission denied');
  }

  getUniqueName(): string {
    return `upload-${Date.now()}.bin`;
  }

  write(fileName: string, options: { append?: boolean; start?: number } = {}) {
    if (options.append || (options.start ?? 0) > 0)
      throw refused('Appending and resuming are not supported; send the whole file');
    const clientPath = this.resolve(fileName);
    const body = new PassThrough();
    const accepted = this.deps.ingest.acceptUpload({
      userId: this.userId,
      cameraName: cameraNameFromFtpPath(clientPath),
      source: 'ftp',
      originalName: posix.basename(clientPath),
      file: body,
    });
    accepted.then(
      (upload) => {
        if (this.stored.size >= 100) this.stored.clear();
        this.stored.set(clientPath, upload.sizeBytes);
      },
      () => undefined,
    );

    // The stream ftp-srv writes the data connection into. It finishes only when the upload is committed, and
    // ftp-srv answers 226 on "finish": the acknowledgement promises the upload is stored.
    let refusal: Error | undefined;
    let discarded = 0;
    /** The data connection broke before the file was whole (ftp-srv destroys the stream then). */
    let cutOff = false;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        // Refused as too large while bytes still arrive: read the rest without keeping it, so the camera
        // gets a clean 552 instead of a reset connection; a sender that goes on and on is cut off.
        if (refusal) {
          discarded += chunk.length;
          return cb(discarded > MAX_DISCARD_BYTES ? refusal : null);
        }
        if (body.write(chunk)) cb();
        else body.once('drain', () => cb());
      },
      final(cb) {
        body.end();
        accepted.then(
          () => cb(),
          (err: unknown) => cb(err as Error),
        );
      },
      destroy(err, cb) {
        if (err && !refusal) cutOff = true;
        body.destroy(err ?? undefined);
        cb(err);
      },
    });
    accepted.catch((err: unknown) => {
      this.pendingReply =
        err instanceof UploadRefusedError
          ? { code: err.reason === 'too_large' ? 552 : 553, message: err.message }
          : { code: 451, message: 'The upload could not be stored; send it again' };
      if (err instanceof UploadRefusedError && err.reason === 'too_large') {
        refusal = err;
        // A write waiting for the spool, which is gone now, goes on discarding.
        body.emit('drain');
        return;
      }
      if (cutOff)
        this.deps.log.info({ userId: this.userId }, 'FTP upload cut off by the camera; nothing kept');
      else if (!(err instanceof UploadRefusedError))
        this.deps.log.error({ err, userId: this.userId }, 'FTP upload failed');
      if (!sink.writableFinished) sink.destroy(err as Error);
    });
    // ftp-srv ends the transfer by emitting "close" on a stream that listens for it (pipe does).
    sink.once('close', () => {
      if (!sink.destroyed && !sink.writableEnded) sink.end();
    });
    // Errors reach ftp-srv through its own listener; this one keeps a late second error from crashing.
    sink.on('error', () => undefined);
    return { stream: sink, clientPath };
  }
}

/**
 * The IPv4 address a PASV reply carries (four numbers, not a name) for the configured `host`, looked up when
 * first needed so a name that does not resolve yet does not stop the server; until it does, undefined (the
 * reply then carries the address the client reached). EPSV, which most clients try first, carries no address.
 */
function configuredPassiveAddress(host: string | undefined, log: Logger): () => Promise<string | undefined> {
  let resolved: string | undefined;
  let warned = false;
  return async () => {
    if (!host || resolved) return resolved;
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return (resolved = host);
    try {
      return (resolved = (await lookup(host, { family: 4 })).address);
    } catch (err) {
      if (!warned)
        log.warn({ err, host }, 'FTP passive host does not resolve; set FTP_PUBLIC_HOST to an IPv4 address');
      warned = true;
      return undefined;
    }
  };
}

const unmapped = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
const isLoopback = (ip: string) => ip === '::1' || unmapped(ip).startsWith('127.');

/**
 * Where a passive client is told to connect: a client on this machine to the address it reached (the public
 * address may not loop back); others to the configured address when there is one, else also to the address
 * they reached, which is the one address of this server known to be reachable from them.
 */
export function passiveAddressFor(
  control: { localAddress: string; remoteAddress: string },
  configured: string | undefined,
): string {
  const local = unmapped(control.localAddress);
  if (isLoopback(control.remoteAddress) || !configured) return local;
  return configured;
}

export async function startFtpIngest(options: FtpIngestOptions): Promise<FtpIngestServer> {
  const { log } = options;
  const publicAddress = configuredPassiveAddress(options.publicHost, log);
  const failedLogins = createLoginFailures();
  const connections = new Set<FtpConnection>();
  const commandsRunning = new Set<Promise<unknown>>();
  /** The user each signed-in session belongs to (for the per-user cap of passive listeners). */
  const userOf = new WeakMap<FtpConnection, string>();
  /** Sessions between accepting a PASV/EPSV and its listener being set up (they count as holding one). */
  const opening = new Set<FtpConnection>();
  let draining = false;

  /**
   * Before ftp-srv takes a PASV/EPSV: the session's previous listener is closed (ftp-srv would leave it open
   * for 30 s, so one session could take every port), and a session over the user's or its address's cap of
   * open listeners is answered 425 with the reason. Answers true when the command may go on.
   */
  async function admitPassive(connection: FtpConnection): Promise<boolean> {
    await closePassiveListener(connection);
    const userId = userOf.get(connection);
    if (!userId) return true; // not signed in: ftp-srv answers 530
    let ofUser = 0;
    let ofAddress = 0;
    for (const other of connections) {
      if (other === connection || !(opening.has(other) || holdsPassiveListener(other))) continue;
      if (userOf.get(other) === userId) ofUser += 1;
      if (other.ip === connection.ip) ofAddress += 1;
    }
    const over =
      ofUser >= options.pasvPerUser
        ? `this login has ${options.pasvPerUser} passive connections open, the most it may`
        : ofAddress >= options.pasvPerAddress
          ? `your address has ${options.pasvPerAddress} passive connections open, the most it may`
          : undefined;
    if (!over) return true;
    log.info({ userId, ip: connection.ip, ofUser, ofAddress }, 'FTP passive connection refused: cap reached');
    await connection.reply(425, `Too many transfers at once: ${over}; send again when one is done`);
    return false;
  }

  // ftp-srv quits the process on SIGTERM/SIGINT itself; the app drains it in order instead.
  const signalListeners = new Map(
    (['SIGTERM', 'SIGINT', 'SIGQUIT'] as const).map((s) => [s, new Set(process.listeners(s))]),
  );
  const server = new FtpSrv({
    url: `ftp://${options.host}:${options.port}`,
    pasv_min: options.pasvMin,
    pasv_max: options.pasvMax,
    // ftp-srv knows only the client's address when it writes a PASV reply, but the address of the control
    // connection decides: the reply carries a placeholder that writePassiveAddress replaces per connection.
    // (The function form, untyped in ftp-srv, keeps it from putting a loopback client's own address there.)
    pasv_url: (() => PASV_PLACEHOLDER) as unknown as string,
    greeting: 'Homesitter camera uploads',
    anonymous: false,
    tls: options.tls
      ? { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) }
      : false,
    log: quietLibraryLog(log.child({ component: 'ftp' })),
    timeout: 5 * 60_000,
  });
  for (const [signal, before] of signalListeners)
    for (const listener of process.listeners(signal))
      if (!before.has(listener)) process.off(signal, listener);

  server.on('login', ({ connection, username, password }, resolve, reject) => {
    const ip = connection.ip;
    if (failedLogins.retryAfter(ip, username) > 0) {
      reject(new Error('Too many failed logins; try again in a minute'));
      return;
    }
    options.verify(username, password).then(
      (userId) => {
        if (!userId) {
          failedLogins.failed(ip, username);
          log.info({ ip, username: username.slice(0, 40) }, 'FTP login refused');
          reject(new Error('Login incorrect'));
          return;
        }
        failedLogins.succeeded(ip, username);
        const fs = new CameraUploadFileSystem(userId, options);
        userOf.set(connection, userId);
        interceptFailedStorReply(connection, fs);
        resolve({ fs: fs as unknown as FileSystem });
      },
      (err: unknown) => {
        log.error({ err }, 'FTP login check failed');
        // Not a wrong login: it could not be checked (the database is down or restarting). PASS would say
        // 530, which tells a camera its login is wrong; 421 says "not now, try again".
        answerNextAs(connection, 530, 421, 'Service not available; try again in a moment');
        reject(new Error('Login failed; try again'));
      },
    );
  });
  // "connect" is missing from ftp-srv's typings; it comes before the connection's first command.
  (server as unknown as EventEmitter).on('connect', ({ connection }: { connection: FtpConnection }) => {
    connections.add(connection);
    writePassiveAddress(connection, publicAddress);
    guardCommands(connection, {
      draining: () => draining,
      running: commandsRunning,
      beforePassive: async () => {
        opening.add(connection);
        const admitted = await admitPassive(connection).catch((err: unknown) => {
          opening.delete(connection);
          throw err;
        });
        if (!admitted) opening.delete(connection);
        return admitted && (() => opening.delete(connection));
      },
    });
  });
  server.on('disconnect', ({ connection }) => connections.delete(connection));
  server.on('client-error', ({ error }) => log.debug({ err: error }, 'FTP client error'));

  await server.listen();
  // The listening socket (untyped in ftp-srv): its port when asked for 0, and closing it first on drain.
  const listener = (server as unknown as { server: Server }).server;
  const port = (listener.address() as AddressInfo).port;
  log.info(
    { port, passive: `${options.pasvMin}-${options.pasvMax}`, tls: Boolean(options.tls) },
    'FTP ingest listening',
  );

  return {
    port,
    async close(timeoutMs = 15_000) {
      // No new connections; and on the open ones no new command is taken (below): 421.
      draining = true;
      listener.close();
      // Every command running gets its answer first: an upload's STOR runs until its 226 (or its error)
      // is written, so a committed upload is never left unacknowledged.
      if (commandsRunning.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...commandsRunning]),
          new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
        ]);
        clearTimeout(timer);
      }
      await Promise.all([...connections].map((c) => sayGoodbye(c)));
      await server.close();
    },
  };
}

/** How long a client that was told 421 has to close its side before its connection is cut. */
const GOODBYE_MS = 2_000;

/**
 * 421, then an orderly close of the command connection (FIN, not a reset: a reset could discard the last
 * answer still on its way), waiting for the client's side to close.
 */
async function sayGoodbye(connection: FtpConnection): Promise<void> {
  const socket = (connection as unknown as { commandSocket?: Socket }).commandSocket;
  if (!socket || socket.destroyed) return;
  const closed = once(socket, 'close').catch(() => undefined);
  // Cut when the client does not close its side in time, or when the write of the 421 never completes
  // (a client that went away without closing).
  const timer = setTimeout(() => socket.destroy(), GOODBYE_MS);
  timer.unref();
  try {
    await Promise.race([connection.reply(421, 'Server shutting down; send again in a moment'), closed]);
  } catch {
    // the client is gone already
  }
  socket.end();
  await closed;
  clearTimeout(timer);
}

/** What ftp-srv writes into PASV replies; replaced per connection by writePassiveAddress. */
const PASV_PLACEHOLDER = '0.0.0.0';
const PLACEHOLDER_IN_REPLY = PASV_PLACEHOLDER.replace(/\./g, ',');

/** The parts of ftp-srv's data connector used here (untyped in ftp-srv). */
interface DataConnector {
  type: string | false;
  dataServer: Server | null;
  closeSocket(): void;
  closeServer(): void;
}
const connectorOf = (connection: FtpConnection) =>
  (connection as unknown as { connector?: DataConnector }).connector;

function holdsPassiveListener(connection: FtpConnection): boolean {
  const connector = connectorOf(connection);
  return connector?.type === 'passive' && connector.dataServer !== null;
}

/**
 * Closes the session's passive listener and its data connection, if any, and waits until the listener is
 * closed: ftp-srv resets the session's connector then, which must happen before a new one is set up, not
 * after. (A data connection left open, say one the client never sent a STOR on, would keep it open.)
 */
async function closePassiveListener(connection: FtpConnection): Promise<void> {
  const connector = connectorOf(connection);
  const server = connector?.type === 'passive' ? connector.dataServer : null;
  if (!connector || !server) return;
  const closed = once(server, 'close').catch(() => undefined);
  connector.closeSocket();
  connector.closeServer();
  await closed;
}

/** PASV replies of the connection carry the address passiveAddressFor chooses for it. */
function writePassiveAddress(connection: FtpConnection, configured: () => Promise<string | undefined>): void {
  const socket = (connection as unknown as { commandSocket: Socket }).commandSocket;
  const control = { localAddress: socket.localAddress ?? '', remoteAddress: socket.remoteAddress ?? '' };
  const reply = connection.reply.bind(connection);
  connection.reply = (options: number | object, ...letters: unknown[]) => {
    const text = letters[0];
    if (options !== 227 || typeof text !== 'string' || !text.includes(`(${PLACEHOLDER_IN_REPLY},`))
      return reply(options, ...letters);
    return configured().then((address) => {
      const host = passiveAddressFor(control, address).replace(/\./g, ',');
      return reply(227, text.replace(PLACEHOLDER_IN_REPLY, host), ...letters.slice(1));
    });
  };
}

/** A command's directive (ftp-srv hands its handler a line or a parsed command). */
function directiveOf(command: unknown): string {
  const raw = typeof command === 'string' ? command : (command as { directive?: string }).directive;
  return String(raw ?? '')
    .trim()
    .split(/\s+/)[0]!
    .toUpperCase();
}

/**
 * Runs a connection's commands through `guard`: while the server drains, a new command is answered 421 and
 * the connection closed; otherwise the command runs and is tracked until its answer is written. A PASV or
 * EPSV first passes `beforePassive`, which answers false when it refused the command itself, else a function
 * to call once the command is done.
 */
function guardCommands(
  connection: FtpConnection,
  guard: {
    draining: () => boolean;
    running: Set<Promise<unknown>>;
    beforePassive: () => Promise<false | (() => void)>;
  },
): void {
  const commands = (connection as unknown as { commands: { handle: (command: unknown) => unknown } })
    .commands;
  const handle = commands.handle.bind(commands);
  const run = async (command: unknown) => {
    if (!['PASV', 'EPSV'].includes(directiveOf(command))) return handle(command);
    const done = await guard.beforePassive();
    if (!done) return;
    try {
      return await handle(command);
    } finally {
      done();
    }
  };
  commands.handle = (command: unknown) => {
    if (guard.draining()) return sayGoodbye(connection);
    const running = run(command);
    guard.running.add(running);
    void running.finally(() => guard.running.delete(running)).catch(() => undefined);
    return running;
  };
}

/** ftp-srv answers a failed STOR with 550 and the error's text; the file system knows the right answer. */
/** The connection's next reply with code `from` is sent as `to` with `message` instead (once). */
function answerNextAs(connection: FtpConnection, from: number, to: number, message: string): void {
  const reply = connection.reply.bind(connection);
  connection.reply = (options: number | object, ...letters: unknown[]) => {
    if (options !== from) return reply(options, ...letters);
    connection.reply = reply;
    return reply(to, message);
  };
}

function interceptFailedStorReply(connection: FtpConnection, fs: CameraUploadFileSystem): void {
  const reply = connection.reply.bind(connection);
  connection.reply = (options: number | object, ...letters: unknown[]) => {
    const pending = fs.pendingReply;
    if (options === 550 && pending) {
      fs.pendingReply = undefined;
      return reply(pending.code, pending.message);
    }
    return reply(options, ...letters);
  };
}
