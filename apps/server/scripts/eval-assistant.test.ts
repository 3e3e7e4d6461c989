import { describe, expect, it } from 'vitest';
import {
  KINDS,
  askInstant,
  fold,
  loadAllQuestions,
  matcher,
  score,
  shapeProblems,
  variety,
  type HouseholdFacts,
} from '../eval/assistant/questions.js';

// The eval's question sets (eval/assistant/questions.json and the held-out questions.heldout.json): their
// shape and variety together; no household, no server.
const questions = loadAllQuestions();

describe('the assistant eval question set', () => {
  it('is well formed', () => {
    expect(shapeProblems(questions)).toEqual([]);
  });

  it('is varied: ≥ 150 questions, about a third German, every kind ≥ 5, mostly distinct openings', () => {
    const v = variety(questions);
    expect(v.problems).toEqual([]);
    expect(Object.keys(v.byKind).sort()).toEqual([...KINDS].sort());
  });

  it('fails a uniform set loudly', () => {
    const uniform = Array.from({ length: 160 }, (_, i) => ({
      ...questions[0]!,
      id: `u${i}`,
      q: `any ${['cars', 'dogs', 'cats', 'people'][i % 4]} at the front door?`,
    }));
    const v = variety(uniform);
    expect(v.problems.join('\n')).toMatch(/distinct openings/);
    expect(v.problems.join('\n')).toMatch(/distinct templates/);
    expect(v.problems.join('\n')).toMatch(/German|both/);
  });

  it('asks every follow-up after its thread and at a time after the household was built', () => {
    const now = new Date('2026-11-17T03:18:00+01:00');
    for (const q of questions)
      expect(askInstant(q.ask_at, now).getTime()).toBeGreaterThanOrEqual(now.getTime());
    expect(askInstant('10:15', now).toISOString()).toBe('2026-11-17T09:15:00.000Z');
    expect(askInstant('+1d 09:00', now).toISOString()).toBe('2026-11-18T08:00:00.000Z');
  });
});

describe('scoring one answer', () => {
  const facts: HouseholdFacts = {
    cameras: ['Front Door'],
    sites: ['Home'],
    people: ['Barack'],
    activityIds: new Set(['a1']),
    eventTimes: [new Date('2026-11-17T03:04:00+01:00')],
    timezone: 'Europe/Berlin',
  };
  const item = {
    id: 'x',
    lang: 'en' as const,
    kind: 'events' as const,
    q: 'who was at the door at 3?',
    ask_at: 'now',
    must: ['3:04', 'Front Door'],
    must_not: ["/didn'?t see/"],
    window_has_events: true,
  };
  const at = new Date('2026-11-17T03:18:00+01:00');
  const verdict = (text: string, cited: string[] = []) => score(item, { text, cited }, facts, at);

  it('folds and matches phrases and regexes', () => {
    expect(fold('Haustür, Straße!')).toBe('haustur strasse');
    expect(matcher('haustür')('An der HAUSTÜR')).toBe(true);
    expect(matcher('/3:0[4]/')('at 3:04 AM')).toBe(true);
  });

  it('tells right, half right, wrong, unhelpful and hallucinated apart', () => {
    expect(verdict('A person walked up to the Front Door at 3:04 AM.', ['a1']).verdict).toBe('right');
    expect(verdict('Someone was there at 3:04 AM.', ['a1']).verdict).toBe('half');
    const clear = verdict("I didn't see anyone today around 3 PM.");
    expect(clear.verdict).toBe('wrong');
    expect(clear.falseAllClear).toBe(true);
    expect(verdict('There were 7 events in the last 24 hours: …').verdict).toBe('unhelpful');
    expect(verdict('Tom walked up to the Front Door at 3:04 AM.', ['a1']).verdict).toBe('hallucinated');
    expect(verdict('A person walked up to the Front Door at 3:07 AM.', ['a1']).verdict).toBe('hallucinated');
    expect(verdict('A person walked up to the Front Door at 3:04 AM.', ['zz']).verdict).toBe('hallucinated');
  });
});
