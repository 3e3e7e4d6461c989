import type { RealtimeEvents } from '@homesitter/contract';
import type { Fanout } from '../../adapters/fanout/fanout.js';
import type { EventBus } from '../../platform/events.js';
import type { Logger } from '../../platform/logger.js';
import type { Hub } from './realtime.hub.js';
import type { RealtimeTokens } from './realtime.tokens.js';

export interface RealtimeServiceDeps {
  hub: Hub;
  fanout: Fanout;
  tokens: RealtimeTokens;
  events: EventBus;
  log: Logger;
}

/** The fan-out message that tells every instance an account was deleted (no hub method has this name). */
export const IDENTITY_REVOKED = 'instance:identity.revoked';

/**
 * Pushes events to a user's open apps, on whichever instance they are connected: `publish` goes through the
 * fan-out (in-process, or Redis with several instances) and each instance delivers to its own connections.
 */
export async function createRealtimeService(deps: RealtimeServiceDeps) {
  const { hub, fanout, log } = deps;
  await fanout.subscribe((m) => {
    if (m.event === IDENTITY_REVOKED) {
      // Between instances only, never to a client.
      const subject = (m.payload as { subject?: unknown } | null)?.subject;
      if (typeof subject === 'string')
        void deps.events.emit('identity.revoked', { userId: m.userId, subject });
      return;
    }
    hub.deliver(m.userId, m.event, m.payload);
  });

  async function publish<E extends keyof RealtimeEvents>(
    userId: string,
    event: E,
    payload: RealtimeEvents[E],
  ): Promise<void> {
    try {
      await fanout.publish({ userId, event, payload });
    } catch (err) {
      // The change itself is stored; a client that missed the event catches up when it next loads.
      log.error({ err, event }, 'realtime publish failed');
    }
  }

  deps.events.on('cameras.changed', ({ userId, camera }) =>
    publish(
      userId,
      'CamerasChanged',
      camera
        ? {
            reason: 'camera_state',
            camera_name: camera.name,
            configuration_status: camera.configuration_status,
            configuration_error: camera.configuration_error,
            configuration_error_code: camera.configuration_error_code,
            stream_status: camera.stream_status,
          }
        : {},
    ),
  );

  // An account was deleted here: every instance (this one too) drops what it remembers of the identity, so
  // the account's tokens are refused everywhere at once. Without Redis the in-process fan-out is this one.
  deps.events.on('user.deleted', async ({ userId, subject }) => {
    try {
      await fanout.publish({ userId, event: IDENTITY_REVOKED, payload: { subject } });
    } catch (err) {
      // Other instances then refuse the tokens once their cached answer expires (IDENTITY_PRESENCE_TTL_MS).
      log.error({ err }, 'could not tell other instances about a deleted account');
    }
  });

  // Highlights were written: open apps refetch that day's summaries.
  deps.events.on('summary.ready', ({ userId, period, date }) =>
    publish(userId, 'SummariesUpdated', { period, date }),
  );

  return {
    publish,
    /** A hub token for this user only (negotiate). */
    issueToken: (userId: string) => deps.tokens.issue(userId),
    verifyToken: (token: string) => deps.tokens.verify(token),
    hub,
    close: async () => {
      hub.closeAll();
      await fanout.close();
    },
  };
}
export type RealtimeService = Awaited<ReturnType<typeof createRealtimeService>>;
