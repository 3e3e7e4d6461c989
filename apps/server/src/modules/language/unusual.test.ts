import { describe, expect, it } from 'vitest';
import { unusualLine, unusualReason } from './unusual.js';

describe('why an event is unusual, in one sentence', () => {
  it('names what the camera has not seen at this time, in English and German', () => {
    const never = { rule: 'never', kind: 'person', part: 'night', days: 30 } as const;
    expect(unusualReason(never, 'Front Door', 'en')).toBe(
      'Nobody has been at the Front Door at night in the last 30 days.',
    );
    expect(unusualReason(never, 'Haustür', 'de')).toBe(
      'In den letzten 30 Tagen war nachts niemand an der Haustür.',
    );
    expect(unusualLine(never, 'Front Door', 'en')).toBe(
      'Unusual: nobody has been at the Front Door at night in the last 30 days.',
    );
  });

  it('speaks of weekdays and weekends, vehicles, animals and strangers', () => {
    const weekend = { rule: 'weekend', kind: 'vehicle', part: 'morning', days: 21 } as const;
    expect(unusualReason(weekend, 'Driveway', 'en')).toBe(
      'No vehicle has been in the Driveway on a weekend morning in the last 21 days.',
    );
    expect(unusualReason(weekend, 'Einfahrt', 'de')).toBe(
      'In den letzten 21 Tagen war am Wochenende morgens kein Fahrzeug in der Einfahrt.',
    );
    const animal = { rule: 'weekday', kind: 'animal', part: 'evening', days: 30 } as const;
    expect(unusualReason(animal, 'Garden', 'en')).toBe(
      'No animal has been in the Garden on a weekday evening in the last 30 days.',
    );
    const stranger = { rule: 'stranger', kind: 'person', part: 'afternoon', days: 30 } as const;
    expect(unusualReason(stranger, 'Front Door', 'en')).toBe(
      'Only people you know have been at the Front Door in the afternoon in the last 30 days.',
    );
    expect(unusualLine(stranger, 'Haustür', 'de')).toBe(
      'Ungewöhnlich: In den letzten 30 Tagen waren nachmittags nur Leute an der Haustür, die du kennst.',
    );
  });

  it('says a stranger came while the household was seen at another property', () => {
    const away = { rule: 'away', kind: 'person', part: 'afternoon', days: 30, elsewhere: 'Home' } as const;
    expect(unusualReason(away, 'Porch', 'en')).toBe(
      "Someone you don't know was on the Porch while your people were seen at Home.",
    );
    expect(unusualReason({ ...away, elsewhere: 'Strandhaus' }, 'Haustür', 'de')).toBe(
      'Jemand Unbekanntes war an der Haustür, während deine Leute im Strandhaus gesehen wurden.',
    );
  });
});
