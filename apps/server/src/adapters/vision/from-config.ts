import type { Config } from '../../platform/config.js';
import type { Logger } from '../../platform/logger.js';
import { createDisabledVisionEngine } from './disabled.vision.js';
import { createLocalVisionEngine } from './local.vision.js';
import type { VisionEngine } from './vision.js';

/** The local engine (its worker starts on first use), or none at all with `VISION_ENABLED=false`. */
export function createVisionFromConfig(config: Config, log: Logger): VisionEngine {
  if (!config.VISION_ENABLED) return createDisabledVisionEngine();
  return createLocalVisionEngine({ log, concurrency: config.VISION_CONCURRENCY });
}
