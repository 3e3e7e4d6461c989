/**
 * Phrasings as people type them, rule by rule (issue 21): chat spellings, German words the typo fixer must
 * leave alone, wider place words, the language of short German messages, small talk, praise and off-topic
 * requests. Each table pins one general rule, in English and German.
 */
import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect.js';
import { fold } from '../language/language.module.js';
import { understand } from './intent.js';
import type { QuestionContext } from './question.js';
import { parseTimeWindow } from './time-phrases.js';
import { fixTypos } from './words.js';

// Tuesday 17 November 2026, 03:18 in Berlin.
const ctx: QuestionContext = {
  now: new Date('2026-11-17T02:18:00Z'),
  timezone: 'Europe/Berlin',
  language: 'en',
  cameras: [
    { name: 'Front Door', siteId: 'home' },
    { name: 'Driveway', siteId: 'home' },
    { name: 'Backyard', siteId: 'home' },
    { name: 'Cabin Porch', siteId: 'cabin' },
  ],
  sites: [
    { id: 'home', name: 'Home' },
    { id: 'cabin', name: 'Cabin' },
  ],
  memories: [{ uuid: 'barack', name: 'Barack', category: 'people' }],
};

describe('chat spellings and words the typo fixer leaves alone', () => {
  it.each([
    ['anything happen last nite', 'anything happen last night'],
    ['anyone there rn', 'anyone there right now'],
    ['hast du nen fuchs gesehen', 'hast du einen fuchs gesehen'],
    ['wie viele tiere', 'wie viele tiere'],
    ['waren kinder da', 'waren kinder da'],
    ['who was walking around', 'who was walking around'],
  ])('%s → %s', (typed, fixed) => {
    expect(fixTypos(typed)).toBe(fixed);
  });
});

describe('wider place words for a narrower camera', () => {
  it.each([
    ['was war im garten los', ['Backyard']],
    ['was there a fox in the yard', ['Backyard']],
    ['wer war an der tür', ['Front Door']],
  ])('%s', (text, cameraNames) => {
    expect(understand(text, ctx)).toMatchObject({ query: { cameraNames } });
  });

  it('gives a wider word to nobody when a camera is called by it', () => {
    const withGarden = { ...ctx, cameras: [...ctx.cameras, { name: 'Garden', siteId: 'home' }] };
    expect(understand('was war im garten los', withGarden)).toMatchObject({
      query: { cameraNames: ['Garden'] },
    });
  });
});

