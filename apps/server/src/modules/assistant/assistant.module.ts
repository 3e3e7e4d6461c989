import type { Llm } from '../../adapters/llm/llm.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import { attachmentFor } from '../alerts/alerts.module.js';
import type { AlertsApi } from '../alerts/alerts.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { MemoriesApi } from '../memories/memories.module.js';
import type { NotificationsApi } from '../notifications/notifications.module.js';
import type { WatchesApi } from '../watches/watches.module.js';
import { registerAssistantWorker } from './assistant.jobs.js';
import { createAssistantRepository } from './assistant.repository.js';
import { createAssistantService } from './assistant.service.js';

export interface AssistantNeeds {
  chat: Pick<ChatApi, 'postAgentMessage' | 'findMessage' | 'publishProgress'>;
  memories: Pick<MemoriesApi, 'create'>;
  notifications: Pick<NotificationsApi, 'notify'>;
  activities: Pick<ActivitiesApi, 'render'>;
  alerts: Pick<AlertsApi, 'applyChatCorrection'>;
  watches: Pick<WatchesApi, 'create' | 'active' | 'cancel'>;
  llm: Llm | undefined;
}

/** The home sitter's answers to the user's messages (`assistant.answer`, sent with the message). */
export function createAssistantModule(context: ModuleContext, needs: AssistantNeeds) {
  const assistant = createAssistantService({
    repo: createAssistantRepository(context.database.db),
    chat: needs.chat,
    memories: needs.memories,
    notify: (userId, notification) => needs.notifications.notify(userId, notification),
    attachment: async (row) => attachmentFor(row, await needs.activities.render(row)),
    // Replies to alerts ("that's Rose") are corrections first.
    corrections: needs.alerts,
    watches: needs.watches,
    llm: needs.llm,
    log: context.log,
  });
  return {
    api: undefined,
    workers: (jobs) => registerAssistantWorker(jobs, { assistant }),
  } satisfies AppModule<undefined>;
}
