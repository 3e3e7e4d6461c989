/**
 * The answers to each intent of `understand` (intent.ts), in English and German. Those about events are
 * composed only from what the search found (`FoundActivity`), never from the question alone; the others are
 * fixed lines or the user's own household, as the assistant's tools read it.
 */
import {
  composeAnswer,
  objectMatches,
  scopePhrase,
  sentenceOf,
  timingReply,
  type AnswerContext,
  type ComposedAnswer,
  type FoundActivity,
} from './answer.js';
import {
  dayName,
  deWhere,
  enWhere,
  placeOf,
  subjectPhrase,
  formatClock,
  localDayNumber,
  joinList,
  capitalise,
  KIND_NOUNS,
  nounFor,
  numberWord,
  type Language,
  type ObjectKind,
  unusualReason,
} from '../language/language.module.js';
import type { SearchQuestion, Thing, Undetectable } from './intent.js';

const q = (text: string, language: Language) => (language === 'en' ? `“${text}”` : `„${text}“`);

const CAN_DO: Record<Language, string> = {
  en: 'What I can do: tell you who and what your cameras saw — people (and who they are), vehicles and animals — when and where.',
  de: 'Was ich kann: dir sagen, wen und was deine Kameras gesehen haben – Personen (und wer sie sind), Fahrzeuge und Tiere – wann und wo.',
};

const CANNOT: Record<Undetectable, Record<Language, string>> = {
  fire: {
    en: "I can't detect fire or smoke: I look for people, vehicles and animals in your cameras' pictures, not flames. A smoke alarm is the right tool for that.",
    de: 'Feuer oder Rauch kann ich nicht erkennen: Ich suche in den Bildern deiner Kameras nach Personen, Fahrzeugen und Tieren, nicht nach Flammen. Dafür ist ein Rauchmelder das Richtige.',
  },
  sound: {
    en: "I can't hear anything: your cameras send me pictures and clips, and I don't listen to their sound.",
    de: 'Ich kann nichts hören: Deine Kameras schicken mir Bilder und Clips, deren Ton werte ich nicht aus.',
  },
  temperature: {
    en: "I can't measure temperature or humidity: your cameras give me pictures, not readings.",
    de: 'Temperatur oder Luftfeuchtigkeit kann ich nicht messen: Deine Kameras liefern mir Bilder, keine Messwerte.',
  },
  weather: {
    en: "I can't tell the weather: I don't look for rain, snow or wind in the pictures.",
    de: 'Das Wetter kann ich nicht erkennen: Auf Regen, Schnee oder Wind achte ich in den Bildern nicht.',
  },
  water: {
    en: "I can't detect leaks or water: I only look for people, vehicles and animals.",
    de: 'Wasser oder Lecks kann ich nicht erkennen: Ich achte nur auf Personen, Fahrzeuge und Tiere.',
  },
  gas: {
    en: "I can't detect gas: that needs a gas or CO detector.",
    de: 'Gas kann ich nicht erkennen: Dafür braucht es einen Gas- oder CO-Melder.',
  },
  power: {
    en: "I can't tell whether the power is on; I only know what your cameras send me.",
    de: 'Ob der Strom da ist, weiß ich nicht; ich kenne nur, was deine Kameras mir schicken.',
  },
  lock: {
    en: "I can't tell whether doors are locked: I don't look at locks in the pictures.",
    de: 'Ob Türen abgeschlossen sind, kann ich nicht erkennen: Auf Schlösser achte ich in den Bildern nicht.',
  },
};

/** Something the cameras cannot tell: say so, and what they can. */
export function cannotDetectReply(what: Undetectable, language: Language): string {
  return `${CANNOT[what][language]} ${CAN_DO[language]}`;
}

