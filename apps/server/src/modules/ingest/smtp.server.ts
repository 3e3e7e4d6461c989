import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../../platform/logger.js';
import { createLoginFailures } from '../../platform/rate-limiter.js';
import { normalizeCameraName } from '../cameras/cameras.module.js';
import { UploadRefusedError, type UploadRefusalReason } from './ingest.errors.js';
import type { IngestService, PreparedUpload } from './ingest.service.js';
import { quietLibraryLog } from './library-log.js';
import { bufferSource, sniffMedia } from './media-sniff.js';

export interface SmtpIngestOptions {
  ingest: Pick<IngestService, 'prepare' | 'commit' | 'discard' | 'recordRefusal'>;
  verify: (username: string, password: string) => Promise<string | null>;
  log: Logger;
  host: string;
  port: number;
  /** The server's name in its greeting (the host cameras are told to mail to). */
  serverName: string;
  dataDir: string;
  maxBytes: number;
  tls?: { certFile: string; keyFile: string } | undefined;
}

export interface SmtpIngestServer {
  port: number;
  /**
   * Stops taking connections and commands (421), waits (up to `timeoutMs`) for the messages being stored to
   * be answered (250 once committed), then closes the sessions still open.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** An SMTP reply for the data callback: smtp-server sends `responseCode` and the message. */
const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1';

/** The camera a mail is from: the sender's display name, else the subject, else "Camera". */
function cameraOf(email: Email): string {
  const from = email.from;
  const name = from && 'name' in from ? from.name : '';
  return normalizeCameraName(name?.trim() ? name : email.subject);
}

/**
 * The parsed message. What cannot be parsed (MIME nested deeper than any camera writes, headers larger than
 * any camera sends) is refused for good, 554: a 4xx would make the camera send it again forever.
 */
async function readMessage(path: string): Promise<Email> {
  try {
    return await PostalMime.parse(Readable.toWeb(createReadStream(path)), {
      attachmentEncoding: 'arraybuffer',
      maxNestingDepth: MAX_MIME_DEPTH,
      maxHeadersSize: MAX_HEADER_BYTES,
    });
  } catch (err) {
    throw smtpError(554, `The message could not be read: ${(err as Error).message}`.slice(0, 200));
  }
}

/** Cameras write a flat message: one multipart with a few parts. */
const MAX_MIME_DEPTH = 16;
const MAX_HEADER_BYTES = 256 * 1024;

/**
 * Copies the message to a spool file, at most `maxBytes`; past that it keeps reading (the client is still
 * sending) but writes nothing more. Answers whether it was too large.
 */
async function spoolMessage(stream: SMTPServerDataStream, path: string, maxBytes: number): Promise<boolean> {
  let size = 0;
  const file = createWriteStream(path, { mode: 0o600 });
  const bounded = new Writable({
    write(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) return cb();
      if (file.write(chunk)) cb();
      else file.once('drain', () => cb());
    },
    final(cb) {
      file.end(() => cb());
    },
    destroy(err, cb) {
      file.destroy();
      cb(err);
    },
  });
  await pipeline(stream, bounded);
  return size > maxBytes || stream.sizeExceeded;
}

/**
 * The mail way in: cameras that send motion snapshots and clips by email sign in (AUTH PLAIN/LOGIN) with
 * the user's camera upload login, and every image or video attachment becomes an upload. 250 is answered
 * only after all of them are stored and committed; a message with none is refused (554).
 */
