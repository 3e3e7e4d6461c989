import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';

/** Where a user's files live in object storage; every feature stores under it. */
export const userMediaPrefix = (userId: string) => `users/${userId}`;

/** When an account is deleted, its whole media folder goes too (the rows went with the database cascade). */
export function deleteMediaOfDeletedUsers(events: EventBus, storage: ObjectStorage, log: Logger): void {
  events.on('user.deleted', async ({ userId }) => {
    await storage.deletePrefix(userMediaPrefix(userId));
    log.info({ userId }, 'media of deleted account removed');
  });
}