/** Weather, jokes and the rest: not the home sitter's job; say what it does instead. */
export function offTopicReply(topic: 'weather' | 'joke' | 'other' | 'others', language: Language): string {
  const en = language === 'en';
  // Other people's cameras, or a try to change the instructions: a plain no, never a guess at what was meant.
  if (topic === 'others')
    return en
      ? "I can only see your own cameras and what they recorded — not anyone else's cameras or accounts, and I keep to how I work. Ask me about your home, e.g. “Did anyone come by today?”"
      : 'Ich sehe nur deine eigenen Kameras und was sie aufgenommen haben – nicht die Kameras oder Konten anderer, und an meine Arbeitsweise halte ich mich. Frag mich nach deinem Zuhause, zum Beispiel „War heute jemand da?“';
  const lead =
    topic === 'weather'
      ? en
        ? "I can't tell you the weather — I'm your home sitter."
        : 'Das Wetter kann ich dir nicht sagen – ich bin dein Home Sitter.'
      : topic === 'joke'
        ? en
          ? "I'll leave the jokes to others — I'm here to watch your home."
          : 'Witze überlasse ich anderen – ich passe auf dein Zuhause auf.'
        : en
          ? "That's not something I can help with — I'm your home sitter."
          : 'Dabei kann ich nicht helfen – ich bin dein Home Sitter.';
  const does = en
    ? `I watch your cameras, tell you who and what they saw, and keep notes for you. Try ${q('Did anyone come by today?', 'en')} or ${q('What happened last night?', 'en')}`
    : `Ich behalte deine Kameras im Blick, sage dir, wen und was sie gesehen haben, und merke mir Notizen. Frag zum Beispiel ${q('War heute jemand da?', 'de')} oder ${q('Was ist letzte Nacht passiert?', 'de')}`;
  return `${lead} ${does}`;
}

export function thanksReply(closing: boolean, language: Language): string {
  if (language === 'en') return closing ? "You're welcome! I'll keep an eye on things." : "You're welcome!";
  return closing ? 'Gern geschehen! Ich behalte alles im Blick.' : 'Gern geschehen!';
}

/** One short follow-up question with a few suggestions, naming the user's own first camera. */
export function unclearReply(language: Language, cameraName?: string): string {
  if (language === 'en') {
    const cam = cameraName ? `Was anyone at the ${cameraName}?` : 'Was anyone here today?';
    return `Sorry, I'm not sure what you mean. Did you want to know ${q('What happened today?', 'en')}, ${q(cam, 'en')} or ${q('How many cameras do I have?', 'en')}?`;
  }
  const cam = cameraName ? `War jemand bei „${cameraName}“?` : 'War heute jemand da?';
  return `Ich bin nicht sicher, was du meinst. Möchtest du wissen ${q('Was ist heute passiert?', 'de')}, ${q(cam, 'de')} oder ${q('Wie viele Kameras habe ich?', 'de')}?`;
}

