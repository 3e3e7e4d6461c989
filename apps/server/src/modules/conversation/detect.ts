/**
 * Which of the two languages a chat message is written in, when it says so clearly: the home sitter answers
 * a German question in German even if the profile says English, and the other way round.
 */
import type { Language } from '../language/language.module.js';

// Words common in questions to a home sitter that the other language does not share ("was", "in" are both).
const DE = new Set(
  (
    'ich du der die das und ist war wer wen wie wann heute gestern jemand niemand nicht mit auf im am zur zum dass merk merke dir hallo danke letzte letzten nacht hat habe gibt es ein eine einen mein meine unser kam kommt passiert gesehen haustür garten auto hund katze bitte noch schon seit vor nach um uhr ' +
    // Function words, question words and everyday words of German chat that English does not use.
    'mir mich uns wir sind bin bist hab hast habt einer einem nen irgendwas irgendwer irgendjemand etwas nichts ' +
    'mal kannst kann welche welcher welches wieviele viele oft wo woher warum weg dran denk gut gute nacht ' +
    'morgen abend vormittag nachmittag mitternacht stunde stunden minuten woche wochenende ' +
    'montag dienstag mittwoch donnerstag freitag samstag sonntag autos hunde katzen tiere leute kinder ' +
    'erzähl erzähle zeig sag schau schauen los da dort hier vorhin eben gerade zuletzt letztes ' +
    // "Ist zu Hause alles in Ordnung?": everyday words of a short German check-in.
    'zu hause zuhause daheim alles ordnung neues wieder hütte einfahrt verpasst während'
  ).split(' '),
);
const EN = new Set(
  (
    'i you the and is who what when today yesterday anyone anybody someone nobody not with on at that remember hello hi thanks last night has have did there any my our came come happened seen door car dog cat please yet since before after pm am a an of ' +
    'me us we are were do does can could would will it its this your how many which where why anything something nothing ' +
    'good morning evening afternoon tomorrow hour hours minutes week weekend midnight ' +
    'monday tuesday wednesday thursday friday saturday sunday cars dogs cats animals people kids ' +
    'tell show check look'
  ).split(' '),
);

// Words short German questions often are on their own ("Paket?", "Einfahrt?", "Wetter?").
const DE_SHORT = new Set(
  (
    'paket pakete lieferung einfahrt hütte zuhause hause kamera kameras wetter witz danke feuer rauch bär wie viele welche etwas jetzt gerade sonst tschüss servus moin bitte nichts garten tür ' +
    'katze hund auto fuchs tier leute jemand ' +
    'hallo und gute nacht irgendwas wieviele montag dienstag mittwoch donnerstag freitag samstag sonntag gestern heute vorhin'
  ).split(' '),
);
const EN_SHORT = new Set(
  (
    'package delivery driveway cabin home camera cameras weather joke thanks fire smoke bear how many which anything now bye front back yard porch ' +
    'cat dog car fox anyone someone ' +
    'hello good night and monday tuesday wednesday thursday friday saturday sunday yesterday today'
  ).split(' '),
);

export function detectLanguage(text: string): Language | undefined {
  const words = text.toLowerCase().match(/[a-zäöüß]+/g) ?? [];
  if (words.length > 0 && words.length <= 3) {
    // A short message: one word of one language and none of the other is enough.
    // Only words that say something; a bare "Hi" or "ok" leaves it to the profile.
    const de = words.filter((w) => DE_SHORT.has(w)).length + (/[äöüß]/.test(text) ? 1 : 0);
    const en = words.filter((w) => EN_SHORT.has(w)).length;
    if (de > 0 && en === 0) return 'de';
    if (en > 0 && de === 0) return 'en';
  }
  let de = /[äöüß]/.test(text.toLowerCase()) ? 1 : 0;
  let en = 0;
  for (const w of words) {
    if (DE.has(w)) de += 1;
    if (EN.has(w)) en += 1;
  }
  if (de >= 2 && de > en * 2) return 'de';
  if (en >= 2 && en > de * 2) return 'en';
  return undefined;
}
