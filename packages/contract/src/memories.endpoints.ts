import { z } from 'zod';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope } from './envelope.js';
import {
  memoriesQuerySchema,
  memoriesSchema,
  memoryBodySchema,
  memoryCategoryParamsSchema,
  memoryImageParamsSchema,
  memoryImageUploadSchema,
  memoryParamsSchema,
  memorySchema,
} from './memories.js';
import { MESSAGES } from './messages.js';
import { apiRoutes } from './routes.runtime.js';

/** docs/product.md §7 "Memories". */
export const memoriesEndpoints = defineEndpoints({
  listMemories: {
    ...apiRoutes.listMemories,
    summary:
      'Every live memory by category (expired short-term memories are left out), and the amnesia switch',
    tags: ['memories'],
    query: memoriesQuerySchema,
    response: okEnvelope(memoriesSchema),
    failureMessage: MESSAGES.loadMemoriesFailed,
  },
  getMemory: {
    ...apiRoutes.getMemory,
    summary: 'One memory',
    tags: ['memories'],
    params: memoryParamsSchema,
    response: okEnvelope(memorySchema),
    failureMessage: MESSAGES.loadMemoryFailed,
  },
  createMemory: {
    ...apiRoutes.createMemory,
    summary:
      "Create a memory with its category's fields (people: name; vehicles: owner, make, model, year, color; animals: name, species; other: text)",
    tags: ['memories'],
    params: memoryCategoryParamsSchema,
    body: memoryBodySchema,
    response: okEnvelope(memorySchema),
    successStatus: 201,
    failureMessage: MESSAGES.addMemoryFailed,
  },
  updateMemory: {
    ...apiRoutes.updateMemory,
    summary: 'Change any of its fields; `expiration: null` makes it long-term',
    tags: ['memories'],
    params: memoryParamsSchema,
    body: memoryBodySchema,
    response: okEnvelope(memorySchema),
    failureMessage: MESSAGES.updateMemoryFailed,
  },
  deleteMemory: {
    ...apiRoutes.deleteMemory,
    summary: 'Delete a memory and its images',
    tags: ['memories'],
    params: memoryParamsSchema,
    response: okEnvelope(z.object({ memory_uuid: z.string() })),
    failureMessage: MESSAGES.deleteMemoryFailed,
  },
  uploadMemoryImage: {
    ...apiRoutes.uploadMemoryImage,
    summary:
      'Add a photo: multipart/form-data with the file in field `image` (JPEG, PNG, WebP or HEIC, at most MAX_IMAGE_BYTES; at most MEMORY_PHOTO_LIMIT per memory)',
    tags: ['memories'],
    params: memoryParamsSchema,
    response: okEnvelope(memoryImageUploadSchema),
    successStatus: 201,
    failureMessage: MESSAGES.uploadImageFailed,
  },
  deleteMemoryImage: {
    ...apiRoutes.deleteMemoryImage,
    summary: 'Remove a photo from a memory',
    tags: ['memories'],
    params: memoryImageParamsSchema,
    response: okEnvelope(memorySchema),
    failureMessage: MESSAGES.deleteImageFailed,
  },
});
