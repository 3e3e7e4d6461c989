import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import { memoriesEndpoints as endpoints } from '@homesitter/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { sendSerialized } from '../../platform/http/serialized.js';
import { removeFilesOlderThan } from '../../platform/spool.js';
import { memoryErrors } from './memories.errors.js';
import type { MemoriesService } from './memories.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * The uploaded file of field `image`, streamed into a file of `spoolDir` (at most `maxBytes`): ten 15 MB
 * photos arriving at once then cost disk, not memory, until each gets its turn to be decoded. Answers the
 * file's path; the caller deletes it.
 */
async function receiveImageField(
  req: Pick<FastifyRequest, 'isMultipart' | 'file'>,
  maxBytes: number,
  spoolDir: string,
): Promise<string> {
  if (!req.isMultipart()) throw memoryErrors.imageMissing();
  let part;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 2 } });
  } catch {
    throw memoryErrors.imageMissing();
  }
  if (!part || part.fieldname !== 'image') throw memoryErrors.imageMissing();
  const path = join(spoolDir, `${randomUUID()}.part`);
  try {
    await pipeline(part.file, createWriteStream(path, { mode: 0o600 }));
    // busboy stops at the limit and marks the file truncated rather than failing the stream.
    if (part.file.truncated) throw memoryErrors.imageTooLarge(maxBytes);
    return path;
  } catch (err) {
    await rm(path, { force: true });
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw memoryErrors.imageTooLarge(maxBytes);
    throw err;
  }
}

/** Spool files are deleted after each upload; one older than this was left by a crash. */
const SPOOL_LEFTOVER_MS = 3_600_000;

async function prepareSpool(spoolDir: string): Promise<void> {
  await mkdir(spoolDir, { recursive: true });
  await removeFilesOlderThan(spoolDir, Date.now() - SPOOL_LEFTOVER_MS);
}

/** docs/product.md §7 "Memories": thin handlers, rules in MemoriesService. */
export async function registerMemoryRoutes(
  app: FastifyInstance,
  deps: {
    memories: MemoriesService;
    guards: AccessGuards;
    maxImageBytes: number;
    /** Where uploaded photos wait for their turn to be decoded (`DATA_DIR/photo-spool`). */
    spoolDir: string;
  },
): Promise<void> {
  const { memories, guards, spoolDir } = deps;
  await prepareSpool(spoolDir);
  await app.register(fastifyMultipart, {
    limits: { fileSize: deps.maxImageBytes, files: 1, fields: 0, parts: 2 },
  });

  route(app, guards, endpoints.listMemories, async (req, reply) =>
    sendSerialized(endpoints.listMemories, req, reply, await memories.listJson(callerOf(req).subject)),
  );

  route(app, guards, endpoints.getMemory, async (req) =>
    ok(await memories.get(callerOf(req).subject, req.params.category, req.params.id)),
  );

  route(app, guards, endpoints.createMemory, async (req) =>
    ok(await memories.create(callerOf(req).subject, req.params.category, req.body)),
  );

  route(app, guards, endpoints.updateMemory, async (req) =>
    ok(await memories.update(callerOf(req).subject, req.params.category, req.params.id, req.body)),
  );

  route(app, guards, endpoints.deleteMemory, async (req) => {
    await memories.remove(callerOf(req).subject, req.params.category, req.params.id);
    return ok({ memory_uuid: req.params.id });
  });

  route(app, guards, endpoints.uploadMemoryImage, async (req) => {
    const file = await receiveImageField(req, deps.maxImageBytes, spoolDir);
    try {
      const image = await memories.addImage(callerOf(req).subject, req.params.category, req.params.id, file);
      return ok({ image });
    } finally {
      await rm(file, { force: true });
    }
  });

  route(app, guards, endpoints.deleteMemoryImage, async (req) =>
    ok(
      await memories.removeImage(
        callerOf(req).subject,
        req.params.category,
        req.params.id,
        req.params.imageId,
      ),
    ),
  );
}
