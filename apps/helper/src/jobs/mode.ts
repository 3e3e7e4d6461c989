import { createNetworkPolicy, DEFAULT_CAMERA_NETWORKS } from '@homesitter/cameras';
import type { BridgeSetting } from '../config.js';

/** Who records a camera once configured: the server pulls it, or this helper bridges it. */
export type CameraMode = 'server' | 'bridge';

/**
 * `HELPER_BRIDGE`: `always` and `never` say it; `auto` lets the server pull when it is at home (its host is
 * loopback or a private or link-local address: a self-hosted server on the same network reaches the
 * cameras itself), and bridges otherwise (a server in the cloud cannot reach into the home).
 */
export function createModeChooser(setting: BridgeSetting, serverUrl: string): () => Promise<CameraMode> {
  const home = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS);
  const host = new URL(serverUrl).hostname;
  return async () => {
    if (setting === 'always') return 'bridge';
    if (setting === 'never') return 'server';
    try {
      await home.check(host);
      return 'server';
    } catch {
      return 'bridge';
    }
  };
}
