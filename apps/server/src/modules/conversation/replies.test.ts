import { describe, expect, it } from 'vitest';
import { parseQuestion, type QuestionContext } from './question.js';
import { amnesiaRememberReply, progressText, rememberedReply, smalltalkReply } from './replies.js';

const NOW = new Date('2025-06-11T14:30:00Z'); // Wednesday 16:30 in Berlin
const ctx: QuestionContext = {
  now: NOW,
  timezone: 'Europe/Berlin',
  language: 'en',
  cameras: [],
  sites: [],
  memories: [],
};

describe('progress while the home sitter looks', () => {
  it.each<[string, 'en' | 'de', string]>([
    ['What happened today?', 'en', "Looking through today's events…"],
    ['And yesterday?', 'en', "Looking through yesterday's events…"],
    ['last night?', 'en', "Looking through last night's events…"],
    ['in the last 3 hours', 'en', 'Looking through events in the last 3 hours…'],
    ['Was war heute los?', 'de', 'Ich sehe mir an, was heute passiert ist …'],
    ['gestern nach 17 Uhr', 'de', 'Ich sehe mir an, was gestern nach 17 Uhr passiert ist …'],
    ['Remember that the gate code is 1234', 'en', 'Making a note…'],
    ['an hour ago', 'en', 'Looking through events about an hour ago…'],
    // Nothing to look through: the window is still ahead.
    ['anything this evening?', 'en', 'Thinking…'],
    // No time away known: the last hours, as the answer says them.
    ['während ich weg war', 'de', 'Ich sehe mir an, was in den letzten 8 Stunden passiert ist …'],
  ])('%s', (text, language, expected) => {
    expect(progressText(parseQuestion(text, { ...ctx, language }), language)).toBe(expected);
  });
});

describe('fixed replies', () => {
  it('confirms a note and, when it names a day, how long it is kept', () => {
    expect(rememberedReply('The gate code is 1234', undefined, ctx, 'en')).toBe(
      "Got it, I'll remember: “The gate code is 1234”.",
    );
    const tuesday = parseQuestion('Remember that the plumber comes on Tuesday', ctx);
    expect(rememberedReply(tuesday.rememberText!, tuesday.rememberUntil, ctx, 'en')).toBe(
      "Got it, I'll remember: “The plumber comes on Tuesday”. I'll keep it in mind through Tuesday.",
    );
    const tomorrow = parseQuestion('Merk dir, dass der Klempner morgen kommt', ctx);
    expect(rememberedReply(tomorrow.rememberText!, tomorrow.rememberUntil, ctx, 'de')).toBe(
      'Alles klar, ich merke mir: „Der Klempner kommt morgen“. Ich behalte es bis einschließlich morgen im Kopf.',
    );
    const today = parseQuestion('Remember the parcel comes today', ctx);
    expect(rememberedReply(today.rememberText!, today.rememberUntil, ctx, 'en')).toContain('for today.');
  });

  it('answers small talk and explains amnesia mode in both languages', () => {
    expect(smalltalkReply('thanks', 'de')).toBe('Gern geschehen!');
    expect(smalltalkReply('greeting', 'en')).toMatch(/^Hi! I'm keeping an eye on your cameras\./);
    expect(smalltalkReply('help', 'de')).toMatch(/^Ich bin dein Home Sitter/);
    expect(amnesiaRememberReply('en')).toMatch(/^Amnesia mode is on/);
    expect(amnesiaRememberReply('de')).toMatch(/^Der Amnesiemodus ist an/);
  });
});
