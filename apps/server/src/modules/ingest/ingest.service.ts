import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { Database } from '../../platform/db/client.js';
import type { CameraVerdict, UploadSource } from '../../platform/db/schema/ingest.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import { removeFilesOlderThan } from '../../platform/spool.js';
import { normalizeCameraName } from '../cameras/cameras.module.js';
import { userMediaPrefix } from '../media/media.module.js';
import type { BacklogGate } from './ingest.backlog.js';
import { UploadRefusedError } from './ingest.errors.js';
import type { IngestRepository, NewUploadRow } from './ingest.repository.js';
import { sniffFile, type SniffedMedia } from './media-sniff.js';

export interface UploadInput {
  userId: string;
  /** As the upload named it; normalised here. */
  cameraName: string;
  source: UploadSource;
  /** The file name the camera gave (kept for the record, never used to decide what the bytes are). */
  originalName: string;
  /** A file the caller owns (read, left in place) or a stream (spooled under DATA_DIR, then removed). */
  file: string | Readable;
  /**
   * When the event happened, where the sender knows better than the arrival: a stream camera's clip is
   * written after the motion ended, and must join the activity its motion snapshot started.
   */
  occurredAt?: Date;
  /** What the camera's maker said it saw (Nest's events), kept beside our analysis. */
  cameraVerdict?: CameraVerdict[];
  /**
   * The activity this file belongs to, where the sender knows it (a Nest clip preview of a session whose
   * activity exists): it joins that activity while it exists and has no clip, else it is grouped by time.
   */
  forActivityId?: string;
}

/** An event without media: what is known of it besides a file (see `acceptWithoutMedia`). */
export type EventInput = Omit<UploadInput, 'file' | 'forActivityId'>;

export interface AcceptedUpload {
  uploadId: string;
  cameraName: string;
  media: SniffedMedia;
  sizeBytes: number;
  /**
   * The camera sent this file again (same camera, name, size and bytes within the hour, say after a crash
   * between the commit and its acknowledgement): `uploadId` is the one stored first, nothing new was kept.
   */
  resent?: true;
}

/** An upload checked and spooled, not yet stored: commit it or discard it. */
export interface PreparedUpload {
  row: NewUploadRow;
  media: SniffedMedia;
  path: string;
  /** Whether `path` is our spool file (removed when done) rather than the caller's. */
  spooled: boolean;
}

export interface IngestServiceDeps {
  repo: IngestRepository;
  database: Database;
  storage: ObjectStorage;
  jobs: Jobs;
  log: Logger;
  dataDir: string;
  maxBytes: number;
  /** Age after which a stored upload file without a row is an orphan (a crash between store and commit). */
  orphanAgeSeconds: number;
  /** Holds commits back while too many acknowledged uploads wait for processing (see ingest.backlog.ts). */
  backlog?: BacklogGate;
  /**
   * Takes committed uploads straight to processing, in memory. Their `activities.process-upload` jobs are then
   * committed without waking the workers: they stay the durable fallback (a crash, a failed run), found by
   * the workers' poll and finding their uploads done, many per fetch, instead of costing a fetch each.
   */
  handOff?: (uploadIds: string[]) => void;
  now?: () => number;
}

/** Where stored uploads of a user live (covered by the per-user media clean-up on account deletion). */
export const uploadsPrefix = (userId: string) => `${userMediaPrefix(userId)}/uploads`;

/** SHA-256 of no bytes: an upload without media is "empty", so the re-send check knows it sent again. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** Uploads (requests) committed in one transaction at most. */
const MAX_GROUP_COMMIT = 64;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** Keeps log lines one line and short whatever a camera calls its files. */
const printable = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 120);

/**
 * The name kept for the record: control characters (a NUL cannot even be stored) are dropped rather than
 * the file refused, since the name never decides anything; nothing left is "upload".
 */
