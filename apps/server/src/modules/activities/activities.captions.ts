/**
 * The sentence under an event (its caption) in the reader's language as it is now, not as it was when the
 * event was analysed: a user who switches to German reads their older events in German too.
 */
import { describeActivity, detectionsOf, languageOf } from '../language/language.module.js';
import type { ActivityRow } from './activities.repository.js';

/** How the owner reads: their language and clock. */
export interface CaptionReader {
  preferredLanguage: string;
  timezone: string | null;
}

export function captionFor(row: ActivityRow, reader: CaptionReader): string | null {
  const language = languageOf(reader.preferredLanguage);
  if (language === 'en') return row.description ?? row.descriptionLocalized;
  // The stored localised sentence is German (the only other language the composer writes).
  if (row.descriptionLocalized) return row.descriptionLocalized;
  if (!row.analysedAt) return row.description;
  return describeActivity(
    {
      cameraName: row.cameraName,
      occurredAt: row.occurredAt,
      timezone: reader.timezone,
      objects: detectionsOf(row.objects),
      recognised: row.recognised,
      mediaKind: row.mediaKind,
    },
    language,
  );
}
