import { join } from 'node:path';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ReadCaches } from '../../platform/read-cache.js';
import { registerMemoriesWorkers, scheduleMemoriesJobs } from './memories.jobs.js';
import { registerMemoryRoutes } from './memories.routes.js';
import { createMemoriesRepository } from './memories.repository.js';
import { createMemoriesService } from './memories.service.js';

// What other modules may use besides the API: rules and errors they share.
export { memoryErrors } from './memories.errors.js';
export { instantToExpiration } from './wall-time.js';

/** What the user taught the home sitter: people, vehicles, animals and notes, with their photos. */
export function createMemoriesModule(context: ModuleContext, needs: { caches: ReadCaches }) {
  const { config, log, storage, events } = context;
  const memories = createMemoriesService({
    repo: createMemoriesRepository(context.database.db),
    storage,
    events,
    log,
    urlTtlSeconds: config.MEDIA_URL_TTL,
    photoLimit: config.MEMORY_PHOTO_LIMIT,
    // Exact through invalidation; the entries' own lifetime (signing window, next expiry) is shorter.
    lists: needs.caches.create({
      ttlMs: 60 * 60_000,
      weigh: (json) => json.byteLength,
      maxWeight: 32 * 2 ** 20,
    }),
  });
  return {
    api: memories,
    routes: (app, { guards }) =>
      registerMemoryRoutes(app, {
        memories,
        guards,
        maxImageBytes: config.MAX_IMAGE_BYTES,
        spoolDir: join(config.DATA_DIR, 'photo-spool'),
      }),
    workers: (jobs) => registerMemoriesWorkers(jobs, { memories }),
    schedule: scheduleMemoriesJobs,
  } satisfies AppModule<unknown>;
}
export type MemoriesApi = ReturnType<typeof createMemoriesModule>['api'];