/** A correction with no alert to apply it to (not a reply to one, and none recent). */
export function correctionWithoutAlertReply(name: string, language: Language): string {
  return language === 'en'
    ? `Which alert do you mean? Reply to it with ${q(`that's ${name}`, 'en')} and I'll correct it.`
    : `Welche Meldung meinst du? Antworte darauf mit ${q(`das ist ${name}`, 'de')}, dann korrigiere ich sie.`;
}

/** A standing note is kept until deleted; say so after the usual confirmation. */
export function recurringNoteSuffix(language: Language): string {
  return language === 'en' ? "I'll keep it as a standing note." : 'Ich behalte es als feste Notiz.';
}

// ---- events ------------------------------------------------------------------------------------------------

const tail = (parts: (string | undefined)[]) => parts.filter(Boolean).join(' ');

function timesWord(n: number, language: Language): string {
  if (language === 'en') return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
  return n === 1 ? 'einmal' : `${n}-mal`;
}

/** "people twice and a vehicle once": what the events found were of, by kind. */
function seenInstead(found: FoundActivity[], language: Language): string {
  const byKind = new Map<ObjectKind | 'motion', number>();
  for (const a of found) {
    const kinds = new Set(a.objects.map((o) => o.kind));
    if (kinds.size === 0) byKind.set('motion', (byKind.get('motion') ?? 0) + 1);
    for (const k of kinds) byKind.set(k, (byKind.get(k) ?? 0) + 1);
  }
  const en = language === 'en';
  return joinList(
    [...byKind].map(([kind, n]) => {
      const noun = kind === 'motion' ? (en ? 'motion' : 'Bewegung') : KIND_NOUNS[kind][language].other;
      return `${noun} ${timesWord(n, language)}`;
    }),
    language,
  );
}

/** The moments of a composed answer without its first line (the lead says what they are). */
function moments(composed: ComposedAnswer, ctx: AnswerContext): string[] {
  if (ctx.groupByProperty) return [composed.text];
  return composed.text.split('\n').slice(1);
}

/**
 * A yes/no about something not seen: a name nobody has ("I don't know a Michelle"), a delivery (the people
 * who came), an animal ("No bear was seen …; the cameras saw … instead"). `found` is every event of the
 * window and places asked about, whatever was seen.
 */
export function composeNotSeen(
  query: SearchQuestion,
  found: FoundActivity[],
  ctx: AnswerContext,
  about: { thing?: Thing; name?: string },
): ComposedAnswer {
  const en = ctx.language === 'en';
  const instead = timingReply(query, ctx);
  if (instead) return { text: instead, cited: [] };
  const { where, when } = scopePhrase(query, ctx);
  const people: SearchQuestion = { ...query, kinds: ['person'] };
  delete people.labels;
  const withPeople = found.filter((a) => a.objects.some((o) => o.kind === 'person'));

  if (about.name) {
    const lead = en
      ? `I don't know a ${about.name}; nobody by that name was recognised. Add them under Memories and I'll recognise them next time.`
      : `Ich kenne keine Person namens ${about.name}; niemand mit diesem Namen wurde erkannt. Lege sie unter Erinnerungen an, dann erkenne ich sie beim nächsten Mal.`;
    if (withPeople.length === 0) return { text: lead, cited: [] };
    const composed = composeAnswer(people, withPeople, ctx);
    return { text: `${lead}\n${composed.text}`, cited: composed.cited };
  }

  const thing = about.thing!;
  if (thing.role) {
    if (withPeople.length === 0)
      return {
        text: en
          ? `I didn't see anyone ${tail([where, when])}, so not ${thing.en} either.`
          : `Ich habe ${tail([when, 'niemanden', where])} gesehen, also auch nicht ${thing.de}.`,
        cited: [],
      };
    const composed = composeAnswer(people, withPeople, ctx);
    const lead = en
      ? `I can't tell ${thing.en} from other visitors, but here is who came by:`
      : `Ich kann ${thing.de} nicht von anderen Besuchern unterscheiden, aber diese Personen waren da:`;
    return { text: `${lead}\n${composed.text}`, cited: composed.cited };
  }
  if (thing.delivery) {
    if (withPeople.length === 0)
      return {
        text: en
          ? `I didn't see anyone ${tail([where, when])}, so no delivery that I could see.`
          : `Ich habe ${tail([when, 'niemanden', where])} gesehen, also auch keine Lieferung.`,
        cited: [],
      };
    const composed = composeAnswer(people, withPeople, ctx);
    const lead = en
      ? "I can't tell a delivery or a parcel from other visits, but here is who came by:"
      : 'Lieferungen oder Pakete kann ich nicht von anderen Besuchen unterscheiden, aber diese Personen waren da:';
    return { text: `${lead}\n${composed.text}`, cited: composed.cited };
  }

  if (thing.label && thing.kind) {
    const asked: SearchQuestion = { ...query, kinds: [thing.kind], labels: [thing.label] };
    const seen = found.filter((a) => a.objects.some((o) => objectMatches(asked, o)));
    if (seen.length) return composeAnswer(asked, seen, ctx);
  }
  const noun = thing.label && thing.kind ? nounFor(thing.kind, thing.label) : undefined;
  const gender = noun?.de.gender ?? thing.deGender ?? 'm';
  const lead = en
    ? `No ${noun?.en.one ?? thing.en} was seen ${tail([where, when])}`
    : `${gender === 'f' ? 'Eine' : 'Ein'} ${noun?.de.one ?? thing.de} wurde ${tail([when, where])} nicht gesehen`;
  if (found.length === 0)
    return { text: en ? `${lead}, and nothing else either.` : `${lead}, und auch sonst nichts.`, cited: [] };
  const everything: SearchQuestion = { ...query };
  delete everything.kinds;
  delete everything.labels;
  const composed = composeAnswer(everything, found, ctx);
  const summary = seenInstead(found, ctx.language);
  const head = en
    ? `${lead}; the cameras saw ${summary} instead:`
    : `${lead}; stattdessen haben die Kameras ${summary} gesehen:`;
  return { text: [head, ...moments(composed, ctx)].join('\n'), cited: composed.cited };
}

