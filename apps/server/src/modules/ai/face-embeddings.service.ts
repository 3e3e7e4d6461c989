import type { Readable } from 'node:stream';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { VisionEngine } from '../../adapters/vision/vision.js';
import { commonErrors } from '../../platform/errors.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import { memoryErrors } from '../memories/memories.errors.js';
import type { MemoryImageEvent } from '../memories/memories.events.js';
import '../memories/memories.events.js';
import type { FaceEmbeddingsRepository } from './face-embeddings.repository.js';
import type { FaceExample } from './recognition.js';

export interface FaceEmbeddingsServiceDeps {
  repo: FaceEmbeddingsRepository;
  vision: Pick<VisionEngine, 'embedFaces'>;
  storage: Pick<ObjectStorage, 'get'>;
  events: EventBus;
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
 * added and dropped when it is removed (the memory's deletion cascades). Embedding takes a second or two of
 * model time, so it runs after the upload has been answered; a failure is logged and the photo keeps no
 * examples. Corrections from the AI pipeline ("that's Rose" / "not Rose") add examples too.
 */
export function createFaceEmbeddingsService(deps: FaceEmbeddingsServiceDeps) {
  const { repo, vision, storage, events, log } = deps;
  const now = deps.now ?? (() => new Date());
  const pending = new Set<Promise<void>>();
  let closed = false;

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

  events.on('memory.image_added', (e) => {
    if (e.category !== 'people' || closed) return;
    // Not awaited: the event is emitted inside the upload request, which must not wait for the models.
    const task: Promise<void> = learnPhoto(e)
      .catch((err: unknown) => {
        log.error(
          { err, memoryId: e.memoryId, imageId: e.imageId },
          'could not learn the faces of a memory photo',
        );
      })
      .finally(() => pending.delete(task));
    pending.add(task);
  });

  events.on('memory.image_removed', async (e) => {
    if (e.category !== 'people') return;
    await repo.deleteForImage(e.userId, e.imageId);
  });

  async function idle(): Promise<void> {
    while (pending.size > 0) await Promise.allSettled([...pending]);
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

    /** Resolves once the photos being embedded are done (tests; shutdown). */
    idle,

    /** Takes no new photos and waits for those under way (close the vision engine after this). */
    async close(): Promise<void> {
      closed = true;
      await idle();
    },
  };
}
export type FaceEmbeddingsService = ReturnType<typeof createFaceEmbeddingsService>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The vision engine, for the AI pipeline's wiring (closed with the app). */
    vision: VisionEngine;
    /** Face examples of people memories, for the AI pipeline (`listForUser`, `addCorrection`). */
    faceEmbeddings: FaceEmbeddingsService;
  }
}
