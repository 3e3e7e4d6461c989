/**
 * Highlight texts written by the LLM from the same facts the composer uses (counts by kind, who was
 * recognised, the notable moments' sentences). Like descriptions, it only replaces the composer's text when
 * the model answers in time with a plausible text that names nobody who was not recognised.
 */
import { LlmError, type Llm } from '../../adapters/llm/llm.js';
import type { Logger } from '../../platform/logger.js';
import {
  formatClock,
  fold,
  namePattern,
  nameVariants,
  type Language,
  type SummaryFacts,
} from '../language/language.module.js';

const MAX_TEXT_CHARS = 600;

export interface SummaryRewriteInput {
  facts: SummaryFacts;
  language: Language;
  /** The composer's text, which the model may improve and which stands when it fails. */
  draft: string;
  /** Every name among the user's memories: a text naming one that was not recognised is refused. */
  knownNames: string[];
}

function factsText(input: SummaryRewriteInput): string {
  const f = input.facts;
  const zone = f.timezone;
  const span =
    f.period === 'hourly'
      ? `the hour ${formatClock(f.periodStart, zone, 'en')}–${formatClock(f.periodEnd, zone, 'en')}`
      : `the day starting ${f.periodStart.toISOString()} (${f.periodEnd.getTime() > f.now.getTime() ? 'still going' : 'over'})`;
  const counts = Object.entries(f.counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([kind, n]) => `${kind === 'other' ? 'motion only' : `with a ${kind}`}: ${n}`);
  return [
    `Period: ${span}${f.siteName ? ` at the property ${f.siteName}` : ''}`,
    `Events: ${f.total}${counts.length ? ` (${counts.join(', ')})` : ''}`,
    `Recognised: ${f.recognisedNames.length ? f.recognisedNames.join(', ') : 'nobody known'}`,
    `Unusual moments (say they are unusual, and why):\n${(f.unusual ?? []).map((m) => `- ${m}`).join('\n') || '- none'}`,
    `Notable moments:\n${f.moments.map((m) => `- ${m}`).join('\n') || '- none'}`,
    `Draft: ${input.draft}`,
  ].join('\n');
}

export function createLlmSummarizer(deps: { llm?: Llm | undefined; log: Logger }) {
  return {
    enabled: deps.llm !== undefined,

    async rewrite(input: SummaryRewriteInput): Promise<string | undefined> {
      const llm = deps.llm;
      if (!llm) return undefined;
      const language = input.language === 'de' ? 'German, addressing the owner informally (du)' : 'English';
      try {
        const result = await llm.chat({
          messages: [
            {
              role: 'system',
              content: `You write the highlights of a home camera app: one to three short, warm, factual sentences in ${language} about the period below, for its owner. Use only these facts; never mention a person, vehicle, animal or name that is not in them. Reply with the text only.`,
            },
            { role: 'user', content: factsText(input) },
          ],
          temperature: 0.3,
          maxTokens: 250,
        });
        const text = result.text.replace(/\s+/g, ' ').trim();
        if (text.length > MAX_TEXT_CHARS) return undefined;
        const recognised = new Set(input.facts.recognisedNames.map(fold));
        const folded = fold(text);
        const invented = input.knownNames.some(
          (name) =>
            !recognised.has(fold(name)) && nameVariants(name).some((v) => namePattern(v).test(folded)),
        );
        if (invented) {
          deps.log.warn(
            { model: llm.model },
            'llm highlight named someone not recognised; keeping the composed one',
          );
          return undefined;
        }
        return text;
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        deps.log.warn(
          { model: llm.model, reason: err.reason, err: err.message },
          'llm highlight failed; keeping the composed one',
        );
        return undefined;
      }
    },
  };
}
export type LlmSummarizer = ReturnType<typeof createLlmSummarizer>;
