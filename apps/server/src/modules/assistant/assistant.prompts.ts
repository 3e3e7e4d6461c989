/** What the language model is told before a conversation: who it is, what it knows and the rules it keeps. */
import { formatClock, localDate } from '../language/language.module.js';
import type { Understood } from '../conversation/conversation.module.js';
import type { AssistantScope } from './assistant.tools.js';

/** What the intent step read the message as, said to the model so it picks the same tool (STYLE point 14). */
function intentLine(u: Understood | undefined): string | undefined {
  if (!u) return undefined;
  switch (u.intent) {
    case 'not_seen':
      return u.name
        ? `The user asks about "${u.name}", whom you do not know (no memory has that name): say you don't know a ${u.name} and that nobody by that name was recognised; you may say who was seen instead, from search_activities.`
        : `The user asks whether a ${u.thing?.en ?? 'thing'} was seen. Search everything in that time and place with search_activities; if none was seen, say "No ${u.thing?.en ?? 'such thing'} was seen" and what the cameras saw instead.${u.thing?.delivery ? ' You cannot tell deliveries or parcels apart: say so and list the people who came.' : ''}`;
    case 'count':
      return 'The user asks how many: count the people or things detected in the search results (each detection), not the events.';
    case 'household':
      return `The user asks about their own setup (${u.topic}): answer from get_household.`;
    case 'events':
      return u.focus === 'last'
        ? 'The user asks for the last event: search a long enough window and give the newest one.'
        : u.focus === 'now'
          ? 'The user asks about right now: search the last 15 minutes (time_phrase "in the last 15 minutes") and, if nothing, say so.'
          : u.focus === 'unusual'
            ? "The user asks whether anything was unusual: the events whose `unusual` says why they depart from the camera's routine, with that reason; where an event has no `unusual` field (routine not known yet), people not recognised and anything at night; otherwise say nothing stood out."
            : undefined;
    default:
      return undefined;
  }
}

function propertiesLine(scope: AssistantScope): string {
  const lines = scope.sites.map((site) => {
    const cams = scope.cameras.filter((c) => c.siteId === site.id).map((c) => c.name);
    return `- ${site.name}: ${cams.length ? cams.join(', ') : 'no cameras'}`;
  });
  const loose = scope.cameras.filter((c) => !c.siteId).map((c) => c.name);
  if (loose.length) lines.push(`- Cameras without a property: ${loose.join(', ')}`);
  return lines.length ? lines.join('\n') : '- No cameras yet.';
}

function cameraNotes(scope: AssistantScope): string {
  const notes = scope.cameras.filter((c) => c.notes?.trim()).map((c) => `- ${c.name}: ${c.notes!.trim()}`);
  return notes.length ? `\nThe user's notes about their cameras:\n${notes.join('\n')}` : '';
}

export function systemPrompt(scope: AssistantScope, understood?: Understood): string {
  const german = scope.language === 'de';
  const now = `${localDate(scope.now, scope.timezone)} ${formatClock(scope.now, scope.timezone, scope.language)}`;
  const rules = [
    'Answer only from what the tools return. Never invent events, people, vehicles, animals or names; if nothing matched, say so plainly.',
    'Use search_activities for every question about what happened, who or what was seen, or when. Pass the time as the user said it in time_phrase.',
    'For questions about the cameras, properties, private mode, muted or offline cameras, or what you know about the user, use get_household. Things cameras cannot detect (fire, smoke, sound, temperature, weather): say so and what you can do.',
    'When a search result says instead_of_searching, answer with that (the time has not come yet, or ask when the user was out); never say nothing happened. When it says so_far, say "so far".',
    'Each property is its own home: never combine events of different properties in one statement unless the user asked about all of them. When results come per property, answer per property.',
    'When the user asks to be told when something happens from now on ("tell me when a car arrives tonight"), call create_watch; for "what are you watching for?" list_watches; to stop watching, cancel_watch.',
    `Give times in the user's local time with a ${german ? '24-hour' : '12-hour'} clock.`,
    'Keep answers short: a sentence or two, then at most five moments, one per line.',
    scope.amnesia
      ? 'Amnesia mode is on: you keep nothing new. If the user asks you to remember something, say politely that amnesia mode is on and that they can turn it off under Memories.'
      : 'When the user asks you to remember something, call create_memory; give expires_at when the note clearly stops mattering at some time (a visit tomorrow, a delivery today).',
  ];
  return [
    'You are Homesitter, a friendly AI home sitter who watches the user’s home cameras and answers their questions in a chat.',
    german ? 'Answer in German, addressing the user informally (du).' : 'Answer in English.',
    `It is now ${now} in the user's time zone (${scope.timezone ?? 'UTC'}).`,
    `The user's properties and their cameras:\n${propertiesLine(scope)}${cameraNotes(scope)}`,
    `Rules:\n${rules.map((r) => `- ${r}`).join('\n')}`,
    ...(intentLine(understood) ? [`This message: ${intentLine(understood)}`] : []),
  ].join('\n\n');
}
