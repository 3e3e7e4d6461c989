/**
 * What the home sitter says to a correction that no alert takes (not a reply to one, and no recent alert
 * shows what it speaks of) but that follows an answer in the chat: it keeps the correction as a note with
 * the question it is about, and says so honestly (the events themselves are corrected through their alert).
 */
import type { Understood } from './intent.js';
import { capitalise, enArticle, type Language } from '../language/language.module.js';

type Correction = Extract<Understood, { intent: 'correction' }>;

const q = (text: string, language: Language) => (language === 'en' ? `“${text}”` : `„${text}“`);

/** The note kept: the correction in the user's words, and the question it answers. */
export function correctionNote(said: string, question: string, language: Language): string {
  const text = said.charAt(0).toUpperCase() + said.slice(1);
  return language === 'en' ? `${text} (about ${q(question, 'en')})` : `${text} (zu ${q(question, 'de')})`;
}

/** "Thanks, noted: that's Tom. …" with what the home sitter can and cannot do with it. */
export function correctionNotedReply(
  u: Correction,
  question: string,
  known: boolean,
  language: Language,
): string {
  const en = language === 'en';
  const kept = en
    ? `I've kept it as a note with your question ${q(question, 'en')}.`
    : `Ich habe es mir als Notiz zu deiner Frage ${q(question, 'de')} gemerkt.`;
  if (u.relabel) {
    const { was, is } = u.relabel;
    return en
      ? `Thanks, noted: it was ${enArticle(is)} ${is}, not ${enArticle(was)} ${was}. ${kept} I can't relabel what the cameras detected yet.`
      : `Danke, notiert: ${capitalise(is)} statt ${capitalise(was)}. ${kept} Was die Kameras erkannt haben, kann ich noch nicht umbenennen.`;
  }
  const said = en ? u.text.replace(/^that's/, 'that was') : u.text.replace(/^das ist/, 'das war');
  const head = en ? `Thanks, noted: ${said}.` : `Danke, notiert: ${said}.`;
  if (!known)
    return en
      ? `${head} ${kept} I don't know ${u.name} yet — add ${u.name} under Memories with a photo and I'll recognise them next time.`
      : `${head} ${kept} ${u.name} kenne ich noch nicht – lege ${u.name} unter Erinnerungen mit einem Foto an, dann erkenne ich sie beim nächsten Mal.`;
  return en
    ? `${head} ${kept} To correct the alert itself, reply to it with ${q(u.text, 'en')}.`
    : `${head} ${kept} Um die Meldung selbst zu korrigieren, antworte darauf mit ${q(u.text, 'de')}.`;
}
