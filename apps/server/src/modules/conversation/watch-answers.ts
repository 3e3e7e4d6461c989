/**
 * What the home sitter says about watch requests, English and German (docs/assistant.md, "Watch requests"):
 * the confirmation, the list, a cancellation, the refusals, and the alert when a watch matched. Times are on
 * the user's clock (12-hour in English, 24-hour in German), as everywhere else.
 */
import {
  formatClock,
  formatDayDate,
  localDayNumber,
  type Language,
  type ObjectKind,
  joinList,
  kindOfLabel,
  nounFor,
  deWhere,
  enWhere,
  placeOf,
  siteWhere,
} from '../language/language.module.js';
import type { WatchChannel, WatchRepeat } from './watch-phrases.js';

/** A watch as the user would name it: names, not ids. */
export interface WatchFacts {
  kinds: ObjectKind[];
  labels: string[];
  memoryNames: string[];
  cameraNames: string[];
  siteNames: string[];
  from: Date;
  to: Date;
  repeat: WatchRepeat;
  channel: WatchChannel;
}

export interface WatchTalk {
  language: Language;
  timezone: string | null | undefined;
  now: Date;
}

const or = (items: string[], language: Language) =>
  items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ${language === 'en' ? 'or' : 'oder'} ${items.at(-1)!}`;

/** "a car", "someone", "Bella"; German "ein Auto", "jemand", "eine Katze". */
export function watchSubject(
  w: Pick<WatchFacts, 'kinds' | 'labels' | 'memoryNames'>,
  language: Language,
): string {
  const parts: string[] = [...w.memoryNames];
  const labelled = new Set<ObjectKind>();
  for (const label of w.labels) {
    const kind = kindOfLabel(label) ?? w.kinds[0] ?? 'vehicle';
    labelled.add(kind);
    const noun = nounFor(kind, label);
    parts.push(
      language === 'en'
        ? `${/^[aeiou]/.test(noun.en.one) ? 'an' : 'a'} ${noun.en.one}`
        : `${noun.de.gender === 'f' ? 'eine' : 'ein'} ${noun.de.one}`,
    );
  }
  for (const kind of w.kinds) {
    if (labelled.has(kind) || (w.memoryNames.length > 0 && w.labels.length === 0 && w.kinds.length === 1))
      continue;
    if (kind === 'person') parts.push(language === 'en' ? 'someone' : 'jemand');
    else if (kind === 'vehicle') parts.push(language === 'en' ? 'a vehicle' : 'ein Fahrzeug');
    else parts.push(language === 'en' ? 'an animal' : 'ein Tier');
  }
  if (parts.length === 0) return language === 'en' ? 'anyone or anything' : 'jemand oder etwas';
  return or(parts, language);
}

/** " in the Driveway", " at Cabin", "" for everywhere. */
function where(w: Pick<WatchFacts, 'cameraNames' | 'siteNames'>, language: Language): string {
  const places = [
    ...w.cameraNames.map((name) =>
      language === 'en' ? enWhere(placeOf(name, 'en')) : deWhere(placeOf(name, 'de')),
    ),
    ...w.siteNames.map((name) => siteWhere(name, language)),
  ];
  return places.length ? ` ${or(places, language)}` : '';
}

/** "5:18 AM", "tomorrow at 5:18 AM", "Nov 19 at 5:18 AM"; German "5:18 Uhr", "morgen um 05:18 Uhr". */
export function clockPhrase(at: Date, talk: WatchTalk): string {
  const { language, timezone } = talk;
  const clock = formatClock(at, timezone, language) + (language === 'de' ? ' Uhr' : '');
  const days = localDayNumber(at, timezone) - localDayNumber(talk.now, timezone);
  if (days === 0) return clock;
  if (days === 1 && /^0?0:00/.test(formatClock(at, timezone, 'de')))
    return language === 'en' ? 'midnight' : 'Mitternacht';
  if (days === 1) return language === 'en' ? `tomorrow at ${clock}` : `morgen um ${clock}`;
  const date = formatDayDate(localDayNumber(at, timezone), language);
  return language === 'en' ? `${date} at ${clock}` : `am ${date} um ${clock}`;
}

function span(w: Pick<WatchFacts, 'from' | 'to'>, talk: WatchTalk): string {
  const until = `${talk.language === 'en' ? 'until' : 'bis'} ${clockPhrase(w.to, talk)}`;
  if (w.from.getTime() <= talk.now.getTime() + 60_000) return until;
  return `${talk.language === 'en' ? 'from' : 'ab'} ${clockPhrase(w.from, talk)} ${until}`;
}

/** One line of the list: "a car in the Driveway, until 5:18 AM (every time, by text)". */
export function watchLine(w: WatchFacts, talk: WatchTalk): string {
  const en = talk.language === 'en';
  const notes = [
    ...(w.repeat === 'every_time' ? [en ? 'every time' : 'jedes Mal'] : []),
    ...(w.channel === 'sms' ? [en ? 'by text' : 'per SMS'] : []),
  ];
  return `${watchSubject(w, talk.language)}${where(w, talk.language)}, ${span(w, talk)}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

