import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ReadCaches } from '../../platform/read-cache.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { MediaApi } from '../media/media.module.js';
import type { RealtimeApi } from '../realtime/realtime.module.js';
import { createImageResigner, createOwnMediaCheck } from './chat.media.js';
import { createChatRepository } from './chat.repository.js';
import { registerChatRoutes } from './chat.routes.js';
import { createChatService } from './chat.service.js';

export interface ChatNeeds {
  caches: ReadCaches;
  realtime: Pick<RealtimeApi, 'publish'>;
  media: Pick<MediaApi, 'signer'>;
  activities: Pick<ActivitiesApi, 'refreshAttachments'>;
  /** false: user messages get no answer from the home sitter (tests of the chat's own mechanics). */
  answers: boolean;
}

/** The conversation with the home sitter: the user's messages, its alerts and answers, pushed live. */
export function createChatModule(context: ModuleContext, needs: ChatNeeds) {
  const { config, jobs } = context;
  const { signer } = needs.media;
  const resignImages = createImageResigner((key) => context.storage.signedUrl(key, config.MEDIA_URL_TTL));
  const chat = createChatService({
    repo: createChatRepository(context.database.db),
    userIdOf: needs.caches.userIds.userIdOf,
    // Attachments get fresh links on every read, so a page only changes with its messages.
    newestPages: needs.caches.create({
      ttlMs: 10 * 60_000,
      weigh: (p) => (p.json?.byteLength ?? 0) + Buffer.byteLength(JSON.stringify(p.messages)),
      maxWeight: 16 * 2 ** 20,
    }),
    realtime: needs.realtime,
    isOwnMediaUrl: createOwnMediaCheck(config.PUBLIC_URL, (key, exp, sig) => signer.check(key, exp, sig)),
    // Every question gets its answer: the `assistant.answer` job commits with the message (the assistant works it).
    onUserMessage: needs.answers
      ? (message, tx) => jobs.send('assistant.answer', message, { tx })
      : undefined,
    // Alerts and answers keep their clips' and images' URLs; history hands out fresh ones (signed URLs expire).
    refreshAttachments: async (userId, messages) =>
      resignImages(userId, await needs.activities.refreshAttachments(userId, messages)),
  });
  return {
    api: chat,
    routes: (app, { guards }) => registerChatRoutes(app, { chat, guards }),
  } satisfies AppModule<unknown>;
}
export type ChatApi = ReturnType<typeof createChatModule>['api'];