/** "How many people/cars": the people or cars seen, counted one by one, not the events. */
/** Events of people on different cameras within this long of each other are one visit. */
const SAME_VISIT_MS = 2 * 60_000;

/**
 * People in the foreground, counted by visit: events on other cameras within two minutes of a visit's first
 * are the same people walking past (the most seen at once counts), not more visitors.
 */
export function personVisits(found: FoundActivity[]): { people: number; visits: number } {
  const inOrder = found
    .map((a) => ({
      a,
      n: a.objects.filter((o) => o.kind === 'person' && !o.background).length,
    }))
    .filter((x) => x.n > 0)
    .sort((x, y) => x.a.occurredAt.getTime() - y.a.occurredAt.getTime());
  let people = 0;
  let visits = 0;
  let visit: { start: number; cameras: Set<string>; most: number } | undefined;
  for (const { a, n } of inOrder) {
    const at = a.occurredAt.getTime();
    if (visit && at - visit.start <= SAME_VISIT_MS && !visit.cameras.has(a.cameraName)) {
      visit.cameras.add(a.cameraName);
      visit.most = Math.max(visit.most, n);
      continue;
    }
    if (visit) people += visit.most;
    visits += 1;
    visit = { start: at, cameras: new Set([a.cameraName]), most: n };
  }
  if (visit) people += visit.most;
  return { people, visits };
}

export function composeCount(
  query: SearchQuestion,
  found: FoundActivity[],
  ctx: AnswerContext,
): ComposedAnswer {
  const composed = composeAnswer(query, found, ctx);
  const matching = found.filter((a) => a.objects.some((o) => objectMatches(query, o)));
  if (matching.length === 0 || timingReply(query, ctx)) return composed;
  const en = ctx.language === 'en';
  const counts = new Map<string, { n: number; kind: ObjectKind; label?: string }>();
  for (const a of matching)
    for (const o of a.objects) {
      // People in the background (a crowd, passers-by far off) are not visitors: they are not counted.
      if (o.background || !objectMatches(query, o)) continue;
      const labelled = (query.labels ?? []).length > 0 && o.kind !== 'person';
      const key = labelled ? `${o.kind}:${o.label}` : o.kind;
      const entry = counts.get(key) ?? {
        n: 0,
        kind: o.kind,
        ...(labelled && o.label ? { label: o.label } : {}),
      };
      entry.n += 1;
      counts.set(key, entry);
    }
  if (counts.size === 0) return composed;
  // The same people seen by two cameras a minute apart are one visit, not two (issue 32).
  const people = counts.get('person');
  const visitsOfPeople = people ? personVisits(matching) : undefined;
  if (people && visitsOfPeople) people.n = visitsOfPeople.people;
  const what = joinList(
    [...counts.values()].map(({ n, kind, label }) => {
      const noun = nounFor(kind, label);
      const word = n === 1 ? noun[ctx.language].one : noun[ctx.language].other;
      if (n === 1 && ctx.language === 'de') return `${noun.de.gender === 'f' ? 'eine' : 'ein'} ${word}`;
      return `${n < 13 ? numberWord(n, ctx.language) : n} ${word}`;
    }),
    ctx.language,
  );
  const { where, when } = scopePhrase(query, ctx);
  const events = visitsOfPeople && counts.size === 1 ? visitsOfPeople.visits : matching.length;
  const visits = en
    ? events === 1
      ? 'all at once'
      : `over ${numberWord(events, 'en')} visits; someone who came twice counts twice`
    : events === 1
      ? 'alle auf einmal'
      : `bei ${numberWord(events, 'de')} Besuchen; wer zweimal kam, zählt doppelt`;
  const head = en
    ? `I saw ${tail([what, where, when])} (${visits}):`
    : `Ich habe ${tail([when, what, where])} gesehen (${visits}):`;
  return { text: [head, ...moments(composed, ctx)].join('\n'), cited: composed.cited };
}

