import type { Readable } from 'node:stream';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import { commonErrors } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import { memoryErrors } from '../memories/memories.module.js';
import type { MemoryImageEvent } from '../../platform/events.js';
import type { FaceEmbeddingsRepository } from './face-embeddings.repository.js';
import type { FaceExample } from './face-match.js';

export interface FaceEmbeddingsServiceDeps {
  repo: FaceEmbeddingsRepository;
  vision: Pick<VisionEngine, 'embedFaces'>;
  storage: Pick<ObjectStorage, 'get'>;
  events: EventBus;
  /** Queues a photo's embedding as a durable job (`recognition.learn-faces`), so a restart does not lose it. */
  enqueue: (photo: MemoryImageEvent) => Promise<void>;
  log: Logger;
  now?: () => Date;
}

/** face-api's descriptor length. */
export const DESCRIPTOR_LENGTH = 128;
/** A stored memory photo is a re-encoded JPEG of at most 2560 px; anything far larger is not one. */
const MAX_PHOTO_BYTES = 32 * 1024 * 1024;

async function readAll(body: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buf.length;
    if (size > limit) {
      body.destroy();
      throw new Error(`the photo is larger than ${limit} bytes`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function isDescriptor(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.length === DESCRIPTOR_LENGTH &&
    value.every((n) => typeof n === 'number' && Number.isFinite(n))
  );
}

/**
 * The face examples of people memories. Every face in a people memory's photo is embedded when the photo is
 * added and dropped when it is removed (the memory's deletion cascades). Embedding runs as a durable job
 * after the upload has been answered, so a restart in between does not lose it. Corrections from the AI pipeline ("that's Rose" / "not Rose") add examples too.
 */
export function createFaceEmbeddingsService(deps: FaceEmbeddingsServiceDeps) {
  const { repo, vision, storage, events, log } = deps;
  const now = deps.now ?? (() => new Date());
  // Photos queued by this instance and not yet done; `idle()` waits for them (tests, shutdown).
  let outstanding = 0;
  let settledWaiters: (() => void)[] = [];
  let closed = false;

  function settleOne(): void {
    outstanding = Math.max(0, outstanding - 1);
    if (outstanding > 0) return;
    for (const resolve of settledWaiters) resolve();
    settledWaiters = [];
  }

  async function learnPhoto(e: MemoryImageEvent): Promise<void> {
    const object = await storage.get(e.storageKey);
    if (!object) {
      log.info({ memoryId: e.memoryId, imageId: e.imageId }, 'memory photo gone before its faces were read');
      return;
    }
    const faces = await vision.embedFaces(await readAll(object.body, MAX_PHOTO_BYTES));
    const kept = await repo.replaceForImage(
      e.userId,
      e.memoryId,
      e.imageId,
      faces.map((f) => f.descriptor),
    );
    log.info(
      { memoryId: e.memoryId, imageId: e.imageId, faces: faces.length },
      kept ? 'faces of a memory photo learnt' : 'memory photo removed before its faces were stored',
    );
  }

  // Embedding takes a second or two of model time, so the upload is answered first and a job does it.
  events.on('memory.image_added', async (e) => {
    if (e.category !== 'people' || closed) return;
    outstanding++;
    try {
      await deps.enqueue(e);
    } catch (err) {
      settleOne();
      log.error({ err, memoryId: e.memoryId, imageId: e.imageId }, 'could not queue a memory photo’s faces');
    }
  });

  events.on('memory.image_removed', async (e) => {
    if (e.category !== 'people') return;
    await repo.deleteForImage(e.userId, e.imageId);
  });

  function idle(): Promise<void> {
    if (outstanding === 0) return Promise.resolve();
    return new Promise((resolve) => settledWaiters.push(resolve));
  }

  return {
    /** Every face example of the user's live people memories, with the memory's name, for `matchFace`. */
    listForUser(userId: string): Promise<FaceExample[]> {
      return repo.listForUser(userId, now());
    },

    /**
     * Learns from the owner's answer about a face of an activity: a face confirmed as this person joins their
     * examples; with `negative`, a face said not to be them vetoes them for faces like it.
     */
    async addCorrection(
      userId: string,
      memoryId: string,
      descriptor: number[],
      options: { negative: boolean; activityId?: string | null },
    ): Promise<void> {
      if (!isDescriptor(descriptor)) {
        throw memoryErrors.invalid(`A face descriptor is ${DESCRIPTOR_LENGTH} finite numbers`);
      }
      if (!(await repo.isLivePerson(userId, memoryId, now()))) throw memoryErrors.notFound();
      const activityId = options.activityId ?? null;
      if (activityId && !(await repo.ownsActivity(userId, activityId)))
        throw commonErrors.notFound('Activity');
      await repo.addCorrection(userId, memoryId, descriptor, { negative: options.negative, activityId });
    },

    /**
     * The `recognition.learn-faces` job: every face of one photo. A photo whose faces cannot be read is logged and
     * keeps no examples (re-adding it tries again); a crash mid-way leaves the job to run at the next start.
     */
    async learn(photo: MemoryImageEvent): Promise<void> {
      try {
        await learnPhoto(photo);
      } catch (err) {
        log.error(
          { err, memoryId: photo.memoryId, imageId: photo.imageId },
          'could not learn the faces of a memory photo',
        );
      } finally {
        settleOne();
      }
    },

    /** Resolves once the photos this instance queued are done (tests). */
    idle,

    /** Queues no new photos; queued ones stay in the job queue for the next start. */
    close(): void {
      closed = true;
    },
  };
}
export type FaceEmbeddingsService = ReturnType<typeof createFaceEmbeddingsService>;
