/**
 * The two descriptions an activity stores, composed from what the analysis stored about it (objects with
 * their counts, recognised memories): English always, and the user's language when the composer speaks it.
 * The analysis writes them, corrections rewrite them, and the language model's rewrite starts from the same
 * facts (`factsOf`).
 */
import type { ActivityObject, CameraVerdict, RecognisedMemory } from '../../platform/db/schema.js';
import { describeActivity, type ActivityFacts, type DetectedObject } from './activity-sentence.js';
import type { Language } from './lexicon.js';

/** What the description of an activity is made from: where and when, and what the AI stored about it. */
export interface DescribedActivity {
  cameraName: string;
  siteName: string | null;
  timezone: string | null;
  occurredAt: Date;
  mediaKind: 'image' | 'video' | 'none';
  objects: ActivityObject[];
  recognised: RecognisedMemory[];
  /** The camera maker's own verdict (`activities.camera_verdict`). */
  cameraVerdict: readonly CameraVerdict[];
}

export interface Descriptions {
  /** English, always (search and the LLM read it). */
  description: string;
  /** The user's preferred language when that is not English and the composer speaks it; else null. */
  descriptionLocalized: string | null;
}

/** The languages the composer writes besides English. */
const LOCALISED: readonly Language[] = ['de'];

export function localisedLanguage(preferred: string): Language | null {
  const code = preferred.toLowerCase().split(/[-_]/)[0] as Language;
  return LOCALISED.includes(code) ? code : null;
}

/**
 * The detections the composer speaks of: a stored object stands for `count` alike ones (the most seen at
 * once), counted one by one.
 */
export function detectionsOf(objects: ActivityObject[]): DetectedObject[] {
  return objects.flatMap((o) =>
    Array.from({ length: Math.max(1, o.count ?? 1) }, () => ({
      kind: o.kind,
      label: o.label,
      color: o.color,
      ...(o.background ? { background: true } : {}),
    })),
  );
}

export function factsOf(a: DescribedActivity): ActivityFacts {
  return {
    cameraName: a.cameraName,
    siteName: a.siteName,
    occurredAt: a.occurredAt,
    timezone: a.timezone,
    objects: detectionsOf(a.objects),
    recognised: a.recognised.map((r) => ({ category: r.category, name: r.name })),
    mediaKind: a.mediaKind,
    cameraVerdict: a.cameraVerdict,
  };
}

/** The deterministic sentence in English and, when the user reads another supported language, in theirs. */
export function describe(a: DescribedActivity, preferredLanguage: string): Descriptions {
  const facts = factsOf(a);
  const localised = localisedLanguage(preferredLanguage);
  return {
    description: describeActivity(facts, 'en'),
    descriptionLocalized: localised ? describeActivity(facts, localised) : null,
  };
}
