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
      'Ignored.',
    ],
    ...extra,
  };
}

describe('composeSummary', () => {
  it('writes a day in progress with counts by kind, names and the two most notable moments', () => {
    expect(composeSummary(daily(), 'en')).toBe(
      'Today at Home so far: seven events, four with people, one with a vehicle, and two with animals. ' +
        'Recognised: Rose and Bella. ' +
        'Notable: Rose walked up to the Front Door at 3:12 PM. A white car pulled into the Driveway at 9:00 AM.',
    );
    expect(composeSummary(daily({ moments: ['Rose kam um 15:12 zur Haustür.'] }), 'de')).toBe(
      'Heute im Objekt „Home“ bisher: sieben Ereignisse, vier mit Personen, eines mit einem Fahrzeug und zwei mit Tieren. ' +
        'Erkannt: Rose und Bella. Aufgefallen: Rose kam um 15:12 zur Haustür.',
    );
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
