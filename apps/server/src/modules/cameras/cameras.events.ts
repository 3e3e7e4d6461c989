/** Events of the cameras and sites modules (see platform/events.ts). */
declare module '../../platform/events.js' {
  interface AppEvents {
    /** A camera or property of the user was added, changed or removed: clients refresh their lists. */
    'cameras.changed': { userId: string };
    /**
     * A camera's last activity time moved on without `cameras.changed` (a later file of a burst, announced
     * once per burst to keep clients quiet): in-process caches of the list follow, clients are not told.
     */
    'cameras.stamped': { userId: string };
    /** A camera was renamed; whatever refers to it by name follows. */
    'camera.renamed': { userId: string; cameraId: string; from: string; to: string };
  }
}

export {};
