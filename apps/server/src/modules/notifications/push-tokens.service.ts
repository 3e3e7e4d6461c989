import type { PushPlatform, PushToken } from '@homesitter/contract';
import { AppError } from '../../platform/errors.js';
import type { NotificationsRepository, PushTokenRow } from './notifications.repository.js';

export const pushTokenErrors = {
  notFound: () =>
    new AppError(404, 'push_token.not_found', 'This push token is not registered for your account', {
      generic: true,
    }),
};

function toPushToken(row: PushTokenRow): PushToken {
  return { token: row.token, platform: row.platform, is_sandbox: row.isSandbox, enabled: row.enabled };
}

export interface PushTokensDeps {
  repo: Pick<NotificationsRepository, 'upsertPushToken' | 'disablePushToken' | 'findPushToken'>;
  /** The user id of a token's subject; throws the users' "no profile yet" 404 when there is none. */
  requireUserId(subject: string): Promise<string>;
  /** The user id of a token's subject, or undefined. */
  findUserId(subject: string): Promise<string | undefined>;
}

/** The devices' push tokens (docs/product.md §7 "User": register, disable, verify), which push notifications go to. */
export function createPushTokensService(deps: PushTokensDeps) {
  const { repo } = deps;
  return {
    async register(subject: string, input: { token: string; platform: PushPlatform; is_sandbox: boolean }) {
      const row = await repo.upsertPushToken(await deps.requireUserId(subject), {
        token: input.token,
        platform: input.platform,
        isSandbox: input.is_sandbox,
      });
      return toPushToken(row);
    },

    async disable(subject: string, token: string, platform: PushPlatform) {
      const row = await repo.disablePushToken(await deps.requireUserId(subject), token, platform);
      if (!row) throw pushTokenErrors.notFound();
      return toPushToken(row);
    },

    async verify(subject: string, token: string, platform: PushPlatform) {
      const userId = await deps.findUserId(subject);
      if (!userId) return { isValid: false };
      const row = await repo.findPushToken(userId, token, platform);
      return { isValid: row?.enabled === true };
    },
  };
}
export type PushTokensService = ReturnType<typeof createPushTokensService>;
