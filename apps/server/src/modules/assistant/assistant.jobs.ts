import { z } from 'zod';
import type { Jobs } from '../../platform/jobs.js';
import type { Logger } from '../../platform/logger.js';
import type { AssistantService } from './assistant.service.js';

/** The chat answer job (see platform/jobs.ts): sent with the user's message, in its transaction. */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    'ai.answer': { userId: string; messageId: string };
  }
}

const payload = z.object({ userId: z.uuid(), messageId: z.uuid() });

/** Answers run two at a time: each mostly waits on the database or the model. */
export const ANSWER_CONCURRENCY = 2;

export async function registerAssistantWorker(
  jobs: Jobs,
  deps: { assistant: AssistantService; log: Logger },
) {
  await jobs.work('ai.answer', { concurrency: ANSWER_CONCURRENCY }, async (data) => {
    const parsed = payload.safeParse(data);
    if (!parsed.success) {
      deps.log.error({ data }, 'ai.answer job with a bad payload dropped');
      return;
    }
    await deps.assistant.answer(parsed.data.userId, parsed.data.messageId);
  });
}
