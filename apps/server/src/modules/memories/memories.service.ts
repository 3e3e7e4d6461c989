import { randomUUID } from 'node:crypto';
import {
  memoriesEndpoints,
  type Memories,
  type Memory,
  type MemoryBody,
  type MemoryCategory,
  type MemoryImage,
} from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import { serializeResponse, type SerializedResponse } from '../../platform/http/serialized.js';
import type { Logger } from '../../platform/logger.js';
import { createReadCache, type ReadCache } from '../../platform/read-cache.js';
import {
  processImage,
  sniffImageFile,
  UnreadableImageError,
  userMediaPrefix,
} from '../media/media.module.js';
import { memoryErrors } from './memories.errors.js';
import { memoryValues, parseMemoryInput } from './memories.input.js';
import { createMemoryRenderer } from './memories.render.js';
import type { MemoriesRepository, MemoryImageRow, MemoryRecord, MemoryRow } from './memories.repository.js';

/** What the memories need to know about the caller's profile. */
export interface MemoryOwner {
  id: string;
  timezone: string | null;
  isAmnesiaModeEnabled: boolean;
}

export interface MemoriesServiceDeps {
  repo: MemoriesRepository;
  storage: ObjectStorage;
  events: EventBus;
  log: Logger;
  /** Seconds a signed image URL lives (`MEDIA_URL_TTL`). */
  urlTtlSeconds: number;
  /** Photos a memory may hold (`MEMORY_PHOTO_LIMIT`). */
  photoLimit: number;
  /**
   * Each user's list as the JSON bytes sent, until this service changes one of their memories, photos or
   * property links (it is their only writer), the next memory in it expires, or its signed URLs' window
   * ends. Without one, every list is read and rendered again.
   */
  lists?: ReadCache<SerializedResponse>;
  now?: () => Date;
}