/** "What was the last event?": the newest one found, said directly. */
export function composeLast(found: FoundActivity[], ctx: AnswerContext, days: number): ComposedAnswer {
  const en = ctx.language === 'en';
  const newest = [...found].sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime())[0];
  if (!newest)
    return {
      text: en
        ? `I haven't seen anything in the last ${days} days.`
        : `Ich habe in den letzten ${days} Tagen nichts gesehen.`,
      cited: [],
    };
  const sameDay = localDayNumber(newest.occurredAt, ctx.timezone) === localDayNumber(ctx.now, ctx.timezone);
  const day = sameDay ? '' : `${dayName(newest.occurredAt, ctx.now, ctx.timezone, ctx.language)}: `;
  return {
    text: `${en ? 'The last event' : 'Das letzte Ereignis'} — ${day}${sentenceOf(newest, ctx)}`,
    cited: [newest],
  };
}

/** "Is anyone at the door right now?": the last few minutes, and when nothing, the newest event before. */
export function composeNow(
  query: SearchQuestion,
  found: FoundActivity[],
  latest: FoundActivity | undefined,
  ctx: AnswerContext,
): ComposedAnswer {
  const en = ctx.language === 'en';
  if (found.length) return composeAnswer(query, found, ctx);
  const { where } = scopePhrase(query, ctx);
  const clock = formatClock(ctx.now, ctx.timezone, ctx.language);
  const head = en
    ? `Nothing ${tail([where, 'right now'])}: I haven't seen anything in the last 15 minutes (it's ${clock}).`
    : `Gerade ist ${tail([where])} nichts los: In den letzten 15 Minuten habe ich nichts gesehen (es ist ${clock} Uhr).`.replace(
        'ist  nichts',
        'ist nichts',
      );
  if (!latest) return { text: head, cited: [] };
  const sameDay = localDayNumber(latest.occurredAt, ctx.timezone) === localDayNumber(ctx.now, ctx.timezone);
  const day = sameDay ? '' : `${dayName(latest.occurredAt, ctx.now, ctx.timezone, ctx.language)}: `;
  return {
    text: `${head}\n${en ? 'The last event before that' : 'Das letzte Ereignis davor'} — ${day}${sentenceOf(latest, ctx)}`,
    cited: [latest],
  };
}

/** Night hours, when any visit stands out. */
const isNight = (a: FoundActivity, ctx: AnswerContext) => {
  const hour = Number(formatClock(a.occurredAt, ctx.timezone, 'de').slice(0, 2));
  return hour < 5;
};

const stranger = (a: FoundActivity) =>
  a.objects.filter((o) => o.kind === 'person' && !o.background).length >
  a.recognised.filter((r) => r.category === 'people').length;

/**
 * Why an event stands out: its camera's routine says so (docs/assistant.md, Unusual events); on a camera
 * whose routine is not known yet (too little history), a stranger or anything at night. Undefined: it fits.
 */