export async function startSmtpIngest(options: SmtpIngestOptions): Promise<SmtpIngestServer> {
  const { ingest, log, maxBytes } = options;
  const spoolDir = join(options.dataDir, 'ingest-spool');
  await mkdir(spoolDir, { recursive: true });
  const failedLogins = createLoginFailures();
  const running = new Set<Promise<unknown>>();
  const tls = options.tls && {
    cert: readFileSync(options.tls.certFile),
    key: readFileSync(options.tls.keyFile),
  };

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string> {
    const userId = session.user as string;
    const path = join(spoolDir, `${randomUUID()}.eml`);
    const prepared: PreparedUpload[] = [];
    try {
      if (await spoolMessage(stream, path, maxBytes))
        throw smtpError(
          552,
          `Message exceeds the maximum size of ${Math.floor(maxBytes / (1024 * 1024))} MB`,
        );
      const email = await readMessage(path);
      const cameraName = cameraOf(email);
      let refusal: UploadRefusalReason | undefined;
      for (const attachment of email.attachments) {
        const bytes = Buffer.from(attachment.content as ArrayBuffer);
        // Signatures, logos and text parts are not refusals, just not uploads; media that fails the check is.
        const sniffed = await sniffMedia(bufferSource(bytes));
        if (!sniffed.ok) {
          if (/^(image|video)\//i.test(attachment.mimeType) || sniffed.reason !== 'not_media')
            refusal ??= sniffed.reason;
          continue;
        }
        prepared.push(
          await ingest.prepare({
            userId,
            cameraName,
            source: 'smtp',
            originalName: attachment.filename ?? `attachment.${sniffed.media.ext}`,
            file: Readable.from([bytes]),
          }),
        );
      }
      if (prepared.length === 0) {
        const reason = refusal ?? 'not_media';
        await ingest.recordRefusal(
          { userId, source: 'smtp', originalName: email.subject ?? '(no subject)' },
          new UploadRefusedError(reason, maxBytes),
        );
        throw smtpError(
          554,
          refusal
            ? `No acceptable attachment: ${new UploadRefusedError(reason, maxBytes).message}`
            : 'No image or video attachment (JPEG, PNG, MP4, MOV, MKV or AVI) in this message',
        );
      }
      const accepted = await ingest.commit(prepared.splice(0));
      return `Stored ${accepted.length} upload${accepted.length === 1 ? '' : 's'}`;
    } catch (err) {
      await ingest.discard(prepared);
      if ((err as { responseCode?: number }).responseCode) throw err;
      if (err instanceof UploadRefusedError) throw smtpError(554, err.message);
      log.error({ err, userId }, 'SMTP upload failed');
      throw smtpError(451, 'The message could not be stored; send it again');
    } finally {
      await rm(path, { force: true });
    }
  }

  const server = new SMTPServer({
    name: options.serverName,
    banner: 'Homesitter camera mail',
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    // Checked per connection in onAuth: plain-text logins only on loopback or when there is no certificate.
    allowInsecureAuth: true,
    ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'] }),
    size: maxBytes,
    // close() below ends the connections itself once every message being stored has had its answer; this
    // library's own cut (421 to everyone after closeTimeout) could come between a commit and its 250.
    closeTimeout: 60 * 60_000,
    logger: quietLibraryLog(log.child({ component: 'smtp' })) as never,
    onAuth(auth, session, callback) {
      if (tls && !session.secure && !isLoopback(session.remoteAddress)) {
        callback(smtpError(538, 'Use STARTTLS before signing in'));
        return;
      }
      const ip = session.remoteAddress;
      const username = auth.username ?? '';
      if (failedLogins.retryAfter(ip, username) > 0) {
        callback(smtpError(454, 'Too many failed logins; try again in a minute'));
        return;
      }
      options.verify(username, auth.password ?? '').then(
        (userId) => {
          if (!userId) {
            failedLogins.failed(ip, username);
            log.info({ ip, username: username.slice(0, 40) }, 'SMTP login refused');
            callback(smtpError(535, 'Authentication failed'));
            return;
          }
          failedLogins.succeeded(ip, username);
          callback(null, { user: userId });
        },
        (err: unknown) => {
          log.error({ err }, 'SMTP login check failed');
          callback(smtpError(454, 'Temporary authentication failure'));
        },
      );
    },
    onData(stream, session, callback) {
      const job = receive(stream, session);
      running.add(job);
      job.then(
        (message) => callback(null, message),
        (err: Error) => callback(err),
      );
      void job.finally(() => running.delete(job)).catch(() => undefined);
    },
  });
  server.on('error', (err) => log.warn({ err }, 'SMTP ingest connection error'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  log.info({ port, starttls: Boolean(tls) }, 'SMTP ingest listening');

  return {
    port,
    async close(timeoutMs = 15_000) {
      // No new connections, and every command on the open ones is answered 421 from now on.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (running.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...running]),
          new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
        ]);
        clearTimeout(timer);
      }
      // Every message committed has had its 250 written; the sessions still open are told and closed.
      for (const connection of server.connections as Set<{
        send: (code: number, message: string) => void;
        close: () => void;
      }>) {
        connection.send(421, 'Server shutting down; send again in a moment');
        connection.close();
      }
      await closed;
    },
  };
}
