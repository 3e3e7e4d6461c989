/**
 * The typed in-process event bus: modules announce what happened (`activity.created`, `memory.image_added`…)
 * and others react (realtime hub, caches, storage clean-up, face learning) without importing each other.
 * Every event is declared once, below, with who emits it: a new event is added here.
 *
 * Handlers run after the change is committed; a failing handler is logged and does not affect the others.
 * With several server instances, cross-instance delivery is the realtime module's concern (Redis), not this:
 * it relays the few events every instance must hear (`identity.revoked`).
 */
import type { MemoryCategory } from '@homesitter/contract';
import type { Logger } from './logger.js';

/** A photo joined or left a memory. */
export interface MemoryImageEvent {
  userId: string;
  memoryId: string;
  category: MemoryCategory;
  imageId: string;
  /** Key of the re-encoded JPEG in object storage. */
  storageKey: string;
}

import type { CameraConfigurationErrorCode } from '@homesitter/contract';

/** One stream camera's configuration or upstream moved on: told to clients with `CamerasChanged`. */
export interface CameraStateChange {
  name: string;
  configuration_status: 'pending' | 'configuring' | 'configured' | 'failed';
  configuration_error: string | null;
  configuration_error_code: CameraConfigurationErrorCode | null;
  stream_status: 'connecting' | 'streaming' | 'reconnecting' | 'private' | 'stopped' | null;
}

/** The event map: name → payload. */
export interface AppEvents {
  /** users: a user's profile and every row it owned are gone; adapters remove what lives outside the database. */
  'user.deleted': { userId: string; subject: string };
  /**
   * realtime: an account was deleted on some instance (this one too), heard through the fan-out: what any
   * instance remembers of its identity is dropped, so its tokens are refused everywhere at once.
   */
  'identity.revoked': { userId: string; subject: string };
  /** cameras, sites: a camera or property of the user was added, changed or removed: clients refresh their lists. */
  'cameras.changed': { userId: string; camera?: CameraStateChange };
  /** users: the global privacy mode was switched (stream cameras stop or resume pulling). */
  'user.privacy-changed': { userId: string; enabled: boolean };
  /** cameras: a stream camera's connection was given or changed: streams configures it. */
  'camera.configure': { userId: string; cameraId: string };
  /**
   * activities: a camera's last activity time moved on without `cameras.changed` (a later file of a burst,
   * announced once per burst to keep clients quiet): in-process caches of the list follow, clients are not told.
   */
  'cameras.stamped': { userId: string };
  /** cameras: a camera was renamed; whatever refers to it by name follows. */
  'camera.renamed': { userId: string; cameraId: string; from: string; to: string };
  /** users: the profile's language changed; what the home sitter wrote is rewritten in it where it can be. */
  'user.language-changed': { userId: string; language: 'en' | 'de' };
  /** activities: a new activity (camera event) is stored, after commit; its media may still grow within 10 s. */
  'activity.created': { userId: string; activityId: string };
  /**
   * activities: what is known about an activity changed (its analysis, or a correction of who is in it);
   * `occurredAt` is the event's time, so what summarises it can rewrite that period.
   */
  'activity.updated': { userId: string; activityId: string; occurredAt: Date };
  /**
   * activities: processing is done with a camera upload, whatever became of it (activity, dropped, failed):
   * ingest frees its place in the backlog of acknowledged uploads.
   */
  'upload.settled': { uploadId: string };
  /** highlights: summaries of the user's were written or rewritten for `date` (YYYY-MM-DD, the user's day). */
  'summary.ready': { userId: string; period: 'hourly' | 'daily'; date: string };
  /**
   * activities: a new camera event of the user was held because their free events are used up (billing on, no
   * active subscription); billing tells the user once per exhaustion.
   */
  'free-events.exhausted': { userId: string };
  /** memories: a photo was added to a memory. */
  'memory.image_added': MemoryImageEvent;
  /** memories: a photo left a memory (deleted, or purged with its expired memory). */
  'memory.image_removed': MemoryImageEvent;
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
