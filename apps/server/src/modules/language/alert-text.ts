/**
 * An alert's text: why it is unusual when it is, then each distinct sentence of its activities, first to last.
 * The alerts module writes it in the owner's language when the alert is sent; the chat history renders it
 * again in the reader's language when read (activities.attachments.ts), so both must say it the same way.
 */
import type { Language } from './lexicon.js';
import { unusualLine, type UnusualFacts } from './unusual.js';

/** One activity of an alert as its text needs it: its sentence, and the routine's verdict on it. */
export interface AlertPart {
  sentence: string | null;
  unusual: UnusualFacts | null | undefined;
  cameraName: string;
}

/** Sentences of one alert; beyond these, later activities are still attached but not spelled out. */
const MAX_SENTENCES = 6;

/** "Unusual: …" when one of the alert's activities departs from its camera's routine (the first that does). */
export function alertUnusualLine(parts: AlertPart[], language: Language): string | undefined {
  const odd = parts.find((p) => p.unusual);
  return odd?.unusual ? unusualLine(odd.unusual, odd.cameraName, language) : undefined;
}

export function alertText(parts: AlertPart[], language: Language): string {
  const sentences = [...new Set(parts.map((p) => p.sentence).filter((s): s is string => Boolean(s)))];
  const unusual = alertUnusualLine(parts, language);
  return [...(unusual ? [unusual] : []), ...sentences.slice(0, MAX_SENTENCES)].join('\n');
}