export function watchCreatedReply(w: WatchFacts, defaulted: boolean, hours: number, talk: WatchTalk): string {
  const subject = watchSubject(w, talk.language);
  if (talk.language === 'en') {
    const how = w.channel === 'sms' ? 'text' : 'tell';
    const when = w.repeat === 'every_time' ? 'every time' : 'when';
    const said = `OK — I'll ${how} you ${when} ${subject} shows up${where(w, 'en')} ${span(w, talk)}.`;
    return defaulted
      ? `${said} You didn't say for how long, so I'll watch for the next ${hours} hours.`
      : said;
  }
  const how = w.channel === 'sms' ? 'schreibe dir eine SMS' : 'sage dir Bescheid';
  const when = w.repeat === 'every_time' ? 'jedes Mal, wenn' : 'wenn';
  const said = `OK – ich ${how}, ${when} ${subject}${where(w, 'de')} auftaucht, ${span(w, talk)}.`;
  return defaulted
    ? `${said} Du hast keine Dauer genannt, also passe ich die nächsten ${hours} Stunden auf.`
    : said;
}

export function watchPastReply(language: Language): string {
  return language === 'en'
    ? 'That time is already over — I can only watch from now on. You can say, for example, “tell me when someone comes tonight”.'
    : 'Diese Zeit ist schon vorbei – ich kann nur ab jetzt aufpassen. Sag zum Beispiel „sag mir Bescheid, wenn heute Nacht jemand kommt“.';
}

export function watchLimitReply(limit: number, language: Language): string {
  return language === 'en'
    ? `You already have ${limit} watches running, the most I keep at once. Say “what are you watching for?” to see them, or “stop watching the …” to end one.`
    : `Du hast schon ${limit} laufende Beobachtungen, mehr behalte ich nicht gleichzeitig. Frag „Worauf achtest du?“, um sie zu sehen, oder sag „hör auf, auf … zu achten“, um eine zu beenden.`;
}

export function noWatchesReply(language: Language): string {
  return language === 'en'
    ? "I'm not watching for anything right now. You can say, for example, “tell me when someone is at the door”."
    : 'Ich achte gerade auf nichts Bestimmtes. Du kannst zum Beispiel sagen: „Sag mir Bescheid, wenn jemand an der Tür ist.“';
}

const bullets = (ws: WatchFacts[], talk: WatchTalk) => ws.map((w) => `• ${watchLine(w, talk)}`).join('\n');

export function watchListReply(ws: WatchFacts[], talk: WatchTalk): string {
  if (ws.length === 0) return noWatchesReply(talk.language);
  return talk.language === 'en'
    ? `I'm watching for:\n${bullets(ws, talk)}`
    : `Ich achte gerade auf:\n${bullets(ws, talk)}`;
}

export function watchCancelledReply(ws: WatchFacts[], talk: WatchTalk): string {
  if (ws.length === 1)
    return talk.language === 'en'
      ? `OK, I've stopped watching for ${watchLine(ws[0]!, talk)}.`
      : `OK, ich achte nicht mehr auf ${watchLine(ws[0]!, talk)}.`;
  return talk.language === 'en'
    ? `OK, I've stopped all ${ws.length} watches.`
    : `OK, ich habe alle ${ws.length} Beobachtungen beendet.`;
}

export function watchWhichReply(ws: WatchFacts[], talk: WatchTalk): string {
  return talk.language === 'en'
    ? `Which one should I stop? I'm watching for:\n${bullets(ws, talk)}\nSay, for example, “stop watching the ${ws[0]?.cameraNames[0] ?? ws[0]?.siteNames[0] ?? 'driveway'}” or “stop all”.`
    : `Welche soll ich beenden? Ich achte gerade auf:\n${bullets(ws, talk)}\nSag zum Beispiel „hör auf, auf ${ws[0]?.cameraNames[0] ?? ws[0]?.siteNames[0] ?? 'die Einfahrt'} zu achten“ oder „stopp alle“.`;
}

export function watchNotFoundReply(ws: WatchFacts[], talk: WatchTalk): string {
  if (ws.length === 0) return noWatchesReply(talk.language);
  return talk.language === 'en'
    ? `I'm not watching for that. I'm watching for:\n${bullets(ws, talk)}`
    : `Darauf achte ich gerade nicht. Ich achte auf:\n${bullets(ws, talk)}`;
}

/** The alert of a matched watch: "You asked me to watch the Driveway: a white car arrived at 5:02 AM." */
export function watchMatchText(w: WatchFacts, sentence: string, language: Language): string {
  const target =
    w.cameraNames.length > 0
      ? joinList(
          w.cameraNames.map((n) => (/^(the|my|our)\s/i.test(n) ? n : `the ${n}`)),
          'en',
        )
      : w.siteNames.length > 0
        ? joinList(w.siteNames, 'en')
        : `for ${watchSubject(w, 'en')}`;
  const lead = /^(A|An|One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Someone|People|Motion|Several)\b/;
  if (language === 'en') {
    const said = lead.test(sentence) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
    return `You asked me to watch ${target}: ${said}`;
  }
  return `Du hattest mich gebeten aufzupassen: ${sentence}`;
}
