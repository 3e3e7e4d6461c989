/**
 * A question replied to an alert ("who is this person?", "is this the mailman?", "what car is that?", "wer
 * ist das?") is about that alert's activities, not the last 24 hours (issue 31 point 8): it is answered from
 * what those activities show, and says what the cameras cannot tell (a stranger's name, a car's make).
 */
import {
  fold,
  joinList,
  nounFor,
  numberWord,
  type Language,
  type ObjectKind,
} from '../language/language.module.js';
import { sentenceOf, type AnswerContext, type FoundActivity } from './answer.js';

/** What a reply to an alert asks about it; undefined: not a question about the alert (answered as usual). */
export type AlertQuestion =
  | { about: 'who'; name?: string; role?: { en: string; de: string } }
  | { about: 'vehicle' }
  | { about: 'animal' }
  | { about: 'what' };

const ROLES: { re: RegExp; en: string; de: string }[] = [
  {
    re: /\b(mail ?man|postman|post ?man|mail carrier|postie|postbote|postbotin|brieftrager\w*|die post)\b/,
    en: 'the mail carrier',
    de: 'der Postbote',
  },
  {
    re: /\b(courier|delivery (guy|man|person|driver)|paketbote|bote|lieferant\w*)\b/,
    en: 'a courier',
    de: 'ein Paketbote',
  },
  { re: /\b(gardener|gartner\w*)\b/, en: 'the gardener', de: 'der Gärtner' },
  { re: /\b(neighbou?r|nachbar\w*)\b/, en: 'a neighbour', de: 'ein Nachbar' },
  { re: /\b(police|cop|polizei\w*)\b/, en: 'the police', de: 'die Polizei' },
];

const WHO =
  /\b(who|whos|whom|wer|wen|know (him|her|them|this|that)|kennst du|recogni[sz]e|erkennst|is (this|that|it|he|she)|are (they|these|those)|ist (das|er|sie|es)|sind (das|sie)|person|people|guy|man|woman|lady|leute|person(en)?|mann|frau|typ)\b/;
const VEHICLE =
  /\b(car|cars|vehicle|truck|van|auto|autos|wagen|fahrzeug|lkw|make|model|plate|kennzeichen|marke)\b/;
const ANIMAL = /\b(dog|cat|animal|pet|hund|katze|tier|fox|fuchs)\b/;
const ABOUT_IT =
  /\b(this|that|these|those|it|him|her|them|das|der|die|dies|diese[rsn]?|er|sie|ihn|es)\b|^(what|who|wer|was)\b/;

/**
 * Reads a reply to an alert. Only short questions about "this / that / him / das" are taken: a reply that
 * names a time or asks something else ("and yesterday?") is a question of its own.
 */
export function alertQuestionOf(text: string, knownNames: string[]): AlertQuestion | undefined {
  const t = fold(text);
  if (!ABOUT_IT.test(t) && !t.endsWith('?') && t.split(' ').length > 4) return undefined;
  const name = knownNames.find((n) => new RegExp(`\\b${fold(n)}\\b`).test(t));
  const role = ROLES.find((r) => r.re.test(t));
  if (name) return { about: 'who', name };
  if (role) return { about: 'who', role: { en: role.en, de: role.de } };
  // "who's that guy next to the car?" asks about the person, not the car.
  if (/^(who|whos|whom|wer|wen)\b/.test(t)) return { about: 'who' };
  if (VEHICLE.test(t)) return { about: 'vehicle' };
  if (ANIMAL.test(t)) return { about: 'animal' };
  if (WHO.test(t)) return { about: 'who' };
  if (/\b(what|was)\b/.test(t) && ABOUT_IT.test(t)) return { about: 'what' };
  return undefined;
}

function countPhrase(n: number, kind: ObjectKind, language: Language): string {
  const noun = nounFor(kind, undefined)[language];
  if (n === 1)
    return language === 'en'
      ? `one ${noun.one}`
      : `${nounFor(kind, undefined).de.gender === 'f' ? 'eine' : 'ein'} ${noun.one}`;
  return `${n < 13 ? numberWord(n, language) : n} ${noun.other}`;
}

/** The most people seen at once in one of the alert's activities, besides those in the background. */
function peopleIn(found: FoundActivity[]): { names: string[]; strangers: number } {
  const names = [
    ...new Set(found.flatMap((a) => a.recognised.filter((r) => r.category === 'people').map((r) => r.name))),
  ];
  const most = Math.max(
    0,
    ...found.map((a) => a.objects.filter((o) => o.kind === 'person' && !o.background).length),
  );
  return { names, strangers: Math.max(0, most - names.length) };
}

