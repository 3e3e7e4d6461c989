/** Events of the activities module (see platform/events.ts). */
declare module '../../platform/events.js' {
  interface AppEvents {
    /** A new activity (camera event) is stored, after commit; its media may still grow within 10 s. */
    'activity.created': { userId: string; activityId: string };
  }
}

export {};
