import { describe, expect, it } from 'vitest';
import {
  describeActivity,
  type ActivityFacts,
  type DetectedObject,
  type RecognisedName,
} from './activity-sentence.js';

// 13:12 UTC is 3:12 PM in Berlin (summer time).
const base = {
  occurredAt: new Date('2025-06-10T13:12:00Z'),
  timezone: 'Europe/Berlin',
  mediaKind: 'image' as const,
};
const person: DetectedObject = { kind: 'person', label: 'person' };
const car = (color?: string): DetectedObject => ({
  kind: 'vehicle',
  label: 'car',
  ...(color ? { color } : {}),
});
const rose: RecognisedName = { category: 'people', name: 'Rose' };
const otto: RecognisedName = { category: 'people', name: 'Otto' };

function facts(
  cameraName: string,
  objects: DetectedObject[],
  recognised: RecognisedName[] = [],
): ActivityFacts {
  return { ...base, cameraName, objects, recognised };
}

describe('describeActivity in English', () => {
  it.each<[string, ActivityFacts, string]>([
    [
      'a recognised person at a door',
      facts('Front Door', [person], [rose]),
      'Rose walked up to the Front Door at 3:12 PM.',
    ],
    ['nothing detected', facts('Front Door', []), 'Motion at the Front Door at 3:12 PM.'],
    ['one unknown person', facts('Front Door', [person]), 'A person walked up to the Front Door at 3:12 PM.'],
    [
      'two people',
      facts('Front Door', [person, person]),
      'Two people walked up to the Front Door at 3:12 PM.',
    ],
    [
      'a name before an unknown person',
      facts('Front Door', [person, person], [rose]),
      'Rose and an unknown person walked up to the Front Door at 3:12 PM.',
    ],
    [
      'a name before two unknown people',
      facts('Front Door', [person, person, person], [rose]),
      'Rose and two unknown people walked up to the Front Door at 3:12 PM.',
    ],
    [
      'two names, no stranger',
      facts('Front Door', [person, person], [rose, otto]),
      'Rose and Otto walked up to the Front Door at 3:12 PM.',
    ],
    [
      'a white car into the driveway',
      facts('Driveway', [car('white')]),
      'A white car pulled into the Driveway at 3:12 PM.',
    ],
    [
      'cars grouped by colour',
      facts('Driveway', [car('white'), car('white'), { kind: 'vehicle', label: 'truck' }]),
      'Two white cars and a truck pulled into the Driveway at 3:12 PM.',
    ],
    [
      'a person and a car',
      facts('Front Door', [car(), person]),
      'A person and a car were seen at the Front Door at 3:12 PM.',
    ],
    [
      'a recognised dog',
      facts('Backyard', [{ kind: 'animal', label: 'dog' }], [{ category: 'animals', name: 'Bella' }]),
      'Your dog Bella was seen in the Backyard at 3:12 PM.',
    ],
    [
      'two cats on the patio',
      facts('Patio', [
        { kind: 'animal', label: 'cat' },
        { kind: 'animal', label: 'cat' },
      ]),
      'Two cats were seen on the Patio at 3:12 PM.',
    ],
    [
      'an unknown animal label',
      facts('Garden', [{ kind: 'animal', label: 'wombat' }]),
      'An animal was seen in the Garden at 3:12 PM.',
    ],
    ['a camera with a number', facts('Cam 1', [person]), 'A person was seen on Cam 1 at 3:12 PM.'],
    [
      'a camera name that is no place',
      facts('Haustür', [person], [rose]),
      'Rose was seen on the Haustür camera at 3:12 PM.',
    ],
    [
      'a name with its own determiner',
      facts("Rose's Room", [person]),
      "A person was seen in Rose's Room at 3:12 PM.",
    ],
    ['an orange car', facts('Street', [car('orange')]), 'An orange car was seen in the Street at 3:12 PM.'],
    [
      'a recognised car',
      facts('Driveway', [car('white')], [{ category: 'vehicles', name: "Otto's Golf" }]),
      "Otto's Golf pulled into the Driveway at 3:12 PM.",
    ],
  ])('%s', (_name, f, expected) => {
    expect(describeActivity(f, 'en')).toBe(expected);
  });

  it('names the property first when it is given', () => {
    expect(
      describeActivity({ ...facts('Front Door', [person], [rose]), siteName: 'Beach House' }, 'en'),
    ).toBe('Beach House: Rose walked up to the Front Door at 3:12 PM.');
  });

  it("uses the user's zone and a 12-hour clock", () => {
    const f = { ...facts('Front Door', []), occurredAt: new Date('2025-06-10T04:05:00Z') };
    expect(describeActivity({ ...f, timezone: 'America/New_York' }, 'en')).toBe(
      'Motion at the Front Door at 12:05 AM.',
    );
    expect(describeActivity({ ...f, timezone: null }, 'en')).toBe('Motion at the Front Door at 4:05 AM.');
  });

  it('names a recognised person once however often recognition reported them', () => {
    expect(describeActivity(facts('Front Door', [person], [rose, rose]), 'en')).toBe(
      'Rose walked up to the Front Door at 3:12 PM.',
    );
  });
});

