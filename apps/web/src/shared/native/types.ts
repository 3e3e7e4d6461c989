/**
 * The slices of the Capacitor plugins the bridge calls, written structurally so tests hand in small fakes.
 * `plugins.ts` is the one place that imports the real plugins.
 */
export interface ListenerHandle {
  remove: () => Promise<void>;
}

export type NativePlatform = 'ios' | 'android';

/** react-router's `navigate`, as the bridge uses it. */
export type Navigate = (to: string, options?: { replace?: boolean; state?: unknown }) => unknown;

export type PermissionState = 'prompt' | 'prompt-with-rationale' | 'granted' | 'denied';