describe('the language of short and colloquial messages', () => {
  it.each([
    ['vor einer stunde irgendwas?', 'de'],
    ['wieviele autos gestern', 'de'],
    ['welche kameras sind offline', 'de'],
    ['kannst du mal schauen', 'de'],
    ['Denk dran, wir sind bis Sonntag weg', 'de'],
    ['und am Montag?', 'de'],
    ['Hallo', 'de'],
    ['gute nacht', 'de'],
    ['erzähl mir nen witz', 'de'],
    ['was war im garten los', 'de'],
    ['good night!', 'en'],
    ['and monday?', 'en'],
    ['what did i miss in the last 20 min', 'en'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });
});

describe('small talk, praise and requests that are not the home sitter’s job', () => {
  it.each([
    ['good night!', { intent: 'small_talk', kind: 'good_night' }],
    ['ok good night', { intent: 'small_talk', kind: 'good_night' }],
    ['gute nacht', { intent: 'small_talk', kind: 'good_night' }],
    ['bye then', { intent: 'small_talk', kind: 'bye' }],
    ['Tschüss', { intent: 'small_talk', kind: 'bye' }],
    ['how are you doing?', { intent: 'small_talk', kind: 'how_are_you' }],
    ['hey, how are you today', { intent: 'small_talk', kind: 'how_are_you' }],
    ['Wie geht es dir?', { intent: 'small_talk', kind: 'how_are_you' }],
    ["you're great, thx", { intent: 'thanks' }],
    ['you are the best', { intent: 'thanks' }],
    ['du bist super, danke', { intent: 'thanks' }],
    ['who won the game last night', { intent: 'off_topic', topic: 'other' }],
    ['can you order us a pizza', { intent: 'off_topic', topic: 'other' }],
    ['whats 17 times 23', { intent: 'off_topic', topic: 'other' }],
    ['Was ist 12 mal 7?', { intent: 'off_topic', topic: 'other' }],
    ['wie warm ist es in der Hütte', { intent: 'cannot_detect', what: 'temperature' }],
    ['did the dog bark a lot?', { intent: 'cannot_detect', what: 'sound' }],
  ])('%s', (text, expected) => {
    expect(understand(text, ctx)).toMatchObject(expected);
  });
});

describe('time as people say it', () => {
  const at = (iso: string) => ({ now: new Date(iso), timezone: 'Europe/Berlin' });
  // Tuesday 17 November 2026 in Berlin (UTC+1).
  const night = at('2026-11-17T03:18:00+01:00');
  const morning = at('2026-11-17T10:15:00+01:00');
  const berlin = (s: string) => new Date(`2026-11-${s}+01:00`).toISOString();
  const window = (text: string, c: { now: Date; timezone: string }) => {
    const w = parseTimeWindow(fixTypos(fold(text)), c);
    return w && { from: w.from.toISOString(), to: w.to.toISOString(), timing: w.timing, type: w.label.type };
  };

  it.each([
    ['anything happen last nite', morning, '16T18:00:00', '17T06:00:00'],
    ['between 9 and 10 last night?', morning, '16T21:00:00', '16T22:00:00'],
    ['zwischen 1 und 3 letzte Nacht', morning, '17T01:00:00', '17T03:00:00'],
    ['Anything after midnight', night, '17T00:00:00', '17T03:18:00'],
    ['Irgendwas seit Mitternacht?', night, '17T00:00:00', '17T03:18:00'],
    ['anyone at the cabin around midnight?', night, '16T23:00:00', '17T01:00:00'],
    ['How was the night', at('2026-11-17T07:30:00+01:00'), '16T18:00:00', '17T06:00:00'],
    ['wie war die Nacht', at('2026-11-17T07:30:00+01:00'), '16T18:00:00', '17T06:00:00'],
    ['who was walking around by the cars at night', night, '16T18:00:00', '17T03:18:00'],
    ['anything since 6pm yesterday?', morning, '16T18:00:00', '17T10:15:00'],
    ['How many cars did you see since yesterday?', night, '16T00:00:00', '17T03:18:00'],
    ['seit gestern', night, '16T00:00:00', '17T03:18:00'],
    ['what did the cameras pick up since the evening', night, '16T18:00:00', '17T03:18:00'],
    ['wer war vorhin an der tür', night, '17T00:18:00', '17T03:18:00'],
  ])('%s', (text, c, from, to) => {
    expect(window(text, c)).toMatchObject({ from: berlin(from), to: berlin(to) });
  });

  it.each([
    ["who's coming tomorrow", 'future'],
    ['any movement in the next hour?', 'future'],
    ['will anyone come later today', 'future'],
    ['Kommt morgen jemand?', 'future'],
    ['in der nächsten Stunde was los?', 'future'],
  ])('%s is still ahead', (text, type) => {
    expect(window(text, night)).toMatchObject({ type, timing: 'ahead' });
  });

  it.each(['Was war heute morgen los?', 'Guten Morgen', 'anything a few minutes ago'])(
    '%s is not ahead',
    (text) => {
      expect(window(text, morning)?.timing).not.toBe('ahead');
    },
  );
});

describe('what the question is about', () => {
  it.each([
    ['where did you last see a person', { intent: 'events', focus: 'last' }],
    ['when did you last see the dog', { intent: 'events', focus: 'last' }],
    ['was ist als letztes passiert', { intent: 'events', focus: 'last' }],
    ['wann hast du zuletzt jemanden gesehen', { intent: 'events', focus: 'last' }],
    ['did the police show up', { intent: 'not_seen', thing: { en: 'the police', role: true } }],
    ['war die Polizei da?', { intent: 'not_seen', thing: { de: 'die Polizei', role: true } }],
    ['has the mailman been yet', { intent: 'not_seen', thing: { en: 'the mail carrier', role: true } }],
    ['War der Postbote schon da?', { intent: 'not_seen', thing: { role: true } }],
    ['who was walking around by the cars at night', { intent: 'events' }],
    ['wer war vorhin an der tür', { intent: 'events', query: { cameraNames: ['Front Door'] } }],
    ['Irgendwas seit Mitternacht?', { intent: 'events' }],
    ['can you check', { intent: 'unclear' }],
    ['kannst du mal schauen', { intent: 'unclear' }],
  ])('%s', (text, expected) => {
    expect(understand(text, ctx)).toMatchObject(expected);
  });

  it.each([
    ['what cams are at the cabin', 'cameras', { siteIds: ['cabin'] }],
    ['is the driveway cam muted', 'muted', { cameraNames: ['Driveway'] }],
    ['Ist die Einfahrt stummgeschaltet?', 'muted', { cameraNames: ['Driveway'] }],
    ["where's the backyard camera, which property", 'where', { cameraNames: ['Backyard'] }],
    ['wo hängt die Kamera Backyard?', 'where', { cameraNames: ['Backyard'] }],
    ['what do you remember about barack', 'memories', { memoryIds: ['barack'] }],
  ])('%s: the household, about what it names', (text, topic, query) => {
    expect(understand(text, ctx)).toMatchObject({ intent: 'household', topic, query });
  });

  it.each([
    ['FYI the white car belongs to the neighbours', 'The white car belongs to the neighbours'],
    ['the black car is ours btw', 'The black car is ours'],
    ['btw, the cleaner has a key', 'The cleaner has a key'],
    ['bitte merken: die putzfrau kommt freitags', 'Die putzfrau kommt freitags'],
    ['Zur Info: der Gärtner kommt montags', 'Der Gärtner kommt montags'],
  ])('%s is a note to keep', (text, note) => {
    expect(understand(text, ctx)).toMatchObject({ intent: 'remember', query: { rememberText: note } });
  });
});

describe('corrections of what was seen', () => {
  it.each([
    ["that wasn't a cat, it was a fox", { was: 'cat', is: 'fox' }, 'en'],
    ['no, that was not a dog but a fox', { was: 'dog', is: 'fox' }, 'en'],
    ["it's not a car, it's a van", { was: 'car', is: 'van' }, 'en'],
    ['nein, das war keine katze sondern ein fuchs', { was: 'katze', is: 'fuchs' }, 'de'],
    ['Das ist kein Hund, das ist ein Fuchs', { was: 'hund', is: 'fuchs' }, 'de'],
  ])('%s', (text, relabel, language) => {
    expect(understand(text, ctx)).toMatchObject({ intent: 'correction', relabel, language });
  });

  it.each([
    ['no that was not barack, it was his brother', 'barack', false],
    ['falsch, das war nicht Barack', 'Barack', false],
    ['wrong, thats my son Max', 'Max', true],
  ])('%s', (text, name, isCorrect) => {
    expect(understand(text, ctx)).toMatchObject({ intent: 'correction', name, isCorrect });
  });
});
