import type { Config } from '../../platform/config.js';
import type { Llm } from './llm.js';
import { createOpenAiLlm } from './openai.llm.js';

/** The configured model, or undefined when `LLM_BASE_URL` is unset (the built-in composer answers alone). */
export function createLlmFromConfig(
  config: Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL' | 'LLM_TIMEOUT_MS' | 'LLM_VISION'>,
): Llm | undefined {
  if (!config.LLM_BASE_URL) return undefined;
  return createOpenAiLlm({
    baseUrl: config.LLM_BASE_URL,
    apiKey: config.LLM_API_KEY,
    model: config.LLM_MODEL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    acceptsImages: config.LLM_VISION,
  });
}
