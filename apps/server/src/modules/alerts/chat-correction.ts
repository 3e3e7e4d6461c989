/**
 * A chat reply to an alert that corrects who is in it: "that's Rose", "that is Rose", "yes, it's Rose",
 * "not Rose", "that's not Rose", "no, that isn't Rose"; German "das ist Rose", "nicht Rose", "das ist nicht
 * Rose", "nein, das war nicht Rose". Only whole messages of that shape count, so "that's great, thanks" or
 * a question never reads as a correction.
 */
export interface ChatCorrection {
  /** The name as written, e.g. "Rose" or "Uncle Tom". */
  name: string;
  isCorrect: boolean;
  language: 'en' | 'de';
  /** The name starts with a capital letter, as a name does ("Rose"; not "great" in "that's great"). */
  looksLikeName: boolean;
}

const NAME = String.raw`(\p{L}[\p{L}\p{M}'. -]{0,59})`;
const LEAD_EN = String.raw`(?:(?:yes|yeah|yep|no|nope)\s*[,.!]?\s+)?`;
const LEAD_DE = String.raw`(?:(?:ja|nein|doch)\s*[,.!]?\s+)?`;
const SUBJECT_EN = String.raw`(?:that|this|it|he|she)`;
const SUBJECT_DE = String.raw`(?:das|dies|es|er|sie)`;

const PATTERNS: { re: RegExp; isCorrect: boolean; language: 'en' | 'de' }[] = [
  {
    re: new RegExp(
      String.raw`^${LEAD_EN}(?:${SUBJECT_EN}(?:'s|\s+is|\s+was)\s+not|${SUBJECT_EN}\s+(?:isn't|wasn't)|not)\s+${NAME}$`,
      'iu',
    ),
    isCorrect: false,
    language: 'en',
  },
  {
    re: new RegExp(String.raw`^${LEAD_DE}(?:${SUBJECT_DE}\s+(?:ist|war)\s+nicht|nicht)\s+${NAME}$`, 'iu'),
    isCorrect: false,
    language: 'de',
  },
  {
    re: new RegExp(String.raw`^${LEAD_EN}${SUBJECT_EN}(?:'s|\s+is|\s+was)\s+${NAME}$`, 'iu'),
    isCorrect: true,
    language: 'en',
  },
  {
    re: new RegExp(String.raw`^${LEAD_DE}${SUBJECT_DE}\s+(?:ist|war)\s+${NAME}$`, 'iu'),
    isCorrect: true,
    language: 'de',
  },
];

export function parseChatCorrection(text: string): ChatCorrection | undefined {
  const clean = text
    .normalize('NFC')
    .replace(/[\u2019\u2018`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?…:;)(\p{Extended_Pictographic}\uFE0F]+$/u, '')
    .trim();
  for (const { re, isCorrect, language } of PATTERNS) {
    const m = re.exec(clean);
    const name = m?.[1]?.trim().replace(/[.'-]+$/, '');
    if (!name) continue;
    return { name, isCorrect, language, looksLikeName: /^\p{Lu}/u.test(name) };
  }
  return undefined;
}
