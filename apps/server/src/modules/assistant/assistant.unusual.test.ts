import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afternoonTimeZone, createTestApp, type TestApp } from '../../../test/app.js';
import { activities, type RoutineVerdict } from '../../platform/db/schema.js';
import {
  ask,
  insertActivity,
  minutesAgo,
  person,
  userWithCameras,
  type World,
} from './assistant.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The households' zone: early afternoon now, so events of the last hours are today whenever this runs. */
const TIME_ZONE = afternoonTimeZone();
const strangerInTheAfternoon: RoutineVerdict = {
  unusual: { rule: 'stranger', kind: 'person', part: 'afternoon', days: 30 },
};

/** A visit by someone nobody recognised, with the routine's verdict as the analysis stored it (null: not judged). */
async function visit(world: World, minutes: number, routine: RoutineVerdict | null): Promise<string> {
  const id = await insertActivity(t, world, world.cameras.Porch!, {
    at: minutesAgo(minutes),
    objects: [person()],
  });
  await t.database.db.update(activities).set({ routine }).where(eq(activities.id, id));
  return id;
}

describe('"anything unusual?"', () => {
  it("answers with what departs from the camera's routine, and why, not with every stranger", async () => {
    const home = await userWithCameras(t, { '': ['Porch'] }, TIME_ZONE);
    const odd = await visit(home, 120, strangerInTheAfternoon);
    await visit(home, 60, { unusual: null });

    const answer = await ask(t, home.user, 'anything unusual today?');
    const lines = answer.text.split('\n');
    expect(lines[0]).toMatch(/^One thing stood out today/);
    expect(lines[1]).toMatch(
      /^• A person .*Porch.* Only people you know have been on the Porch in the afternoon in the last 30 days\.$/,
    );
    expect(lines).toHaveLength(2);
    expect(answer.source_activity_uuid_list).toEqual([odd]);

    const german = await ask(t, home.user, 'irgendwas Ungewöhnliches heute?');
    expect(german.text).toMatch(/^Eine Sache ist heute .*aufgefallen:\n• /);
    expect(german.text).toContain('In den letzten 30 Tagen waren nachmittags nur Leute');
  });

  it('says nothing stood out when every event fits the routine', async () => {
    const home = await userWithCameras(t, { '': ['Porch'] }, TIME_ZONE);
    await visit(home, 60, { unusual: null });
    const answer = await ask(t, home.user, 'anything unusual today?');
    expect(answer.text).toMatch(
      /^Nothing unusual today.*: only .*, as usual for your cameras over the last weeks\.$/,
    );
    const german = await ask(t, home.user, 'Irgendwas Ungewöhnliches heute?');
    expect(german.text).toMatch(
      /^Nichts Ungewöhnliches heute.*: nur .*, alles wie sonst bei deinen Kameras\.$/,
    );
  });

  it('on a camera without a routine yet, points out strangers and says it is still learning', async () => {
    const home = await userWithCameras(t, { '': ['Porch'] }, TIME_ZONE);
    await visit(home, 30, null);
    const answer = await ask(t, home.user, 'anything unusual today?');
    expect(answer.text).toMatch(
      /^One thing stood out today.*\n• A person .* I don't know this person\.\n\(Where I don't know a camera's routine yet/,
    );
    const german = await ask(t, home.user, 'irgendwas Ungewöhnliches heute?');
    expect(german.text).toMatch(
      /Diese Person kenne ich nicht\.\n\(Wo ich den Alltag einer Kamera noch nicht kenne/,
    );
  });
});
