/**
 * Corrections as people phrase them ("that's Tom, my neighbour", "no, it was my neighbour Tom", "das ist
 * nicht Tom"): the name, whether it confirms or denies, and the sentence the alerts module reads. Part of
 * the intent step (intent.ts).
 */
import { fold, type Language } from '../language/language.module.js';
import type { Understood } from './intent.js';
import type { QuestionContext } from './question.js';

const w = (list: string) => new RegExp(`(?<![a-z0-9])(?:${list})(?![a-z0-9])`);

const NAME = String.raw`(\p{L}[\p{L}'.-]*(?:\s+\p{Lu}[\p{L}'.-]*){0,2})`;
const LEAD = String.raw`(?:(?:no|nope|nah|yes|yeah|yep|actually|wrong|ja|nein|doch|falsch|eigentlich)\s*[,.!]?\s+)*`;
const RELATION_EN = String.raw`(?:(?:my|our|the)\s+(?:\p{Ll}+\s+)?)?`;
const RELATION_DE = String.raw`(?:(?:mein|meine|meinen|unser|unsere|der|die)\s+(?:\p{L}+\s+)?)?`;
const SUBJECT_EN = String.raw`(?:that|this|it|he|she|the (?:person|guy|man|woman|visitor|stranger))`;
const SUBJECT_DE = String.raw`(?:das|dies|es|er|sie|die person|der mann|die frau|der besucher)`;

const CORRECTIONS: { re: RegExp; isCorrect: boolean; language: Language }[] = [
  {
    re: new RegExp(
      String.raw`^${LEAD}(?:${SUBJECT_EN}(?:'s|\s+is|\s+was)\s+not|${SUBJECT_EN}\s+(?:isn't|wasn't)|not)\s+${RELATION_EN}${NAME}$`,
      'iu',
    ),
    isCorrect: false,
    language: 'en',
  },
  {
    re: new RegExp(
      String.raw`^${LEAD}(?:${SUBJECT_DE}\s+(?:ist|war)\s+nicht|nicht)\s+${RELATION_DE}${NAME}$`,
      'iu',
    ),
    isCorrect: false,
    language: 'de',
  },
  {
    re: new RegExp(
      String.raw`^${LEAD}(?:${SUBJECT_EN}(?:'s|\s+is|\s+was)|thats|its)\s+(?:actually\s+|just\s+|only\s+)?${RELATION_EN}${NAME}$`,
      'iu',
    ),
    isCorrect: true,
    language: 'en',
  },
  {
    re: new RegExp(
      String.raw`^${LEAD}${SUBJECT_DE}\s+(?:ist|war)\s+(?:doch\s+|nur\s+|eigentlich\s+)?${RELATION_DE}${NAME}$`,
      'iu',
    ),
    isCorrect: true,
    language: 'de',
  },
];

/** Words that follow "that's" without being a name: "that's great", "das ist gut". */
const NOT_NAMES = w(
  'all|it|great|good|fine|ok|okay|right|wrong|true|false|nice|cool|perfect|enough|weird|strange|odd|interesting|' +
    'funny|bad|sad|me|him|her|them|us|you|not|nothing|everything|alles|gut|super|prima|richtig|falsch|toll|' +
    'schon|seltsam|komisch|nichts|mir|ihm|ihr|uns|dir|klar|genug|okay|a|an|the|ein|eine',
);

/** "that wasn't a cat, it was a fox", "das war keine Katze, sondern ein Fuchs": what was seen, said anew. */
const RELABELS: { re: RegExp; language: Language }[] = [
  {
    re: new RegExp(
      String.raw`^${LEAD}(?:that|this|it)\s*(?:'s not|\s+wasn't|\s+was not|\s+isn't|\s+is not|\s+wasnt|\s+isnt)\s+(?:a|an|the|my)\s+(\p{L}+)\s*[,;]?\s*(?:(?:but\s+)?(?:it|that|this)(?:'s|\s+was|\s+is)|but)\s+(?:actually\s+|just\s+)?(?:a|an|the)\s+(\p{L}+)$`,
      'iu',
    ),
    language: 'en',
  },
  {
    re: new RegExp(
      String.raw`^${LEAD}(?:das|es|dies)\s+(?:war|ist)\s+kein(?:e|en)?\s+(\p{L}+)\s*,?\s*(?:sondern|das war|es war|das ist)\s+(?:doch\s+|eigentlich\s+)?(?:ein|eine|einen)\s+(\p{L}+)$`,
      'iu',
    ),
    language: 'de',
  },
];

export function correctionOf(
  text: string,
  ctx: QuestionContext,
): Extract<Understood, { intent: 'correction' }> | undefined {
  const clean = text
    .normalize('NFC')
    .replace(/[\u2019\u2018`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!?…:;)(\p{Extended_Pictographic}\uFE0F]+$/u, '');
  if (text.trim().endsWith('?')) return undefined;
  for (const { re, language } of RELABELS) {
    const m = re.exec(clean);
    if (!m) continue;
    const [was, is] = [m[1]!.toLowerCase(), m[2]!.toLowerCase()];
    return { intent: 'correction', name: is, isCorrect: true, language, text: clean, relabel: { was, is } };
  }
  // A trailing clause says more about them ("that's Tom, my neighbour", "das ist Tom – unser Gärtner").
  const clauses = clean.split(/\s*(?:,|;|\s[-–—]\s|\()\s*/);
  const candidates = [clean, ...clauses.slice(0, 2).map((_, i) => clauses.slice(0, i + 1).join(', '))];
  const known = new Set(ctx.memories.filter((m) => m.category === 'people').map((m) => fold(m.name)));
  for (const candidate of candidates) {
    for (const { re, isCorrect, language } of CORRECTIONS) {
      const name = re
        .exec(candidate)?.[1]
        ?.trim()
        .replace(/[.'-]+$/, '');
      if (!name || NOT_NAMES.test(fold(name))) continue;
      if (!/^\p{Lu}/u.test(name) && !known.has(fold(name))) continue;
      const said =
        language === 'en'
          ? isCorrect
            ? `that's ${name}`
            : `that's not ${name}`
          : isCorrect
            ? `das ist ${name}`
            : `das ist nicht ${name}`;
      return { intent: 'correction', name, isCorrect, language, text: said };
    }
  }
  return undefined;
}
