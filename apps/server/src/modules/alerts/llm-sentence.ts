/**
 * A richer description of an activity from the LLM: the image (when the model takes images) plus the
 * detected facts, the camera's notes and the recognised memories' notes. It only ever improves a sentence
 * the deterministic composer has already written and sent: no model, a timeout, a failure or an answer that
 * names someone who was not recognised all give `undefined`, and the composer's sentence stands.
 */
import { LlmError, type Llm, type LlmContentPart } from '../../adapters/llm/llm.js';
import type { Logger } from '../../platform/logger.js';
import {
  formatClock,
  describeActivity,
  subjectPhrase,
  type ActivityFacts,
  fold,
  namePattern,
  nameVariants,
  type Language,
} from '../language/language.module.js';

export interface RicherDescriptionInput {
  facts: ActivityFacts;
  /** The user's language besides English (`de`), or null when English is theirs. */
  localizedLanguage: Language | null;
  /** The activity's picture: a `data:` URL or a signed URL the model server can fetch. */
  imageUrl?: string | undefined;
  cameraNotes?: string | null | undefined;
  /** Notes of the memories recognised in it. */
  memoryNotes?: { name: string; notes: string }[];
  /** Every name among the user's memories: a sentence naming one that was not recognised is refused. */
  knownNames?: string[];
}

export interface RicherDescription {
  description: string;
  descriptionLocalized: string | null;
}

const MAX_SENTENCE_CHARS = 280;

function factsText(input: RicherDescriptionInput): string {
  const f = input.facts;
  const lines = [
    `Camera: ${f.cameraName}${f.siteName ? ` (property ${f.siteName})` : ''}`,
    `Local time: ${formatClock(f.occurredAt, f.timezone, 'en')}`,
    `Media: ${f.mediaKind === 'video' ? 'a video clip' : f.mediaKind === 'image' ? 'a snapshot' : 'none'}`,
    `Detected: ${subjectPhrase(f.objects, [], 'en') ?? 'nothing (motion only)'}`,
    `Recognised: ${f.recognised.length ? f.recognised.map((r) => `${r.name} (${r.category})`).join(', ') : 'nobody and nothing known'}`,
  ];
  if (input.cameraNotes?.trim()) lines.push(`Camera notes: ${input.cameraNotes.trim()}`);
  for (const m of input.memoryNotes ?? [])
    if (m.notes.trim()) lines.push(`About ${m.name}: ${m.notes.trim()}`);
  lines.push(`Draft: ${describeActivity(f, 'en')}`);
  return lines.join('\n');
}

/** The first JSON object in the text (models wrap it in prose or code fences now and then). */
function jsonIn(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function sentence(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.replace(/\s+/g, ' ').trim();
  return s && s.length <= MAX_SENTENCE_CHARS ? s : undefined;
}

/** A name of the user's memories that the facts do not contain, if the sentence mentions one. */
function inventedName(text: string, input: RicherDescriptionInput): string | undefined {
  const recognised = new Set(input.facts.recognised.map((r) => fold(r.name)));
  const folded = fold(text);
  return (input.knownNames ?? []).find(
    (name) => !recognised.has(fold(name)) && nameVariants(name).some((v) => namePattern(v).test(folded)),
  );
}

export function createLlmDescriber(deps: { llm?: Llm | undefined; log: Logger }) {
  return {
    /** Whether a model is configured at all (else callers need not schedule anything). */
    enabled: deps.llm !== undefined,

    async describe(input: RicherDescriptionInput): Promise<RicherDescription | undefined> {
      const llm = deps.llm;
      if (!llm) return undefined;
      const lang = input.localizedLanguage;
      const wanted = lang
        ? `{"en": "…", "${lang}": "…"} (${lang === 'de' ? 'German, informal du' : lang} for "${lang}")`
        : '{"en": "…"}';
      const instructions = [
        'You write the one-sentence alert a home security camera app shows its owner.',
        'Use only the facts below and what the picture shows of them. Never mention a person, vehicle, animal or name that is not in the facts; do not guess identities of unrecognised people.',
        'Mention the camera and the local time. At most 25 words. Improve the draft if you can; otherwise return it.',
        `Reply with JSON only: ${wanted}.`,
      ].join(' ');
      const content: LlmContentPart[] = [{ type: 'text', text: factsText(input) }];
      if (input.imageUrl && llm.acceptsImages)
        content.push({ type: 'image_url', image_url: { url: input.imageUrl } });
      try {
        const result = await llm.chat({
          messages: [
            { role: 'system', content: instructions },
            { role: 'user', content },
          ],
          temperature: 0.2,
          maxTokens: 200,
        });
        const json = jsonIn(result.text);
        const description = sentence(json?.en);
        const localized = lang ? sentence(json?.[lang]) : undefined;
        if (!description || (lang && !localized)) {
          deps.log.warn(
            { model: llm.model },
            'llm description was not the JSON asked for; keeping the composed one',
          );
          return undefined;
        }
        const invented = inventedName(`${description} ${localized ?? ''}`, input);
        if (invented) {
          deps.log.warn(
            { model: llm.model },
            'llm description named someone not recognised; keeping the composed one',
          );
          return undefined;
        }
        return { description, descriptionLocalized: localized ?? null };
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        deps.log.warn(
          { model: llm.model, reason: err.reason, err: err.message },
          'llm description failed; keeping the composed one',
        );
        return undefined;
      }
    },
  };
}
export type LlmDescriber = ReturnType<typeof createLlmDescriber>;
