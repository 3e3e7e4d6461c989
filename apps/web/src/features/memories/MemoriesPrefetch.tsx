import { MEMORY_IMAGE_PREFETCH_CONCURRENCY } from '@homesitter/contract/runtime';
import type { Memories } from '@homesitter/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../../shared/lib/useSession';
import { fetchMemories, memoriesKey, PREFETCH_DELAY_MS } from './api';

/** Loads one image into the browser cache; failures are fine (only logged by the caller). */
function preload(url: string): Promise<void> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve();
    img.onerror = () => resolve();
    img.src = url;
  });
}

/** Runs `work` over `items`, `limit` at a time. */
export async function inBatchesOf<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await work(item as T);
    }
  });
  await Promise.all(lanes);
}

export function memoryImageUrls(all: Memories): string[] {
  return [...all.people, ...all.vehicles, ...all.animals, ...all.general].flatMap((m) =>
    m.images.flatMap((i) => [i.thumbnailUrl, i.signedUrl]),
  );
}

/**
 * docs/product.md §4 "After login": about 2 s after a verified user arrives, all memories are fetched and every image
 * preloaded, 4 at a time. Failures are only logged (docs/product.md §8).
 */
export function MemoriesPrefetch() {
  const queryClient = useQueryClient();
  const { status, isVerified } = useSession();
  const ready = status === 'signedIn' && isVerified;
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void (async () => {
        try {
          const all = await queryClient.fetchQuery({
            queryKey: memoriesKey,
            queryFn: () => fetchMemories(false),
          });
          if (cancelled) return;
          await inBatchesOf(memoryImageUrls(all), MEMORY_IMAGE_PREFETCH_CONCURRENCY, (url) =>
            cancelled ? Promise.resolve() : preload(url),
          );
        } catch (error) {
          console.warn('memories prefetch failed', error);
        }
      })();
    }, PREFETCH_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [ready, queryClient]);
  return null;
}
