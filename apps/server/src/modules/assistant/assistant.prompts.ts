/** What the language model is told before a conversation: who it is, what it knows and the rules it keeps. */
import { formatClock, localDate } from '../language/clock.js';
import type { AssistantScope } from './assistant.tools.js';

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

export function systemPrompt(scope: AssistantScope): string {
  const german = scope.language === 'de';
  const now = `${localDate(scope.now, scope.timezone)} ${formatClock(scope.now, scope.timezone, scope.language)}`;
  const rules = [
    'Answer only from what the tools return. Never invent events, people, vehicles, animals or names; if nothing matched, say so plainly.',
    'Use search_activities for every question about what happened, who or what was seen, or when. Pass the time as the user said it in time_phrase.',
    'When a search result says instead_of_searching, answer with that (the time has not come yet, or ask when the user was out); never say nothing happened. When it says so_far, say "so far".',
    'Each property is its own home: never combine events of different properties in one statement unless the user asked about all of them. When results come per property, answer per property.',
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
  ].join('\n\n');
}
