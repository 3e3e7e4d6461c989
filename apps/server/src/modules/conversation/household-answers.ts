/**
 * Answers about the user's own household, in English and German: cameras (by property, private, muted,
 * offline, where each one is), properties, and the people, pets, vehicles and notes the home sitter knows,
 * as the assistant's household tool reads them (`householdFacts`, the LLM's `get_household`).
 */
import { fold, capitalise, joinList, numberWord, type Language } from '../language/language.module.js';
import type { HouseholdTopic } from './intent.js';

const q = (text: string, language: Language) => (language === 'en' ? `“${text}”` : `„${text}“`);

export interface HouseholdFacts {
  cameras: {
    name: string;
    siteName: string | null;
    private: boolean;
    muted: boolean;
    /** Reported offline by its stream (or its setup failed); upload cameras are never "offline" as such. */
    offline: boolean;
    lastActivityAt: Date | null;
  }[];
  sites: { name: string; cameraCount: number }[];
  memories: {
    category: 'people' | 'vehicles' | 'animals' | 'other';
    name?: string;
    text?: string;
    notes?: string;
  }[];
}

/** What a household question is about, when it names some: cameras, properties, people or pets. */
export interface HouseholdAbout {
  cameraNames?: readonly string[];
  siteNames?: readonly string[];
  memoryNames?: readonly string[];
}

const count = (n: number, one: string, other: string, language: Language) =>
  `${n < 13 ? numberWord(n, language) : n} ${n === 1 ? one : other}`;

