import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { createDisabledVisionEngine } from './disabled.vision.js';
import { createLocalVisionEngine } from './local.vision.js';
import type { VisionEngine } from './vision.js';

/**
 * The local engine (its process starts on first use and stops after `VISION_IDLE_SECONDS` without work), or
 * none at all with `VISION_ENABLED=false`.
 */
export function createVisionFromConfig(config: Config, log: Logger): VisionEngine {
  if (!config.VISION_ENABLED) return createDisabledVisionEngine();
  return createLocalVisionEngine({
    log,
    concurrency: config.VISION_CONCURRENCY,
    idleMs: config.VISION_IDLE_SECONDS * 1000,
  });
}
