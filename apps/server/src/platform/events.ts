/**
 * The typed in-process event bus: modules announce what happened (`user.deleted`, later `activity.created`,
 * `memory.image_added`…) and others react (realtime hub, storage clean-up, AI) without importing each
 * other. A module adds its events to `AppEvents` by declaration merging:
 *
 *   declare module '../../platform/events.js' {
 *     interface AppEvents { 'camera.changed': { userId: string } }
 *   }
 *
 * Handlers run after the change is committed; a failing handler is logged and does not affect the others.
 * With several server instances, cross-instance delivery is the realtime module's concern (Redis), not this.
 */
import type { Logger } from './logger.js';

export interface AppEvents {
  /** A user's profile and every row it owned are gone; adapters remove what lives outside the database. */
  'user.deleted': { userId: string; subject: string };
}

export type EventName = keyof AppEvents;
type Handler<E extends EventName> = (payload: AppEvents[E]) => Promise<void> | void;

export function createEventBus(log: Logger) {
  const handlers = new Map<EventName, Handler<never>[]>();
  return {
    on<E extends EventName>(event: E, handler: Handler<E>): void {
      const list = handlers.get(event) ?? [];
      list.push(handler);
      handlers.set(event, list);
    },
    /** Runs every handler of the event; resolves when all have finished (or failed and been logged). */
    async emit<E extends EventName>(event: E, payload: AppEvents[E]): Promise<void> {
      const list = (handlers.get(event) ?? []) as Handler<E>[];
      await Promise.all(
        list.map(async (handler) => {
          try {
            await handler(payload);
          } catch (err) {
            log.error({ err, event }, 'event handler failed');
          }
        }),
      );
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