/** The user's own cameras, properties and memories, as the assistant's household tool read them. */
export function householdReply(
  topic: HouseholdTopic,
  facts: HouseholdFacts,
  ctx: { language: Language; now: Date; timezone: string | null | undefined },
  about: HouseholdAbout = {},
): string {
  const en = ctx.language === 'en';
  const chosen = about.cameraNames?.length
    ? facts.cameras.filter((c) => about.cameraNames!.includes(c.name))
    : about.siteNames?.length
      ? facts.cameras.filter((c) => c.siteName && about.siteNames!.includes(c.siteName))
      : [];
  const specific = about.cameraNames?.length ? chosen : [];
  // "what cams are at the cabin": the cameras of the property named.
  if (topic === 'cameras' && about.siteNames?.length && !about.cameraNames?.length) {
    const site = about.siteNames.join(en ? ' and ' : ' und ');
    if (chosen.length === 0)
      return en ? `There are no cameras at ${site}.` : `Bei ${site} gibt es keine Kameras.`;
    const n = count(chosen.length, en ? 'camera' : 'Kamera', en ? 'cameras' : 'Kameras', ctx.language);
    const list = joinList(
      chosen.map((c) => c.name),
      ctx.language,
    );
    return en ? `At ${site} you have ${n}: ${list}.` : `Bei ${site} hast du ${n}: ${list}.`;
  }
  // "where's the backyard camera?": the property each camera named belongs to.
  if (topic === 'where') {
    const list = specific.length ? specific : facts.cameras;
    if (list.length === 0) return en ? "You don't have any cameras yet." : 'Du hast noch keine Kameras.';
    return list
      .map((c) =>
        c.siteName
          ? en
            ? `The ${c.name} camera is at ${c.siteName}.`
            : `Die Kamera „${c.name}“ gehört zu ${c.siteName}.`
          : en
            ? `The ${c.name} camera isn't part of a property.`
            : `Die Kamera „${c.name}“ gehört zu keinem Objekt.`,
      )
      .join(' ');
  }
  // "is the driveway cam muted?": yes or no for the cameras named.
  if ((topic === 'muted' || topic === 'private' || topic === 'offline') && specific.length) {
    return specific
      .map((c) => {
        const on = topic === 'muted' ? c.muted : topic === 'private' ? c.private : c.offline;
        const what =
          topic === 'muted'
            ? en
              ? 'muted'
              : 'stummgeschaltet'
            : topic === 'private'
              ? en
                ? 'in private mode'
                : 'im Privatmodus'
              : 'offline';
        return en
          ? `${on ? 'Yes' : 'No'}, the ${c.name} camera ${on ? 'is' : "isn't"} ${what}.`
          : `${on ? 'Ja' : 'Nein'}, die Kamera „${c.name}“ ist ${on ? '' : 'nicht '}${what}.`;
      })
      .join(' ');
  }
  // "what do you remember about Barack?": that memory's notes.
  if (topic === 'memories' && about.memoryNames?.length) {
    const lines = facts.memories
      .filter((m) => m.name && about.memoryNames!.includes(m.name))
      .map((m) =>
        m.notes
          ? `${m.name}: ${q(m.notes, ctx.language)}`
          : en
            ? `${m.name}: I know their face, but you haven't told me anything else about them.`
            : `${m.name}: Das Gesicht kenne ich, aber mehr hast du mir nicht erzählt.`,
      );
    const notes = facts.memories
      .filter(
        (m) =>
          m.category === 'other' && m.text && about.memoryNames!.some((n) => fold(m.text!).includes(fold(n))),
      )
      .map((m) => q(m.text!, ctx.language));
    if (lines.length) return [...lines, ...notes].join(' ');
  }
  const cams = facts.cameras;
  const named = (list: HouseholdFacts['cameras']) =>
    joinList(
      list.map((c) => c.name),
      ctx.language,
    );
  if (topic === 'cameras') {
    if (cams.length === 0) return en ? "You don't have any cameras yet." : 'Du hast noch keine Kameras.';
    const bySite = new Map<string, string[]>();
    for (const c of cams) {
      const key = c.siteName ?? (en ? 'No property' : 'Kein Objekt');
      bySite.set(key, [...(bySite.get(key) ?? []), c.name]);
    }
    const list =
      bySite.size > 1
        ? [...bySite].map(([site, names]) => `${site}: ${joinList(names, ctx.language)}`).join('; ')
        : named(cams);
    const n = count(cams.length, en ? 'camera' : 'Kamera', en ? 'cameras' : 'Kameras', ctx.language);
    return en ? `You have ${n}: ${list}.` : `Du hast ${n}: ${list}.`;
  }
  if (topic === 'properties') {
    if (facts.sites.length === 0)
      return en ? "You haven't set up any properties yet." : 'Du hast noch keine Objekte angelegt.';
    const list = joinList(
      facts.sites.map(
        (s) =>
          `${s.name} (${count(s.cameraCount, en ? 'camera' : 'Kamera', en ? 'cameras' : 'Kameras', ctx.language)})`,
      ),
      ctx.language,
    );
    const n = count(
      facts.sites.length,
      en ? 'property' : 'Objekt',
      en ? 'properties' : 'Objekte',
      ctx.language,
    );
    return en ? `You have ${n}: ${list}.` : `Du hast ${n}: ${list}.`;
  }
  if (topic === 'private' || topic === 'muted') {
    const hit = cams.filter((c) => (topic === 'private' ? c.private : c.muted));
    const what =
      topic === 'private' ? (en ? 'in private mode' : 'im Privatmodus') : en ? 'muted' : 'stummgeschaltet';
    if (hit.length === 0)
      return en ? `None of your cameras is ${what}.` : `Keine deiner Kameras ist ${what}.`;
    if (en) return `${capitalise(named(hit))} ${hit.length === 1 ? 'is' : 'are'} ${what}.`;
    return `${hit.length === 1 ? 'Die Kamera' : 'Die Kameras'} ${named(hit)} ${hit.length === 1 ? 'ist' : 'sind'} ${what}.`;
  }
  if (topic === 'offline') {
    const off = cams.filter((c) => c.offline);
    const dayAgo = ctx.now.getTime() - 86_400_000;
    const quiet = cams.filter(
      (c) => !c.offline && (!c.lastActivityAt || c.lastActivityAt.getTime() < dayAgo),
    );
    const lines: string[] = [];
    if (cams.length === 0) return en ? "You don't have any cameras yet." : 'Du hast noch keine Kameras.';
    if (off.length) lines.push(en ? `Offline: ${named(off)}.` : `Offline: ${named(off)}.`);
    else
      lines.push(
        en ? 'None of your cameras is reported offline.' : 'Keine deiner Kameras ist als offline gemeldet.',
      );
    if (quiet.length)
      lines.push(
        en
          ? `Nothing sent in the last 24 hours by ${named(quiet)} (cameras that upload only send when they see something).`
          : `In den letzten 24 Stunden kam nichts von ${named(quiet)} (Kameras, die hochladen, senden nur, wenn sie etwas sehen).`,
      );
    return lines.join(' ');
  }
  // memories
  const people = facts.memories.filter((m) => m.category === 'people' && m.name).map((m) => m.name!);
  const pets = facts.memories.filter((m) => m.category === 'animals' && m.name).map((m) => m.name!);
  const vehicles = facts.memories.filter((m) => m.category === 'vehicles');
  const notes = facts.memories.filter((m) => m.category === 'other' && m.text).map((m) => m.text!);
  if (people.length + pets.length + vehicles.length + notes.length === 0)
    return en
      ? `I don't know anyone yet and have no notes. Tell me ${q('Remember that …', 'en')} or add people under Memories.`
      : `Ich kenne noch niemanden und habe keine Notizen. Sag ${q('Merk dir, dass …', 'de')} oder lege Personen unter Erinnerungen an.`;
  const parts: string[] = [];
  if (people.length) parts.push(`${en ? 'People' : 'Personen'}: ${joinList(people, ctx.language)}.`);
  if (pets.length) parts.push(`${en ? 'Pets' : 'Haustiere'}: ${joinList(pets, ctx.language)}.`);
  if (vehicles.length)
    parts.push(
      en
        ? `${count(vehicles.length, 'vehicle', 'vehicles', 'en')}.`
        : `${capitalise(count(vehicles.length, 'Fahrzeug', 'Fahrzeuge', 'de'))}.`,
    );
  if (notes.length)
    parts.push(
      `${en ? 'Your notes' : 'Deine Notizen'}: ${notes
        .slice(0, 5)
        .map((n) => q(n, ctx.language))
        .join(' ')}`,
    );
  return `${en ? 'What I know' : 'Was ich weiß'}: ${parts.join(' ')}`;
}
