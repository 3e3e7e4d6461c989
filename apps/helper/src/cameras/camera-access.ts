import {
  configureCamera,
  createNetworkPolicy,
  DEFAULT_CAMERA_NETWORKS,
  type ConfigurationResult,
} from '@homesitter/cameras';
import type { StreamConnectionInput } from '@homesitter/contract';
import type { MediaTools } from './media-tools.js';

/**
 * How the helper reaches a camera: `configureCamera` of @homesitter/cameras, allowed only onto loopback
 * and the private networks (the helper talks to the home network and nothing else, so a camera cannot
 * point it at the internet either).
 */
export interface CameraAccess {
  configure(connection: StreamConnectionInput, signal?: AbortSignal): Promise<ConfigurationResult>;
}

export function createCameraAccess({
  tools,
  timeoutMs,
}: {
  tools: MediaTools;
  timeoutMs: number;
}): CameraAccess {
  const policy = createNetworkPolicy(DEFAULT_CAMERA_NETWORKS);
  return {
    configure: (connection, signal) =>
      configureCamera(connection, {
        policy,
        ffmpegPath: tools.ffmpegPath,
        ffprobePath: tools.ffprobePath,
        timeoutMs,
        signal,
      }),
  };
}
