import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { startFakeLlm, type FakeLlmServer } from '../../../test/fake-llm.js';
import {
  ask,
  car,
  insertActivity,
  minutesAgo,
  person,
  userWithCameras,
  type World,
} from './assistant.test-support.js';

// The whole server with LLM_BASE_URL pointing at a local server that speaks the chat-completions API.
let llm: FakeLlmServer;
let t: TestApp;
let world: World;
let roseVisit: string;
let strangerVisit: string;

beforeAll(async () => {
  llm = await startFakeLlm();
  t = await createTestApp({
    env: {
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: 'sk-local',
      LLM_MODEL: 'home-sitter-test',
      LLM_TIMEOUT_MS: '1500',
    },
  });
  world = await userWithCameras(t, { Home: ['Front Door', 'Driveway'], Cabin: ['Porch'] });
  const rose = await t.app.inject({
    method: 'POST',
    url: '/api/users/memories/people',
    headers: world.user.auth,
    payload: { name: 'Rose', notes: 'My sister, visits on Sundays' },
  });
  const roseId: string = rose.json().data.memory_uuid;
  roseVisit = await insertActivity(t, world, world.cameras['Front Door']!, {
    at: minutesAgo(60),
    objects: [person()],
    recognised: [{ category: 'people', memory_uuid: roseId, name: 'Rose' }],
    description: 'Rose walked up to the Front Door.',
  });
  strangerVisit = await insertActivity(t, world, world.cameras['Front Door']!, {
    at: minutesAgo(30),
    objects: [person()],
  });
  await insertActivity(t, world, world.cameras.Driveway!, { at: minutesAgo(20), objects: [car('white')] });
  await insertActivity(t, world, world.cameras.Porch!, { at: minutesAgo(10), objects: [person()] });
});
afterAll(async () => {
  await t.close();
  await llm.close();
});
beforeEach(() => {
  llm.received.length = 0;
});

type ToolResult = {
  total_matches: number;
  answer_per_property: boolean;
  groups: {
    property?: string;
    activities: { activity_uuid: string; camera: string; recognised: string[] }[];
  }[];
};
const toolResults = (index: number) =>
  llm.received[index]!.body.messages.filter((m) => m.role === 'tool').map(
    (m) => JSON.parse(m.content as string) as unknown,
  );

