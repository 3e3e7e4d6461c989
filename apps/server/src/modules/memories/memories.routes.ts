import fastifyMultipart from '@fastify/multipart';
import { memoriesEndpoints as endpoints } from '@homesitter/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { sendSerialized } from '../../platform/http/serialized.js';
import { memoryErrors } from './memories.errors.js';
import type { MemoriesService } from './memories.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The memories service, for modules wired after it (sites' bulk association, chat's "save this image"). */
    memories: MemoriesService;
  }
}

const ok = <T>(data: T) => ({ success: true as const, data });

/** The uploaded file of field `image`, read whole (it is at most `maxBytes`). */
async function readImageField(
  req: Pick<FastifyRequest, 'isMultipart' | 'file'>,
  maxBytes: number,
): Promise<Buffer> {
  if (!req.isMultipart()) throw memoryErrors.imageMissing();
  let part;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 2 } });
  } catch {
    throw memoryErrors.imageMissing();
  }
  if (!part || part.fieldname !== 'image') throw memoryErrors.imageMissing();
  try {
    return await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw memoryErrors.imageTooLarge(maxBytes);
    throw err;
  }
}

/** Spec §7 "Memories": thin handlers, rules in MemoriesService. */
export async function registerMemoryRoutes(
  app: FastifyInstance,
  deps: { memories: MemoriesService; guards: AccessGuards; maxImageBytes: number },
): Promise<void> {
  const { memories, guards } = deps;
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
    const file = await readImageField(req, deps.maxImageBytes);
    const image = await memories.addImage(callerOf(req).subject, req.params.category, req.params.id, file);
    return ok({ image });
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