describe('describeActivity in German', () => {
  it.each<[string, ActivityFacts, string]>([
    ['a recognised person at a door', facts('Haustür', [person], [rose]), 'Rose kam um 15:12 zur Haustür.'],
    ['nothing detected', facts('Haustür', []), 'Bewegung an der Haustür um 15:12.'],
    ['two people', facts('Haustür', [person, person]), 'Zwei Personen kamen um 15:12 zur Haustür.'],
    [
      'a name before an unknown person',
      facts('Haustür', [person, person], [rose]),
      'Rose und eine unbekannte Person kamen um 15:12 zur Haustür.',
    ],
    [
      'a name before two unknown people',
      facts('Haustür', [person, person, person], [rose]),
      'Rose und zwei unbekannte Personen kamen um 15:12 zur Haustür.',
    ],
    ['a neuter gate', facts('Gartentor', [person]), 'Eine Person kam um 15:12 zum Gartentor.'],
    [
      'a masculine entrance',
      facts('Eingang', [person, person, person, person]),
      'Vier Personen kamen um 15:12 zum Eingang.',
    ],
    [
      'a white car into the driveway',
      facts('Einfahrt', [car('white')]),
      'Ein weißes Auto fuhr um 15:12 in die Einfahrt.',
    ],
    [
      'two white cars',
      facts('Einfahrt', [car('white'), car('white')]),
      'Zwei weiße Autos fuhren um 15:12 in die Einfahrt.',
    ],
    [
      'a red truck into the yard',
      facts('Hof', [{ kind: 'vehicle', label: 'truck', color: 'red' }]),
      'Ein roter Lkw fuhr um 15:12 in den Hof.',
    ],
    [
      'a dark blue car',
      facts('Garage', [car('dark blue')]),
      'Ein dunkelblaues Auto fuhr um 15:12 in die Garage.',
    ],
    [
      'a colour German has no word for is left out',
      facts('Einfahrt', [car('teal')]),
      'Ein Auto fuhr um 15:12 in die Einfahrt.',
    ],
    [
      'a person and a car',
      facts('Haustür', [car(), person]),
      'Eine Person und ein Auto wurden um 15:12 an der Haustür gesehen.',
    ],
    [
      'a recognised dog',
      facts('Garten', [{ kind: 'animal', label: 'dog' }], [{ category: 'animals', name: 'Bella' }]),
      'Dein Hund Bella wurde um 15:12 im Garten gesehen.',
    ],
    [
      'a recognised cat',
      facts('Garten', [{ kind: 'animal', label: 'cat' }], [{ category: 'animals', name: 'Mimi' }]),
      'Deine Katze Mimi wurde um 15:12 im Garten gesehen.',
    ],
    [
      'two cats on the terrace',
      facts('Terrasse', [
        { kind: 'animal', label: 'cat' },
        { kind: 'animal', label: 'cat' },
      ]),
      'Zwei Katzen wurden um 15:12 auf der Terrasse gesehen.',
    ],
    [
      'a camera name that is no German place',
      facts('Front Door', [person], [rose]),
      'Rose wurde um 15:12 von der Kamera „Front Door“ erfasst.',
    ],
    ['a camera with a number', facts('Kamera 2', []), 'Bewegung an Kamera 2 um 15:12.'],
  ])('%s', (_name, f, expected) => {
    expect(describeActivity(f, 'de')).toBe(expected);
  });

  it('uses a 24-hour clock', () => {
    const f = { ...facts('Haustür', []), occurredAt: new Date('2025-06-10T22:05:00Z') };
    expect(describeActivity(f, 'de')).toBe('Bewegung an der Haustür um 00:05.');
  });

  it('names the property first when it is given', () => {
    expect(describeActivity({ ...facts('Haustür', [person], [rose]), siteName: 'Strandhaus' }, 'de')).toBe(
      'Strandhaus: Rose kam um 15:12 zur Haustür.',
    );
  });
});