describe('answers with an LLM', () => {
  it('lets the model search with the tools and cites what its searches found', async () => {
    llm.reply = (_req, i) =>
      i === 0
        ? {
            toolCalls: [
              {
                name: 'search_activities',
                arguments: { time_phrase: 'in the last 3 hours', cameras: ['front door'], kinds: ['person'] },
              },
            ],
          }
        : { text: 'Rose came to the Front Door an hour ago, and someone I don’t know half an hour ago.' };
    const answer = await ask(t, world.user, 'Who came to the front door in the last 3 hours?');

    expect(answer.text).toBe(
      'Rose came to the Front Door an hour ago, and someone I don’t know half an hour ago.',
    );
    expect(answer.source_activity_uuid_list).toEqual([roseVisit, strangerVisit]);
    expect(answer.videos.map((v) => v.activity_uuid)).toEqual([roseVisit, strangerVisit]);

    const first = llm.received[0]!;
    expect(first.headers.authorization).toBe('Bearer sk-local');
    expect(first.body.model).toBe('home-sitter-test');
    expect(first.body.tools!.map((tool) => tool.function.name)).toEqual([
      'search_activities',
      'search_memories',
      'create_memory',
      'get_household',
      'create_watch',
      'list_watches',
      'cancel_watch',
    ]);
    const system = first.body.messages[0]!.content as string;
    expect(system).toContain('- Home: Front Door, Driveway');
    expect(system).toContain('- Cabin: Porch');
    expect(system).toContain('never combine events of different properties');
    expect(first.body.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Who came to the front door in the last 3 hours?',
    });

    const [result] = toolResults(1) as ToolResult[];
    expect(result!.total_matches).toBe(2);
    expect(result!.answer_per_property).toBe(false);
    expect(result!.groups[0]!.activities.map((a) => a.activity_uuid)).toEqual([roseVisit, strangerVisit]);
    expect(result!.groups[0]!.activities[0]!.recognised).toEqual(['Rose (people)']);
  });

  it('answers fixed intents without the model, and gives it the household tool and the intent read', async () => {
    const joke = await ask(t, world.user, 'tell me a joke');
    expect(joke.text).toMatch(/^I'll leave the jokes to others/);
    const fire = await ask(t, world.user, 'was there a fire?');
    expect(fire.text).toMatch(/^I can't detect fire or smoke/);
    expect(llm.received).toHaveLength(0);

    llm.reply = (_req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'get_household', arguments: { topic: 'cameras' } }] }
        : { text: 'You have three cameras: Front Door, Driveway and Porch.' };
    const cameras = await ask(t, world.user, 'how many cameras do I have?');
    expect(cameras.text).toBe('You have three cameras: Front Door, Driveway and Porch.');
    expect(llm.received[0]!.body.messages[0]!.content).toContain('answer from get_household');
    const [household] = toolResults(1) as { cameras: { name: string; offline: boolean }[] }[];
    expect(household!.cameras.map((c) => c.name)).toEqual(['Front Door', 'Driveway', 'Porch']);
  });

  it('searches the last hours when no time away is known, and tells the model it is a guess to narrow', async () => {
    llm.reply = (_req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'search_activities', arguments: { time_phrase: 'while I was out' } }] }
        : { text: 'In the last 8 hours: three events.' };
    await ask(t, world.user, 'Anything while I was out?');
    const [result] = toolResults(1) as (ToolResult & { window: string; window_is_a_guess?: string })[];
    expect(result!.window).toBe('in the last 8 hours');
    expect(result!.window_is_a_guess).toMatch(/Tell me when you left/);
    expect(llm.received[0]!.body.messages[0]!.content).toContain('never say nothing happened');
  });

  it("gives the model each property's results on their own when the question names none", async () => {
    llm.reply = (_req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'search_activities', arguments: { time_phrase: 'in the last 3 hours' } }] }
        : { text: 'At Home three events; at the Cabin one.' };
    await ask(t, world.user, 'What happened in the last 3 hours?');
    const [result] = toolResults(1) as ToolResult[];
    expect(result!.answer_per_property).toBe(true);
    expect(result!.groups.map((g) => [g.property, g.activities.length])).toEqual([
      ['Cabin', 1],
      ['Home', 3],
    ]);
  });

  it('keeps a short-term note through create_memory', async () => {
    const tomorrow = new Date(Date.now() + 26 * 3_600_000).toISOString();
    llm.reply = (_req, i) =>
      i === 0
        ? {
            toolCalls: [
              {
                name: 'create_memory',
                arguments: { text: 'A parcel for Otto arrives', expires_at: tomorrow },
              },
            ],
          }
        : { text: 'Noted, I’ll keep it in mind until tomorrow.' };
    const answer = await ask(t, world.user, 'Remember that a parcel for Otto arrives tomorrow');
    expect(answer.text).toBe('Noted, I’ll keep it in mind until tomorrow.');
    const memories = (
      await t.app.inject({ method: 'GET', url: '/api/users/memories', headers: world.user.auth })
    ).json().data;
    const note = memories.general.find((m: { text: string }) => m.text === 'A parcel for Otto arrives');
    expect(note.expires_at).not.toBeNull();
    expect(Math.abs(Date.parse(note.expires_at) - Date.parse(tomorrow))).toBeLessThan(60_000);
  });

  it('creates and stops watches through create_watch and cancel_watch', async () => {
    llm.reply = (_req, i) =>
      i === 0
        ? {
            toolCalls: [
              {
                name: 'create_watch',
                arguments: {
                  labels: ['car'],
                  cameras: ['driveway'],
                  time_phrase: 'in the next 2 hours',
                  text_me: true,
                },
              },
            ],
          }
        : { text: 'I’ll text you when a car pulls into the Driveway in the next two hours.' };
    // Not a phrase the intent step reads as a watch: the model picks the tool.
    await ask(
      t,
      world.user,
      'Keep me posted by text on cars pulling into the driveway over the next 2 hours',
    );
    const [created] = toolResults(1) as {
      created: { watch_id: string; cameras: string[]; text_me: boolean };
    }[];
    expect(created!.created).toMatchObject({ cameras: ['Driveway'], text_me: true, labels: ['car'] });
    const [row] = await t.database.query<{
      camera_ids: string[];
      ends_at: Date;
      starts_at: Date;
      channel: string;
    }>('select camera_ids, ends_at, starts_at, channel from watches where id = $1', [
      created!.created.watch_id,
    ]);
    expect(row!.camera_ids).toEqual([world.cameras.Driveway!.id]);
    expect(row!.channel).toBe('sms');
    expect(new Date(row!.ends_at).getTime() - new Date(row!.starts_at).getTime()).toBe(2 * 3_600_000);

    llm.received.length = 0;
    llm.reply = (_req, i) =>
      i === 0
        ? { toolCalls: [{ name: 'cancel_watch', arguments: { watch_ids: [created!.created.watch_id] } }] }
        : { text: 'Stopped.' };
    await ask(t, world.user, 'I no longer need updates about cars in the driveway');
    const [stopped] = toolResults(1) as { stopped: { watch_id: string }[] }[];
    expect(stopped!.stopped.map((w) => w.watch_id)).toEqual([created!.created.watch_id]);
    const [ended] = await t.database.query<{ end_reason: string }>(
      'select end_reason from watches where id = $1',
      [created!.created.watch_id],
    );
    expect(ended!.end_reason).toBe('cancelled');
  });

  it('keeps a note itself when the model did not', async () => {
    llm.reply = () => ({ text: 'Sure!' });
    const answer = await ask(t, world.user, 'Remember that the spare key is under the mat');
    expect(answer.text).toBe("Got it, I'll remember: “The spare key is under the mat”.");
  });

  it('answers with the built-in composer when the model names someone nothing showed', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/users/memories/people',
      headers: world.user.auth,
      payload: { name: 'Otto' },
    });
    llm.reply = (_req, i) =>
      i === 0
        ? {
            toolCalls: [
              {
                name: 'search_activities',
                arguments: { time_phrase: 'in the last 3 hours', cameras: ['Front Door'] },
              },
            ],
          }
        : { text: 'Rose and Otto came to the Front Door.' };
    const answer = await ask(t, world.user, 'Who was at the front door in the last 3 hours?');
    expect(answer.text.split('\n')[0]).toBe('I saw people at the Front Door twice in the last 3 hours:');
  });

  it('falls back to the built-in composer when the model does not answer in time', async () => {
    llm.reply = () => ({ hang: true });
    const answer = await ask(t, world.user, 'Any cars in the driveway in the last 3 hours?');
    expect(answer.text.split('\n')[0]).toBe('I saw a car in the Driveway in the last 3 hours:');
    expect(llm.received).toHaveLength(1);
  });

  it('falls back when the model server fails', async () => {
    llm.reply = () => ({ status: 503, body: { error: { message: 'loading model' } } });
    const answer = await ask(t, world.user, 'Anyone on the porch in the last 3 hours?');
    expect(answer.text.split('\n')[0]).toBe('I saw someone on the Porch in the last 3 hours:');
  });
});

describe('an LLM in amnesia mode', () => {
  it('is offered no way to keep anything, and sees no earlier messages', async () => {
    const amnesic = await userWithCameras(t, { '': ['Garden'] });
    llm.reply = () => ({ text: 'Nothing in the garden.' });
    await ask(t, amnesic.user, 'Anything in the garden today?');
    await t.app.inject({
      method: 'POST',
      url: '/api/users/update-amnesia-mode',
      headers: amnesic.user.auth,
      payload: { is_amnesia_mode_enabled: true },
    });
    llm.received.length = 0;
    await ask(t, amnesic.user, 'And yesterday?');
    const request = llm.received[0]!.body;
    expect(request.tools!.map((tool) => tool.function.name)).toEqual([
      'search_activities',
      'search_memories',
      'get_household',
      'create_watch',
      'list_watches',
      'cancel_watch',
    ]);
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request.messages[0]!.content).toContain('Amnesia mode is on');
  });
});
