import { describe, expect, it } from 'vitest';
import { alertQuestionOf, composeAlertReply } from './alert-replies.js';
import type { FoundActivity } from './answer.js';

const ctx = { language: 'en' as const, timezone: 'Europe/Berlin' };
const de = { ...ctx, language: 'de' as const };
const person = { kind: 'person' as const, label: 'person' };
const alert = (over: Partial<FoundActivity>): FoundActivity => ({
  id: 'a1',
  cameraName: 'Front Door',
  siteId: null,
  occurredAt: new Date('2026-11-17T02:04:00Z'),
  mediaKind: 'image',
  objects: [person],
  recognised: [],
  ...over,
});

describe('reading a reply to an alert', () => {
  it.each([
    ['who is this person?', { about: 'who' }],
    ['who’s that guy next to the car', { about: 'who' }],
    ['wer ist das?', { about: 'who' }],
    ['do you know him?', { about: 'who' }],
    ['is this the mailman?', { about: 'who', role: { en: 'the mail carrier', de: 'der Postbote' } }],
    ['ist das barack?', { about: 'who', name: 'Barack' }],
    ['what car is that?', { about: 'vehicle' }],
    ['was für ein auto ist das', { about: 'vehicle' }],
    ['whose dog is that', { about: 'animal' }],
  ])('%s', (text, expected) => {
    expect(alertQuestionOf(text, ['Barack'])).toEqual(expected);
  });

  it('leaves a question of its own alone', () => {
    expect(alertQuestionOf('and what happened at the cabin yesterday evening after six', [])).toBeUndefined();
  });
});

describe('answering about the alert', () => {
  it('says a stranger was not recognised, and how to name them (EN and DE)', () => {
    const three = alert({ objects: [person, person, person] });
    const en = composeAlertReply({ about: 'who' }, [three], ctx);
    expect(en.text).toBe(
      "I didn't recognise them: three people, none of them in your Memories.\nThree people walked up to the Front Door at 3:04 AM.\nIf you know them, reply to the alert with their name (“that’s …”) and I’ll remember.",
    );
    expect(en.cited).toEqual([three]);
    expect(composeAlertReply({ about: 'who' }, [alert({})], de).text.split('\n')[0]).toBe(
      'Diese Person habe ich nicht erkannt: Sie ist keine der Personen unter deinen Erinnerungen.',
    );
  });

  it('names a recognised person, and answers yes or no for a name', () => {
    const barack = alert({ recognised: [{ category: 'people', name: 'Barack' }] });
    expect(composeAlertReply({ about: 'who' }, [barack], ctx).text.split('\n')[0]).toBe('This is Barack.');
    expect(composeAlertReply({ about: 'who', name: 'Barack' }, [barack], de).text.split('\n')[0]).toBe(
      'Ja, das ist Barack.',
    );
    expect(composeAlertReply({ about: 'who', name: 'Barack' }, [alert({})], ctx).text).toMatch(
      /^I didn't recognise Barack here\./,
    );
  });

  it('cannot tell a role, and says so with who is there', () => {
    const text = composeAlertReply(
      { about: 'who', role: { en: 'the mail carrier', de: 'der Postbote' } },
      [alert({})],
      de,
    ).text;
    expect(text).toMatch(/^Ob das der Postbote ist, kann ich nicht sagen/);
  });
});