function whyUnusual(a: FoundActivity, ctx: AnswerContext): string | undefined {
  if (a.routine)
    return a.routine.unusual ? unusualReason(a.routine.unusual, a.cameraName, ctx.language) : undefined;
  const en = ctx.language === 'en';
  if (stranger(a)) return en ? "I don't know this person." : 'Diese Person kenne ich nicht.';
  if (isNight(a, ctx) && a.objects.length > 0) return en ? 'It was at night.' : 'Es war mitten in der Nacht.';
  return undefined;
}

const MAX_UNUSUAL = 5;

/**
 * "Anything unusual?": the events that depart from their camera's routine, newest first, each with why;
 * otherwise says nothing stood out.
 */
export function composeUnusual(
  query: SearchQuestion,
  found: FoundActivity[],
  ctx: AnswerContext,
): ComposedAnswer {
  const en = ctx.language === 'en';
  const instead = timingReply(query, ctx);
  if (instead) return { text: instead, cited: [] };
  const { where, when } = scopePhrase(query, ctx);
  if (found.length === 0)
    return {
      text: en
        ? `Nothing unusual: I didn't see anything at all ${tail([where, when])}.`
        : `Nichts Ungewöhnliches: Ich habe ${tail([when, where])} gar nichts gesehen.`,
      cited: [],
    };
  const learning = found.some((a) => !a.routine);
  const odd = found
    .map((a) => ({ a, why: whyUnusual(a, ctx) }))
    .filter((x): x is { a: FoundActivity; why: string } => x.why !== undefined)
    .sort((x, y) => y.a.occurredAt.getTime() - x.a.occurredAt.getTime());
  if (odd.length === 0) {
    const summary = seenInstead(found, ctx.language);
    const fits = learning
      ? en
        ? 'no strangers and nothing at night'
        : 'keine Unbekannten und nachts nichts'
      : en
        ? 'as usual for your cameras over the last weeks'
        : 'alles wie sonst bei deinen Kameras';
    return {
      text: en
        ? `Nothing unusual ${tail([where, when])}: only ${summary}, ${fits}.`
        : `Nichts Ungewöhnliches ${tail([when, where])}: nur ${summary}, ${fits}.`,
      cited: [],
    };
  }
  const shown = odd.slice(0, MAX_UNUSUAL);
  const today = localDayNumber(ctx.now, ctx.timezone);
  const lines = shown.map(({ a, why }) => {
    const day =
      localDayNumber(a.occurredAt, ctx.timezone) === today
        ? ''
        : `${dayName(a.occurredAt, ctx.now, ctx.timezone, ctx.language)}: `;
    return `• ${day}${sentenceOf(a, ctx)} ${why}`;
  });
  const more = odd.length - shown.length;
  if (more > 0) lines.push(en ? `…and ${more} more.` : `… und ${more} weitere.`);
  const head = en
    ? `${odd.length === 1 ? 'One thing' : `${capitalise(numberWord(odd.length, 'en'))} things`} stood out ${tail([where, when])}:`
    : `${odd.length === 1 ? 'Eine Sache ist' : `${capitalise(numberWord(odd.length, 'de'))} Dinge sind`} ${tail([when, where])} aufgefallen:`;
  const note = learning
    ? en
      ? "(Where I don't know a camera's routine yet — that takes two weeks of events — I point out strangers and anything at night.)"
      : '(Wo ich den Alltag einer Kamera noch nicht kenne – das dauert zwei Wochen mit Ereignissen –, nenne ich Unbekannte und alles in der Nacht.)'
    : undefined;
  return {
    text: [head, ...lines, ...(note ? [note] : [])].join('\n'),
    cited: shown.map((x) => x.a),
  };
}

/**
 * "Who's at the front door right now?": the cameras are not watched live by the home sitter, so the answer
 * says so first and points to the live view (docs/assistant.md, "What it cannot see"); what was recorded in
 * the last minutes follows.
 */