/** The answer to a question replied to an alert, citing the alert's activities. */
export function composeAlertReply(
  question: AlertQuestion,
  found: FoundActivity[],
  ctx: Pick<AnswerContext, 'language' | 'timezone'>,
): { text: string; cited: FoundActivity[] } {
  const en = ctx.language === 'en';
  const seen = found.map((a) => sentenceOf(a, ctx)).join('\n');
  const cited = found;
  if (question.about === 'vehicle') {
    const vehicles = found.flatMap((a) => a.objects.filter((o) => o.kind === 'vehicle'));
    if (vehicles.length === 0)
      return {
        text: en
          ? `There is no vehicle in this alert. ${seen}`
          : `In dieser Meldung ist kein Fahrzeug. ${seen}`,
        cited,
      };
    const tail = en
      ? 'I can tell the colour and the kind of vehicle, not its make or number plate.'
      : 'Farbe und Art des Fahrzeugs erkenne ich, Marke und Kennzeichen nicht.';
    return { text: `${seen}\n${tail}`, cited };
  }
  if (question.about === 'animal') {
    const animals = found.flatMap((a) => a.objects.filter((o) => o.kind === 'animal'));
    const named = found.flatMap((a) => a.recognised.filter((r) => r.category === 'animals'));
    if (animals.length === 0)
      return {
        text: en ? `There is no animal in this alert. ${seen}` : `In dieser Meldung ist kein Tier. ${seen}`,
        cited,
      };
    if (named.length) return { text: seen, cited };
    const tail = en
      ? "I don't know whose it is: it is not one of your pets in Memories."
      : 'Wem es gehört, weiß ich nicht: Es ist keines deiner Haustiere unter Erinnerungen.';
    return { text: `${seen}\n${tail}`, cited };
  }
  const { names, strangers } = peopleIn(found);
  if (names.length === 0 && strangers === 0) {
    if (question.about === 'what') return { text: seen, cited };
    return {
      text: en ? `There is nobody in this alert. ${seen}` : `In dieser Meldung ist niemand zu sehen. ${seen}`,
      cited,
    };
  }
  const stranger = en
    ? strangers === 1
      ? "I didn't recognise this person: they are not one of the people in your Memories."
      : `I didn't recognise them: ${countPhrase(strangers, 'person', 'en')}, none of them in your Memories.`
    : strangers === 1
      ? 'Diese Person habe ich nicht erkannt: Sie ist keine der Personen unter deinen Erinnerungen.'
      : `Ich habe sie nicht erkannt: ${countPhrase(strangers, 'person', 'de')}, keine davon unter deinen Erinnerungen.`;
  const known = names.length
    ? en
      ? `This is ${joinList(names, 'en')}.`
      : `Das ist ${joinList(names, 'de')}.`
    : '';
  const addThem = en
    ? 'If you know them, reply to the alert with their name (“that’s …”) and I’ll remember.'
    : 'Wenn du sie kennst, antworte auf die Meldung mit dem Namen („das ist …“), dann merke ich es mir.';
  let lead: string;
  if (question.about === 'who' && question.name) {
    const isThem = names.some((n) => fold(n) === fold(question.name!));
    lead = isThem
      ? en
        ? `Yes, this is ${question.name}.`
        : `Ja, das ist ${question.name}.`
      : en
        ? `I didn't recognise ${question.name} here. ${[known, strangers ? stranger : ''].filter(Boolean).join(' ')}`
        : `${question.name} habe ich hier nicht erkannt. ${[known, strangers ? stranger : ''].filter(Boolean).join(' ')}`;
  } else if (question.about === 'who' && question.role) {
    const role = question.role;
    lead = en
      ? `I can't tell whether this is ${role.en}: I don't know what ${role.en} looks like. ${[known, strangers ? stranger : ''].filter(Boolean).join(' ')}`
      : `Ob das ${role.de} ist, kann ich nicht sagen: Ich weiß nicht, wie ${role.de} aussieht. ${[known, strangers ? stranger : ''].filter(Boolean).join(' ')}`;
  } else lead = [known, strangers ? stranger : ''].filter(Boolean).join(' ');
  const offer =
    strangers && !(question.about === 'who' && question.name && names.length) ? `\n${addThem}` : '';
  return { text: `${lead.trim()}\n${seen}${offer}`, cited };
}
