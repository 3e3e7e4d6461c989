import type { Jobs } from '../../platform/jobs.js';
import type { AssistantService } from './assistant.service.js';

/** Answers run two at a time: each mostly waits on the database or the model. */
export const ANSWER_CONCURRENCY = 2;

export async function registerAssistantWorker(jobs: Jobs, deps: { assistant: AssistantService }) {
  await jobs.work('assistant.answer', { concurrency: ANSWER_CONCURRENCY }, ({ userId, messageId }) =>
    deps.assistant.answer(userId, messageId),
  );
}
