/**
 * The home sitter's fixed lines, in English and German: what it is doing while it looks (the typing
 * indicator), small talk, confirming a note, and saying why it keeps nothing in amnesia mode.
 */
import {
  formatDayDate,
  localDayNumber,
  weekdayName,
  weekdayOfDay,
  type Language,
} from '../language/language.module.js';
import type { ParsedQuestion } from './question.js';
import { windowPhrase } from './window-label.js';

/** "Looking through today's events…", "Ich sehe mir an, was letzte Nacht passiert ist …". */
export function progressText(q: ParsedQuestion, language: Language): string {
  if (q.intent === 'remember') return language === 'en' ? 'Making a note…' : 'Ich notiere mir das …';
  // Nothing to look through when the window has not begun or the answer must ask when.
  if (q.intent === 'smalltalk' || !q.window || q.timing === 'ahead' || q.timing === 'ask')
    return language === 'en' ? 'Thinking…' : 'Einen Moment …';
  const w = q.window;
  if (language === 'de') return `Ich sehe mir an, was ${windowPhrase(w, 'de')} passiert ist …`;
  if (w.type === 'day' && !w.part && !w.after && !w.before && !w.around) {
    if (w.day.type === 'today') return "Looking through today's events…";
    if (w.day.type === 'yesterday') return "Looking through yesterday's events…";
  }
  if (w.type === 'night' && w.which === 'last') return "Looking through last night's events…";
  return `Looking through events ${windowPhrase(w, 'en')}…`;
}

const EXAMPLES: Record<Language, string> = {
  en: 'Ask me things like “Did anyone come to the front door today?” or “What happened last night?”, or tell me “Remember that the plumber comes on Tuesday.”',
  de: 'Frag mich zum Beispiel „War heute jemand an der Haustür?“ oder „Was ist letzte Nacht passiert?“, oder sag mir „Merk dir, dass der Klempner am Dienstag kommt.“',
};

export type SmallTalkKind = 'greeting' | 'thanks' | 'help' | 'how_are_you' | 'good_night' | 'bye';

export function smalltalkReply(kind: SmallTalkKind, language: Language): string {
  const en = language === 'en';
  if (kind === 'thanks') return en ? "You're welcome!" : 'Gern geschehen!';
  if (kind === 'how_are_you')
    return en
      ? `I'm doing well, thanks for asking — I'm keeping an eye on your cameras. ${EXAMPLES.en}`
      : `Mir geht es gut, danke der Nachfrage – ich behalte deine Kameras im Blick. ${EXAMPLES.de}`;
  if (kind === 'good_night')
    return en
      ? "Good night! Sleep well — I'll keep an eye on things."
      : 'Gute Nacht! Schlaf gut – ich behalte alles im Blick.';
  if (kind === 'bye') return en ? "Bye! I'll keep an eye on things." : 'Tschüss! Ich behalte alles im Blick.';
  if (kind === 'greeting')
    return language === 'en'
      ? `Hi! I'm keeping an eye on your cameras. ${EXAMPLES.en}`
      : `Hallo! Ich behalte deine Kameras im Blick. ${EXAMPLES.de}`;
  return language === 'en'
    ? `I'm your home sitter: I watch what your cameras send, alert you when someone or something shows up, write hourly and daily highlights and answer questions about them. ${EXAMPLES.en}`
    : `Ich bin dein Home Sitter: Ich schaue mir an, was deine Kameras schicken, melde mich, wenn jemand oder etwas auftaucht, schreibe stündliche und tägliche Highlights und beantworte Fragen dazu. ${EXAMPLES.de}`;
}

/** "Got it, I'll remember: “…”." with how long, when the note named a day. */
export function rememberedReply(
  note: string,
  until: Date | undefined,
  ctx: { now: Date; timezone: string | null | undefined },
  language: Language,
): string {
  const quoted = language === 'en' ? `“${note}”` : `„${note}“`;
  const head =
    language === 'en' ? `Got it, I'll remember: ${quoted}.` : `Alles klar, ich merke mir: ${quoted}.`;
  if (!until) return head;
  // `until` is the midnight after the day the note is about; that day is what the user hears.
  const lastDay = new Date(until.getTime() - 1);
  const ahead = localDayNumber(lastDay, ctx.timezone) - localDayNumber(ctx.now, ctx.timezone);
  if (language === 'en') {
    const day = ahead === 0 ? 'today' : ahead === 1 ? 'tomorrow' : futureDay(lastDay, ctx, 'en');
    return ahead === 0
      ? `${head} I'll keep it in mind for today.`
      : `${head} I'll keep it in mind through ${day}.`;
  }
  const day = ahead === 0 ? 'heute' : ahead === 1 ? 'morgen' : futureDay(lastDay, ctx, 'de');
  return ahead === 0
    ? `${head} Ich behalte es für heute im Kopf.`
    : `${head} Ich behalte es bis einschließlich ${day} im Kopf.`;
}

/** A day ahead: its weekday within the coming week ("Tuesday"), else its date ("Jun 3"). */
function futureDay(at: Date, ctx: { now: Date; timezone: string | null | undefined }, language: Language) {
  const day = localDayNumber(at, ctx.timezone);
  const ahead = day - localDayNumber(ctx.now, ctx.timezone);
  return ahead < 7 ? weekdayName(weekdayOfDay(day), language) : formatDayDate(day, language);
}

export function amnesiaRememberReply(language: Language): string {
  return language === 'en'
    ? "Amnesia mode is on, so I'm not keeping anything new. Turn it off under Memories if you'd like me to remember this."
    : 'Der Amnesiemodus ist an, deshalb behalte ich nichts Neues. Schalte ihn unter Erinnerungen aus, wenn ich mir das merken soll.';
}

export function failureReply(language: Language): string {
  return language === 'en'
    ? "Sorry, I couldn't look through your events just now. Please try again in a moment."
    : 'Entschuldige, ich konnte deine Ereignisse gerade nicht durchsehen. Bitte versuche es gleich noch einmal.';
}
