import { join } from 'node:path';
import { expect } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { multipart } from '../../../test/images.js';
import type { MemoryImageEvent } from '../../platform/events.js';

/** Shared by the memories test files: a server with a small photo limit and size, two users, the events. */
export const PHOTO_LIMIT = 3;
export const MAX_BYTES = 1024 * 1024;

export interface MemoriesTestApp {
  t: TestApp;
  alice: TestUser;
  bob: TestUser;
  added: MemoryImageEvent[];
  removed: MemoryImageEvent[];
}

export async function startMemoriesApp(): Promise<MemoriesTestApp> {
  const t = await createTestApp({
    env: { MEMORY_PHOTO_LIMIT: String(PHOTO_LIMIT), MAX_IMAGE_BYTES: String(MAX_BYTES) },
  });
  const added: MemoryImageEvent[] = [];
  const removed: MemoryImageEvent[] = [];
  t.deps.events.on('memory.image_added', (e) => void added.push(e));
  t.deps.events.on('memory.image_removed', (e) => void removed.push(e));
  return { t, alice: await signUp(t), bob: await signUp(t), added, removed };
}

export interface Created {
  memory_uuid: string;
  [field: string]: unknown;
}

/** Calls against the app `app()` answers (it is made in beforeAll, after these helpers). */
export function memoryCalls(app: () => TestApp) {
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who: TestUser, payload?: unknown) =>
    app().app.inject({ method, url, payload: payload as object, headers: who.auth });

  return {
    call,
    create: async (who: TestUser, category: string, body: object): Promise<Created> => {
      const res = await call('POST', `/api/users/memories/${category}`, who, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ data: Created }>().data;
    },
    upload: (
      who: TestUser,
      category: string,
      id: string,
      data: Buffer,
      name = 'photo.jpg',
      type = 'image/jpeg',
    ) => {
      const { payload, headers } = multipart('image', name, type, data);
      return app().app.inject({
        method: 'POST',
        url: `/api/users/memories/${category}/${id}/images`,
        payload,
        headers: { ...who.auth, ...headers },
      });
    },
    mediaPath: (url: string) => new URL(url).pathname + new URL(url).search,
    fileOf: (url: string) =>
      join(
        app().deps.config.DATA_DIR,
        'media',
        decodeURIComponent(new URL(url).pathname.slice('/media/'.length)),
      ),
  };
}
