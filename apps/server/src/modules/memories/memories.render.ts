import type { Memory, MemoryImage } from '@homesitter/contract';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { createSignedUrlCache } from '../media/media.module.js';
import type { MemoryImageRow, MemoryRecord } from './memories.repository.js';
import { instantToExpiration } from './wall-time.js';

/** Memories as the API shows them, with signed photo URLs (each made once per signing window). */
export function createMemoryRenderer(deps: {
  storage: ObjectStorage;
  urlTtlSeconds: number;
  now: () => Date;
}) {
  const { url: signed, windowMs } = createSignedUrlCache({
    sign: (key, ttl) => deps.storage.signedUrl(key, ttl),
    urlTtlSeconds: deps.urlTtlSeconds,
    now: deps.now,
  });

  async function renderImage(image: MemoryImageRow): Promise<MemoryImage> {
    const [signedUrl, thumbnailUrl] = await Promise.all([signed(image.storageKey), signed(image.thumbKey)]);
    return {
      id: image.id,
      signedUrl,
      thumbnailUrl,
      width: image.width,
      height: image.height,
      created_at: image.createdAt.toISOString(),
    };
  }

  async function render(rec: MemoryRecord, timeZone: string | null): Promise<Memory> {
    const { row } = rec;
    const common = {
      memory_uuid: row.id,
      notes: row.notes,
      images: await Promise.all(rec.images.map(renderImage)),
      expiration: row.expiresAt ? instantToExpiration(row.expiresAt, timeZone) : null,
      expires_at: row.expiresAt ? row.expiresAt.toISOString() : null,
      property_associations: rec.siteIds,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
    switch (row.category) {
      case 'people':
        return { category: 'people', name: row.name ?? '', ...common };
      case 'vehicles':
        return {
          category: 'vehicles',
          owner: row.owner,
          make: row.make,
          model: row.model,
          year: row.year,
          color: row.color,
          ...common,
        };
      case 'animals':
        return { category: 'animals', name: row.name ?? '', species: row.species, ...common };
      case 'other':
        return { category: 'other', text: row.text ?? '', ...common };
    }
  }

  return { render, renderImage, windowMs };
}
export type MemoryRenderer = ReturnType<typeof createMemoryRenderer>;