export function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const kept = name.replace(/[\x00-\x1f\x7f]/g, '');
  return kept.trim().slice(0, 255) || 'upload';
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The receiving half of camera ingest, shared by FTP, SMTP and HTTP. An upload is spooled to disk (clips
 * never sit in memory whole), sniffed, put on storage, and then its row and `activities.process-upload` job are
 * committed in one transaction. Only after that does the caller acknowledge (FTP 226, SMTP 250, HTTP 202),
 * so an acknowledged upload survives a crash; anything that fails earlier removes what it stored.
 */
export function createIngestService(deps: IngestServiceDeps) {
  const { repo, storage, jobs, log, maxBytes } = deps;
  const now = deps.now ?? Date.now;
  const spoolDir = join(deps.dataDir, 'ingest-spool');
  let spoolReady: Promise<unknown> | undefined;

  /** Logs one line and counts the refusal in the user's day (reason "refused"). */
  async function recordRefusal(
    input: Pick<UploadInput, 'userId' | 'source' | 'originalName'>,
    err: UploadRefusedError,
  ): Promise<void> {
    log.warn(
      { userId: input.userId, source: input.source, file: printable(input.originalName), reason: err.reason },
      'camera upload refused',
    );
    await repo
      .countRefusal(input.userId, utcDay(now()))
      .catch((e: unknown) => log.error({ err: e }, 'could not count a refused upload'));
  }

  /**
   * Copies the stream to a spool file, refusing it as soon as it passes the size limit, and hashes it on the
   * way (the hash tells a file sent again; reading the file back for it would cost a second pass).
   */
  async function spool(stream: Readable): Promise<{ path: string; sha256: string }> {
    spoolReady ??= mkdir(spoolDir, { recursive: true });
    await spoolReady;
    const path = join(spoolDir, `${randomUUID()}.part`);
    let size = 0;
    const hash = createHash('sha256');
    const limit = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > maxBytes) return cb(new UploadRefusedError('too_large', maxBytes));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(stream, limit, createWriteStream(path, { mode: 0o600 }));
      return { path, sha256: hash.digest('hex') };
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
  }

  /**
   * The rows and jobs of uploads, in one transaction: exactly when a row exists, its job does. An upload
   * that is a file sent again (see `findResent`), also twice within this group, gets neither: answers those
   * as a map from their row id to the upload stored first.
   */
  async function commitRows(rows: NewUploadRow[]): Promise<Map<string, string>> {
    return deps.database.db.transaction(async (tx) => {
      const resent = await repo.findResent(rows, tx);
      const firstOf = new Map<string, string>();
      for (const row of rows) {
        if (resent.has(row.id) || !row.contentSha256) continue;
        const key = JSON.stringify([
          row.userId,
          row.cameraName,
          row.originalName,
          row.sizeBytes,
          row.contentSha256,
        ]);
        const first = firstOf.get(key);
        if (first) resent.set(row.id, first);
        else firstOf.set(key, row.id);
      }
      const fresh = rows.filter((r) => !resent.has(r.id));
      await repo.insertUploads(fresh, tx);
      await jobs.sendMany(
        'activities.process-upload',
        fresh.map((r) => ({ uploadId: r.id })),
        { tx, wake: !deps.handOff },
      );
      return resent;
    });
  }

  // Group commit: uploads that finish while a transaction is running are committed together in the next
  // one. Each waits no longer than it would anyway, and under load the embedded database runs one
  // transaction for many uploads instead of one each (its per-transaction cost is what limits throughput).
  const waiting: {
    rows: NewUploadRow[];
    resolve: (resent: Map<string, string>) => void;
    reject: (err: unknown) => void;
  }[] = [];
  let committing = false;

  function groupCommit(rows: NewUploadRow[]): Promise<Map<string, string>> {
    return new Promise<Map<string, string>>((resolve, reject) => {
      waiting.push({ rows, resolve, reject });
      void drainCommits();
    });
  }

  async function drainCommits(): Promise<void> {
    if (committing) return;
    committing = true;
    try {
      while (waiting.length > 0) {
        const group = waiting.splice(0, MAX_GROUP_COMMIT);
        try {
          const resent = await commitRows(group.flatMap((g) => g.rows));
          for (const g of group) g.resolve(resent);
        } catch (err) {
          // One bad upload (say, of an account deleted meanwhile) must not fail the others: each alone.
          if (group.length === 1) group[0]!.reject(err);
          else for (const g of group) await commitRows(g.rows).then(g.resolve, g.reject);
        }
      }
    } finally {
      committing = false;
    }
  }

  async function removeStored(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        storage
          .delete(key)
          .catch((e: unknown) => log.error({ err: e, key }, 'could not remove a stored upload')),
      ),
    );
  }

  async function discard(prepared: PreparedUpload[]): Promise<void> {
    await Promise.all(prepared.filter((p) => p.spooled).map((p) => rm(p.path, { force: true })));
  }

  const service = {
    /** Spools (when given a stream) and sniffs one upload; refuses (and counts) what is not acceptable media. */
    async prepare(input: UploadInput): Promise<PreparedUpload> {
      const spooled = typeof input.file !== 'string';
      let path: string;
      let spooledSha256: string | undefined;
      try {
        if (typeof input.file === 'string') path = input.file;
        else ({ path, sha256: spooledSha256 } = await spool(input.file));
      } catch (err) {
        if (err instanceof UploadRefusedError) await recordRefusal(input, err);
        throw err;
      }
      try {
        const { size } = await stat(path);
        if (size > maxBytes) throw new UploadRefusedError('too_large', maxBytes);
        const sniffed = await sniffFile(path);
        if (!sniffed.ok) throw new UploadRefusedError(sniffed.reason, maxBytes);
        const id = randomUUID();
        const contentSha256 = spooledSha256 ?? (await sha256Of(path));
        return {
          path,
          spooled,
          media: sniffed.media,
          row: {
            id,
            userId: input.userId,
            cameraName: normalizeCameraName(input.cameraName),
            source: input.source,
            storageKey: `${uploadsPrefix(input.userId)}/${id}.${sniffed.media.ext}`,
            originalName: cleanFileName(input.originalName),
            mediaKind: sniffed.media.kind,
            contentType: sniffed.media.contentType,
            sizeBytes: size,
            contentSha256,
            ...(input.occurredAt ? { receivedAt: input.occurredAt } : {}),
            ...(input.cameraVerdict?.length ? { cameraVerdict: input.cameraVerdict } : {}),
            ...(input.forActivityId ? { forActivityId: input.forActivityId } : {}),
          },
        };
      } catch (err) {
        if (spooled) await rm(path, { force: true });
        if (err instanceof UploadRefusedError) await recordRefusal(input, err);
        throw err;
      }
    },

    /**
     * Stores the prepared uploads and commits their rows and jobs in one transaction; resolves only then.
     * On any failure what was stored is removed and the error is thrown: all of them or none.
     */
    async commit(prepared: PreparedUpload[]): Promise<AcceptedUpload[]> {
      const stored: string[] = [];
      const ids = prepared.map((p) => p.row.id);
      let admitted = false;
      let resent: Map<string, string>;
      try {
        await Promise.all(
          prepared.map(async (p) => {
            const key = p.row.storageKey!;
            await storage.putFile(key, p.path, p.media.contentType);
            stored.push(key);
          }),
        );
        // Stored, not yet committed: while processing is behind, the camera waits here for its answer.
        await deps.backlog?.admit(ids);
        admitted = true;
        resent = await groupCommit(prepared.map((p) => p.row));
      } catch (err) {
        if (admitted) for (const id of ids) deps.backlog?.settled(id);
        await removeStored(stored);
        throw err;
      } finally {
        await discard(prepared);
      }
      // A file sent again is acknowledged as the one stored first; its second copy goes.
      const again = prepared.filter((p) => resent.has(p.row.id));
      if (again.length > 0) {
        for (const p of again) deps.backlog?.settled(p.row.id);
        await removeStored(again.map((p) => p.row.storageKey!));
        log.info(
          { userId: again[0]!.row.userId, files: again.map((p) => printable(p.row.originalName)) },
          'camera upload sent again; acknowledged as the one already stored',
        );
      }
      const fresh = ids.filter((id) => !resent.has(id));
      // Committed (so durable): whatever the hand-off does, the jobs are there.
      try {
        if (fresh.length > 0) deps.handOff?.(fresh);
      } catch (err) {
        log.error({ err }, 'could not hand uploads to processing; their jobs will run them');
      }
      return prepared.map((p) => {
        const first = resent.get(p.row.id);
        return {
          uploadId: first ?? p.row.id,
          cameraName: p.row.cameraName,
          media: p.media,
          sizeBytes: p.row.sizeBytes,
          ...(first ? { resent: true as const } : {}),
        };
      });
    },

    discard,
    recordRefusal,

    /** Processing is done with an upload (whatever became of it): its place in the backlog is free. */
    uploadSettled(uploadId: string): void {
      deps.backlog?.settled(uploadId);
    },

    /** One upload, received whole: resolves when it is safe to acknowledge. */
    async acceptUpload(input: UploadInput): Promise<AcceptedUpload> {
      const prepared = await service.prepare(input);
      const [accepted] = await service.commit([prepared]);
      return accepted!;
    },

    /**
     * An event that comes without media (a Nest event that reached us after Google's picture had expired):
     * a row and its `activities.process-upload` job, committed like any upload's, with no bytes. It becomes
     * an activity without a picture, through the same processing (private mode, free events, grouping,
     * analysis, alert). Sent again with the same name within the hour, it is known as the one committed first.
     */
    async acceptWithoutMedia(input: EventInput): Promise<{ uploadId: string; resent?: true }> {
      const row: NewUploadRow = {
        id: randomUUID(),
        userId: input.userId,
        cameraName: normalizeCameraName(input.cameraName),
        source: input.source,
        storageKey: null,
        originalName: cleanFileName(input.originalName),
        mediaKind: 'none',
        contentType: null,
        sizeBytes: 0,
        contentSha256: EMPTY_SHA256,
        ...(input.occurredAt ? { receivedAt: input.occurredAt } : {}),
        ...(input.cameraVerdict?.length ? { cameraVerdict: input.cameraVerdict } : {}),
      };
      await deps.backlog?.admit([row.id]);
      let resent: Map<string, string>;
      try {
        resent = await groupCommit([row]);
      } catch (err) {
        deps.backlog?.settled(row.id);
        throw err;
      }
      const first = resent.get(row.id);
      if (first) {
        deps.backlog?.settled(row.id);
        return { uploadId: first, resent: true };
      }
      try {
        deps.handOff?.([row.id]);
      } catch (err) {
        log.error({ err }, 'could not hand an upload to processing; its job will run it');
      }
      return { uploadId: row.id };
    },

    /**
     * Leftovers of uploads cut off by a crash: stored files no row refers to (older than the orphan age, so
     * an upload between store and commit on another instance is left alone) and old spool files.
     */
    async sweepOrphans(): Promise<{ objects: number; spoolFiles: number }> {
      const cutoff = now() - deps.orphanAgeSeconds * 1000;
      let objects = 0;
      for (const userId of await repo.usersWithUploadLogin()) {
        const candidates: string[] = [];
        for await (const o of storage.list(uploadsPrefix(userId)))
          if (o.modifiedAt.getTime() < cutoff) candidates.push(o.key);
        for (let i = 0; i < candidates.length; i += 500) {
          const batch = candidates.slice(i, i + 500);
          const known = await repo.knownStorageKeys(userId, batch);
          for (const key of batch.filter((k) => !known.has(k))) {
            await storage.delete(key);
            objects += 1;
          }
        }
      }
      const spoolFiles = await removeFilesOlderThan(spoolDir, cutoff);
      if (objects + spoolFiles > 0)
        log.info({ objects, spoolFiles }, 'leftovers of interrupted uploads removed');
      return { objects, spoolFiles };
    },
  };
  return service;
}
export type IngestService = ReturnType<typeof createIngestService>;