describe('people in the background', () => {
  const crowd: DetectedObject[] = Array.from({ length: 10 }, () => ({ ...person, background: true }));

  it.each<[string, ActivityFacts, 'en' | 'de', string]>([
    [
      'a footballer in front of a stadium crowd',
      facts('Front Door', [person, ...crowd]),
      'en',
      'A person walked up to the Front Door at 3:12 PM, with people in the background.',
    ],
    [
      'only a crowd far off',
      facts('Front Door', crowd),
      'en',
      'People were seen in the background at the Front Door at 3:12 PM.',
    ],
    [
      'one passer-by far off',
      facts('Driveway', [{ ...person, background: true }]),
      'en',
      'Someone was seen in the background in the Driveway at 3:12 PM.',
    ],
    [
      'a car in the driveway, a passer-by behind it',
      facts('Driveway', [car('white'), { ...person, background: true }]),
      'en',
      'A white car pulled into the Driveway at 3:12 PM, with people in the background.',
    ],
    [
      'German: a person in front of a crowd',
      facts('Haustür', [person, ...crowd]),
      'de',
      'Eine Person kam um 15:12 zur Haustür; im Hintergrund waren weitere Personen.',
    ],
    [
      'German: only a crowd far off',
      facts('Haustür', crowd),
      'de',
      'Im Hintergrund waren um 15:12 an der Haustür Personen zu sehen.',
    ],
    [
      'German: a camera name German cannot read as a place',
      facts('Front Door', crowd),
      'de',
      'Personen im Hintergrund wurden um 15:12 von der Kamera „Front Door“ erfasst.',
    ],
  ])('%s', (_, f, language, expected) => {
    expect(describeActivity(f, language)).toBe(expected);
  });
});

describe('a busy scene (issue 31 point 12)', () => {
  const many = (n: number, o: DetectedObject) => Array.from({ length: n }, () => o);
  const background = many(5, { ...person, background: true });
  it('says many, not "Twelve people and 18 silver cars", and counts no one in the background', () => {
    const park = facts('Driveway', [...many(18, car('silver')), ...background]);
    expect(describeActivity(park, 'en')).toBe(
      'Many silver cars were seen in the Driveway at 3:12 PM, with people in the background.',
    );
    expect(describeActivity(park, 'de')).toBe(
      'Viele silberne Autos wurden um 15:12 von der Kamera „Driveway“ erfasst; im Hintergrund waren weitere Personen.',
    );
    expect(describeActivity(facts('Driveway', [...many(12, person), ...many(18, car('silver'))]), 'en')).toBe(
      'Many people and many silver cars were seen in the Driveway at 3:12 PM.',
    );
  });

  it('still counts a few', () => {
    expect(describeActivity(facts('Driveway', many(5, car('silver'))), 'en')).toBe(
      'Five silver cars pulled into the Driveway at 3:12 PM.',
    );
  });
});

describe('an event without a picture (a late Nest event)', () => {
  const late = (cameraVerdict: ActivityFacts['cameraVerdict']) => ({
    ...facts('Front Door Doorbell', []),
    mediaKind: 'none' as const,
    cameraVerdict,
  });

  it("says only Nest's verdict and why there is no picture, never a motion of ours, in English and German", () => {
    expect(describeActivity(late(['chime', 'person']), 'en')).toBe(
      "Front Door Doorbell reported: the doorbell rang; a person was at the door. No picture: the event reached Homesitter after Google's picture had expired.",
    );
    expect(describeActivity(late(['person', 'chime']), 'de')).toBe(
      'Front Door Doorbell meldete: es hat geklingelt; eine Person war an der Tür. Kein Bild: Das Ereignis kam erst bei Homesitter an, als Googles Bild schon abgelaufen war.',
    );
    expect(describeActivity(late([]), 'en')).toBe(
      "No picture: the event reached Homesitter after Google's picture had expired.",
    );
  });
});

describe("the camera maker's own verdict (Nest), said after ours", () => {
  const door = (cameraVerdict: ActivityFacts['cameraVerdict']) => ({
    ...facts('Front Door Doorbell', [person]),
    cameraVerdict,
  });

  it('says the doorbell rang and who was at the door, in English and German', () => {
    expect(describeActivity(door(['chime', 'person']), 'en')).toMatch(
      / Front Door Doorbell reported: the doorbell rang; a person was at the door\.$/,
    );
    expect(describeActivity(door(['person', 'chime']), 'de')).toMatch(
      / Front Door Doorbell meldete: es hat geklingelt; eine Person war an der Tür\.$/,
    );
  });

  it('leaves motion unsaid beside a person, and says a sound', () => {
    expect(describeActivity(door(['motion', 'person']), 'en')).toMatch(/ reported: a person was there\.$/);
    expect(describeActivity(door(['motion', 'sound']), 'en')).toMatch(
      / reported: something moved; there was a sound\.$/,
    );
    expect(describeActivity(door(['sound']), 'de')).toMatch(/ meldete: es gab ein Geräusch\.$/);
  });

  it('adds nothing when the camera said nothing', () => {
    expect(describeActivity(door([]), 'en')).toBe(
      'A person walked up to the Front Door Doorbell at 3:12 PM.',
    );
  });
});
