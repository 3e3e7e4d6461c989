import { describe, expect, it } from 'vitest';
import { composeSummary, type SummaryFacts } from './summary.js';

const NOW = new Date('2025-06-11T14:30:00Z'); // Wednesday 16:30 in Berlin
const todayInBerlin = {
  periodStart: new Date('2025-06-10T22:00:00Z'),
  periodEnd: new Date('2025-06-11T22:00:00Z'),
};

function daily(extra: Partial<SummaryFacts> = {}): SummaryFacts {
  return {
    period: 'daily',
    ...todayInBerlin,
    siteName: 'Home',
    timezone: 'Europe/Berlin',
    now: NOW,
    total: 7,
    counts: { person: 4, vehicle: 1, animal: 2 },
    recognisedNames: ['Rose', 'Bella'],
    moments: [
      'Rose walked up to the Front Door at 3:12 PM.',
      'A white car pulled into the Driveway at 9:00 AM.',
      'A cat walked across the Patio at 8:10 AM.',
    ],
    ...extra,
  };
}

describe('composeSummary', () => {
  it('writes a day in progress with counts by kind, names and every moment it attaches', () => {
    expect(composeSummary(daily(), 'en')).toBe(
      'Today at Home so far: seven events, four with people, one with a vehicle, and two with animals. ' +
        'Recognised: Rose and Bella. ' +
        'Notable: Rose walked up to the Front Door at 3:12 PM. A white car pulled into the Driveway at 9:00 AM. ' +
        'A cat walked across the Patio at 8:10 AM.',
    );
    expect(composeSummary(daily({ moments: ['Rose kam um 15:12 zur Haustür.'] }), 'de')).toBe(
      'Heute im Objekt „Home“ bisher: sieben Ereignisse, vier mit Personen, eines mit einem Fahrzeug und zwei mit Tieren. ' +
        'Erkannt: Rose und Bella. Aufgefallen: Rose kam um 15:12 zur Haustür.',
    );
  });

  it('names the unusual moments first, with why', () => {
    const unusual = [
      'A person walked up to the Porch at 3:12 AM. Nobody has been on the Porch at night in the last 30 days.',
    ];
    expect(
      composeSummary(daily({ unusual, moments: ['Rose walked up to the Front Door at 3:12 PM.'] }), 'en'),
    ).toBe(
      'Today at Home so far: seven events, four with people, one with a vehicle, and two with animals. ' +
        'Recognised: Rose and Bella. ' +
        'Unusual: A person walked up to the Porch at 3:12 AM. Nobody has been on the Porch at night in the last 30 days. ' +
        'Notable: Rose walked up to the Front Door at 3:12 PM.',
    );
    expect(
      composeSummary(
        daily({
          unusual: [
            'Eine Person kam um 3:12 zur Haustür. In den letzten 30 Tagen war nachts niemand an der Haustür.',
          ],
          moments: [],
        }),
        'de',
      ),
    ).toMatch(
      /Erkannt: Rose und Bella\. Ungewöhnlich: Eine Person kam um 3:12 zur Haustür\. In den letzten 30 Tagen/,
    );
  });

  it('says "since" of the hour in progress', () => {
    const hour = {
      period: 'hourly' as const,
      periodStart: new Date('2025-06-11T14:00:00Z'),
      periodEnd: new Date('2025-06-11T15:00:00Z'),
    };
    expect(composeSummary(daily(hour), 'en')).toMatch(/^Since 4:00 PM at Home: seven events/);
    expect(composeSummary(daily(hour), 'de')).toMatch(/^Seit 16:00 Uhr im Objekt „Home“: sieben Ereignisse/);
  });

  it('writes a finished day by its name', () => {
    const yesterday = daily({
      periodStart: new Date('2025-06-09T22:00:00Z'),
      periodEnd: new Date('2025-06-10T22:00:00Z'),
      siteName: 'Strandhaus',
      total: 1,
      counts: { other: 1 },
      recognisedNames: [],
      moments: [],
    });
    expect(composeSummary(yesterday, 'en')).toBe('Yesterday at Strandhaus: one event with motion only.');
    expect(composeSummary(yesterday, 'de')).toBe('Gestern im Strandhaus: ein Ereignis nur mit Bewegung.');
  });

  it('writes an hour in the local clock of each language', () => {
    const hour: SummaryFacts = {
      ...daily(),
      period: 'hourly',
      periodStart: new Date('2025-06-11T12:00:00Z'),
      periodEnd: new Date('2025-06-11T13:00:00Z'),
      total: 2,
      counts: { person: 2 },
      recognisedNames: [],
      moments: [],
    };
    expect(composeSummary(hour, 'en')).toBe('Between 2:00 PM and 3:00 PM at Home: two events with people.');
    expect(composeSummary(hour, 'de')).toBe(
      'Zwischen 14:00 und 15:00 im Objekt „Home“: zwei Ereignisse mit Personen.',
    );
  });

  it('says when all was quiet', () => {
    const quiet = daily({ total: 0, counts: {}, recognisedNames: [], moments: [], siteName: null });
    expect(composeSummary(quiet, 'en')).toBe('Today so far: all quiet, nothing happened.');
    expect(composeSummary(quiet, 'de')).toBe('Heute bisher: alles ruhig, nichts passiert.');
  });
});
