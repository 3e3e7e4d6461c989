import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database.js';
import type { Database } from '../../platform/db/client.js';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import { loadConfig } from '../../platform/config.js';
import { createEventBus } from '../../platform/events.js';
import { createJobs } from '../../platform/jobs.js';
import { createLogger } from '../../platform/logger.js';
import type { ModuleContext } from '../../platform/module.js';
import { createReadCaches } from '../../platform/read-cache.js';
import { createMediaSigner } from '../media/media.signer.js';
import { createUsersRepository } from '../users/users.repository.js';
import { createChatModule } from './chat.module.js';

/** One module built alone, as app.ts builds it, with fakes for what it needs of the others. */
describe('the chat module on its own', () => {
  let database: Database;
  let context: ModuleContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    const log = createLogger('silent');
    const dataDir = mkdtempSync(join(tmpdir(), 'hs-chat-module-'));
    context = {
      config: loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://homesitter.test' }),
      log,
      database,
      events: createEventBus(log),
      jobs: createJobs({ database, log }),
      storage: createFsStorage({ root: join(dataDir, 'media'), signUrl: () => '' }),
    };
  });
  afterAll(async () => database.close());

  it('stores the home sitter’s message and pushes it through the realtime it was given', async () => {
    const pushed: { userId: string; event: string; payload: unknown }[] = [];
    const chat = createChatModule(context, {
      caches: createReadCaches({
        enabled: false,
        events: context.events,
        lookupUserId: async () => undefined,
      }),
      realtime: { publish: async (userId, event, payload) => void pushed.push({ userId, event, payload }) },
      media: { signer: createMediaSigner('module-test-secret', 'http://homesitter.test') },
      activities: { refreshAttachments: async (_userId, messages) => messages },
      answers: false,
    });
    const user = await createUsersRepository(database.db).insert({
      authSubject: 'local:rose',
      email: 'rose@example.com',
      remainingFreeEvents: 50,
    });

    const posted = await chat.api.postAgentMessage(user!.id, { text: 'Rose is at the front door.' });

    expect(pushed).toEqual([{ userId: user!.id, event: 'ReceiveMessage', payload: posted }]);
    const stored = await chat.api.findMessage(user!.id, posted.message_uuid);
    expect(stored).toMatchObject<Partial<ChatMessage>>({ text: 'Rose is at the front door.', role: 'agent' });
  });
});