export function liveReply(cameraName: string | undefined, language: Language): string {
  const path = cameraName ? `/cameras/${encodeURIComponent(cameraName)}/view` : '/cameras';
  if (language === 'en')
    return cameraName
      ? `I can't see live — I only know what your cameras have recorded. For a live picture open the ${cameraName} live view: ${path}`
      : `I can't see live — I only know what your cameras have recorded. For a live picture open a camera's live view under Cameras: ${path}`;
  return cameraName
    ? `Live sehen kann ich nicht – ich weiß nur, was deine Kameras aufgenommen haben. Ein Livebild zeigt die Live-Ansicht von ${cameraName}: ${path}`
    : `Live sehen kann ich nicht – ich weiß nur, was deine Kameras aufgenommen haben. Ein Livebild zeigt die Live-Ansicht einer Kamera unter Kameras: ${path}`;
}

const YES_NO = /^(?:did|was|were|has|have|is|are|had|war|waren|ist|sind|kam|kamen|hat|hast|haben|gab)\b/;

/** "Yes — " before the evidence of a yes/no question that found what it asked for ("did Barack come by?"). */
export function yesLead(folded: string, language: Language): string | undefined {
  if (!YES_NO.test(folded)) return undefined;
  return language === 'en' ? 'Yes.' : 'Ja.';
}

/** After a guessed "while you were out" window: how to narrow it. */
export function awayNarrowing(language: Language): string {
  return language === 'en'
    ? 'Tell me when you left and came back (e.g. “between 2 and 5 PM”) and I’ll narrow it down.'
    : 'Sag mir, wann du weg warst (zum Beispiel „zwischen 14 und 17 Uhr“), dann grenze ich es ein.';
}

/**
 * Nothing of the asked kind or label in the window, but something close was seen: say so instead of a flat
 * no ("I didn't see any trucks …, but the cameras saw a white car in the Driveway at 3:16 PM."). Close is
 * the same kind (another vehicle for a truck, another animal for a fox); when nobody was seen, what was
 * seen there instead (a dog in the backyard) is worth saying too. `nothing` is the composer's own "I
 * didn't see …" sentence; `found` is everything in the window and places. Undefined: nothing close.
 */
export function composeNearMatch(
  query: SearchQuestion,
  nothing: string,
  found: FoundActivity[],
  ctx: AnswerContext,
): ComposedAnswer | undefined {
  const kinds = new Set(query.kinds ?? []);
  const close = found.filter((a) => a.objects.some((o) => kinds.has(o.kind) && !o.background));
  const pool = close.length || !kinds.has('person') ? close : found;
  if (pool.length === 0) return undefined;
  // The newest two, said in the order they happened.
  const shown = pool
    .slice()
    .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime())
    .slice(0, 2)
    .reverse();
  const en = ctx.language === 'en';
  const said = shown.map((a) => {
    const objects = close.length ? a.objects.filter((o) => kinds.has(o.kind)) : a.objects;
    const what = subjectPhrase(objects, close.length ? [] : a.recognised, ctx.language) ?? '';
    const place = placeOf(a.cameraName, ctx.language);
    const sameDay = localDayNumber(a.occurredAt, ctx.timezone) === localDayNumber(ctx.now, ctx.timezone);
    const day = sameDay ? '' : ` ${dayName(a.occurredAt, ctx.now, ctx.timezone, ctx.language).toLowerCase()}`;
    const clock = formatClock(a.occurredAt, ctx.timezone, ctx.language);
    const many = objects.filter((o) => !o.background).length > 1;
    return en
      ? `${what} ${enWhere(place)} at ${clock}${day}`
      : `${deWhere(place)} ${many ? 'waren' : 'war'}${day} um ${clock} ${what}`;
  });
  const lead = nothing.replace(/[.:]\s*$/, '');
  const text = en
    ? `${lead}, but the cameras saw ${joinList(said, 'en')}.`
    : `${lead}, aber ${joinList(said, 'de')} zu sehen.`;
  return { text, cited: shown };
}