/** Memories of people, vehicles, animals and other notes, with photos (docs/product.md §3 "Memories"). */
export function createMemoriesService(deps: MemoriesServiceDeps) {
  const { repo, storage, events } = deps;
  const now = deps.now ?? (() => new Date());

  async function requireOwner(subject: string): Promise<MemoryOwner> {
    const owner = await repo.findOwner(subject);
    if (!owner) throw memoryErrors.notFound();
    return owner;
  }

  const lists = deps.lists ?? createReadCache<SerializedResponse>({ enabled: false, ttlMs: 0 });

  /** Runs a write of the user's memories; their cached list goes once it is done (or failed midway). */
  async function writing<T>(userId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      lists.invalidate(userId);
    }
  }

  const { render, renderImage, windowMs } = createMemoryRenderer({
    storage,
    urlTtlSeconds: deps.urlTtlSeconds,
    now,
  });
  const toValues = (input: ReturnType<typeof parseMemoryInput>, owner: MemoryOwner) =>
    memoryValues(input, owner, { ownedSiteIds: (userId, ids) => repo.ownedSiteIds(userId, ids), now });

  async function removeFiles(images: MemoryImageRow[]) {
    await Promise.all(
      images
        .flatMap((i) => [i.storageKey, i.thumbKey])
        .map((key) =>
          storage
            .delete(key)
            .catch((err: unknown) => deps.log.error({ err, key }, 'could not delete a media file')),
        ),
    );
  }

  async function announceRemoved(row: MemoryRow, images: MemoryImageRow[]) {
    for (const image of images) {
      await events.emit('memory.image_removed', {
        userId: row.userId,
        memoryId: row.id,
        category: row.category,
        imageId: image.id,
        storageKey: image.storageKey,
      });
    }
  }

  async function requireMemory(
    owner: MemoryOwner,
    category: MemoryCategory,
    id: string,
  ): Promise<MemoryRecord> {
    const rec = await repo.findLive(owner.id, category, id, now());
    if (!rec) throw memoryErrors.notFound();
    return rec;
  }

  /** Every live memory by category; expired short-term memories are left out even before the purge. */
  async function listFor(owner: MemoryOwner, at: Date): Promise<Memories> {
    const records = await repo.listLive(owner.id, at);
    const out: Memories = {
      people: [],
      vehicles: [],
      animals: [],
      general: [],
      is_amnesia_mode_enabled: owner.isAmnesiaModeEnabled,
    };
    const rendered = await Promise.all(records.map((r) => render(r, owner.timezone)));
    for (const m of rendered) {
      if (m.category === 'people') out.people.push(m);
      else if (m.category === 'vehicles') out.vehicles.push(m);
      else if (m.category === 'animals') out.animals.push(m);
      else out.general.push(m);
    }
    return out;
  }

  return {
    /**
     * The list as the JSON bytes of its response, from the user's cache (platform/read-cache.ts) while it is
     * right. The profile is read on every call: its time zone and amnesia switch are part of the answer,
     * and the users module changes them.
     */
    async listJson(subject: string): Promise<SerializedResponse> {
      const owner = await requireOwner(subject);
      return lists.get(owner.id, `${owner.timezone}|${owner.isAmnesiaModeEnabled}`, async () => {
        const at = now();
        const data = await listFor(owner, at);
        let nextExpiry = Infinity;
        for (const m of [...data.people, ...data.vehicles, ...data.animals, ...data.general])
          if (m.expires_at) nextExpiry = Math.min(nextExpiry, Date.parse(m.expires_at));
        return {
          value: serializeResponse(memoriesEndpoints.listMemories, { success: true, data }),
          // Its signed URLs keep most of their lifetime; a short-term memory leaves the list when it expires.
          until: Math.min(at.getTime() + windowMs, nextExpiry),
        };
      });
    },

    async get(subject: string, category: MemoryCategory, id: string): Promise<Memory> {
      const owner = await requireOwner(subject);
      return render(await requireMemory(owner, category, id), owner.timezone);
    },

    async create(subject: string, category: MemoryCategory, body: MemoryBody): Promise<Memory> {
      const owner = await requireOwner(subject);
      const input = parseMemoryInput(category, body, false);
      if (
        category === 'vehicles' &&
        !input.owner &&
        !input.make &&
        !input.model &&
        !input.color &&
        input.year == null
      ) {
        throw memoryErrors.invalid('Give the vehicle at least an owner, make, model, year or color');
      }
      const { values, siteIds } = await toValues(input, owner);
      const row = await writing(owner.id, () => repo.insert(owner.id, category, values, siteIds ?? []));
      return render({ row, images: [], siteIds: siteIds ?? [] }, owner.timezone);
    },

    /** Changes the fields given; `expiration: null` makes a short-term memory long-term. */
    async update(subject: string, category: MemoryCategory, id: string, body: MemoryBody): Promise<Memory> {
      const owner = await requireOwner(subject);
      const input = parseMemoryInput(category, body, true);
      const { values, siteIds } = await toValues(input, owner);
      const row = await writing(owner.id, () => repo.update(owner.id, category, id, values, siteIds, now()));
      if (!row) throw memoryErrors.notFound();
      return render(await requireMemory(owner, category, row.id), owner.timezone);
    },

    /** Deletes the memory and its photos (rows and files). */
    async remove(subject: string, category: MemoryCategory, id: string): Promise<void> {
      const owner = await requireOwner(subject);
      const deleted = await writing(owner.id, () => repo.delete(owner.id, category, id, now()));
      if (!deleted) throw memoryErrors.notFound();
      await removeFiles(deleted.images);
      await announceRemoved(deleted.row, deleted.images);
    },

    /**
     * Adds a photo from the file the upload was received into (the caller deletes it): type sniffed from
     * the bytes, re-encoded without metadata (EXIF location gone), a thumbnail made, both stored, then the
     * row added within the photo limit.
     */
    async addImage(
      subject: string,
      category: MemoryCategory,
      id: string,
      filePath: string,
    ): Promise<MemoryImage> {
      const owner = await requireOwner(subject);
      const memory = await requireMemory(owner, category, id);
      if (memory.images.length >= deps.photoLimit) throw memoryErrors.photoLimit(deps.photoLimit);
      const kind = await sniffImageFile(filePath);
      if (!kind) throw memoryErrors.imageType();
      let processed;
      try {
        processed = await processImage(filePath, kind);
      } catch (err) {
        if (err instanceof UnreadableImageError) throw memoryErrors.imageUnreadable();
        throw err;
      }
      // Files named after the photo's id: the id and its URLs then repeat one string, which the list's
      // gzip sends once (a list of 1,000 photos is a fifth smaller).
      const imageId = randomUUID();
      const folder = `${userMediaPrefix(owner.id)}/memories/${id}`;
      const storageKey = `${folder}/${imageId}.jpg`;
      const thumbKey = `${folder}/${imageId}_thumb.webp`;
      await storage.put(storageKey, processed.full, 'image/jpeg');
      await storage.put(thumbKey, processed.thumb, 'image/webp');
      const result = await writing(owner.id, () =>
        repo.insertImageWithinLimit(
          owner.id,
          id,
          {
            id: imageId,
            storageKey,
            thumbKey,
            contentType: 'image/jpeg',
            bytes: processed.full.length,
            width: processed.width,
            height: processed.height,
          },
          deps.photoLimit,
        ),
      ).catch(async (err: unknown) => {
        await storage.delete(storageKey).catch(() => undefined);
        await storage.delete(thumbKey).catch(() => undefined);
        throw err;
      });
      if (result === 'limit' || result === 'missing') {
        await storage.delete(storageKey);
        await storage.delete(thumbKey);
        throw result === 'limit' ? memoryErrors.photoLimit(deps.photoLimit) : memoryErrors.notFound();
      }
      await events.emit('memory.image_added', {
        userId: owner.id,
        memoryId: id,
        category,
        imageId: result.id,
        storageKey,
      });
      return renderImage(result);
    },

    async removeImage(
      subject: string,
      category: MemoryCategory,
      id: string,
      imageId: string,
    ): Promise<Memory> {
      const owner = await requireOwner(subject);
      const memory = await requireMemory(owner, category, id);
      const image = await writing(owner.id, () => repo.deleteImage(owner.id, id, imageId));
      if (!image) throw memoryErrors.imageNotFound();
      await removeFiles([image]);
      await announceRemoved(memory.row, [image]);
      return render(await requireMemory(owner, category, id), owner.timezone);
    },

    /**
     * Links every memory of the user to a property (`POST /api/users/sites/{siteUuid}/associate-all-memories`,
     * built by the sites module, calls this after checking the site is the user's). Answers how many links
     * were added.
     */
    associateAllMemories: (userId: string, siteId: string) =>
      writing(userId, () => repo.associateAllWithSite(userId, siteId)),

    /** Deletes short-term memories whose expiry has passed, with their files. Answers how many went. */
    async purgeExpired(batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const at = now();
        const expired = await repo.findExpired(at, batch);
        if (expired.length === 0) return total;
        const byUser = new Map<string, typeof expired>();
        for (const e of expired) byUser.set(e.row.userId, [...(byUser.get(e.row.userId) ?? []), e]);
        for (const [userId, list] of byUser) {
          const gone = new Set(
            await writing(userId, () =>
              repo.deleteExpired(
                userId,
                list.map((e) => e.row.id),
                at,
              ),
            ),
          );
          for (const e of list.filter((x) => gone.has(x.row.id))) {
            await removeFiles(e.images);
            await announceRemoved(e.row, e.images);
            total += 1;
          }
        }
        if (expired.length < batch) return total;
      }
    },
  };
}
export type MemoriesService = ReturnType<typeof createMemoriesService>;
