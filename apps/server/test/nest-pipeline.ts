/**
 * A linked Nest doorbell ("Front Door Doorbell") whose Pub/Sub events run through the whole pipeline of a test
 * app, with a stand-in vision engine that sees a person in every frame: what the Nest event-to-alert tests
 * share.
 */
import type { Activity, ChatMessage } from '@homesitter/contract';
import type { VisionEngine } from '../src/adapters/vision/vision.js';
import { person } from '../src/modules/analysis/analysis.test-support.js';
import { createTestApp, signUp, type TestApp, type TestUser } from './app.js';
import { stateReached } from './calls.js';
import { sdmDevice, startFakeGoogle, type FakeGoogle } from './fake-google.js';
import { linkNest } from './nest-link.js';

export const NEST_PROJECT = 'test-project';
/** The doorbell's SDM device id (`sdmEvent(NEST_PROJECT, NEST_DOORBELL, …)`). */
export const NEST_DOORBELL = 'door';

export interface NestPipeline {
  t: TestApp;
  google: FakeGoogle;
  who: TestUser;
  /** How many frames the vision engine was shown so far. */
  framesSeen(): number;
  /** Resolves once Google saw the Pub/Sub message acknowledged (the event was taken). */
  acked(messageId: string): Promise<unknown>;
  /** The user's activities, newest first. */
  activities(): Promise<Activity[]>;
  /** The agent's alerts in the user's chat (messages that name activities). */
  alerts(): Promise<ChatMessage[]>;
  close(): Promise<void>;
}

export async function startNestPipeline(options: {
  /** What GenerateImage hands out. */
  image?: Buffer;
  /** What a clip preview's address serves. */
  clip?: Buffer;
}): Promise<NestPipeline> {
  let framesSeen = 0;
  const seesAPerson: VisionEngine = {
    kind: 'local',
    analyse: async () => {
      framesSeen += 1;
      return { width: 1280, height: 720, objects: [person()], faces: [] };
    },
    embedFaces: async () => [],
    close: async () => undefined,
  };
  const google = await startFakeGoogle(NEST_PROJECT);
  if (options.image) google.state.image = options.image;
  if (options.clip) google.state.clip = options.clip;
  google.state.devices = [sdmDevice(NEST_PROJECT, NEST_DOORBELL, { type: 'DOORBELL', room: 'Front Door' })];
  const t = await createTestApp({
    env: { ...google.env, NEST_PUBSUB_SUBSCRIPTION: google.subscription },
    vision: seesAPerson,
  });
  const who = await signUp(t);
  await linkNest(t, who);

  const get = async <T>(url: string) =>
    (await t.app.inject({ method: 'GET', url, headers: who.auth })).json<{ data: T }>().data;
  return {
    t,
    google,
    who,
    framesSeen: () => framesSeen,
    acked: (messageId) =>
      stateReached(
        async () => google.state.acknowledged,
        (ids) => ids.includes(messageId),
      ),
    activities: () => get<Activity[]>('/api/users/activities?page=1&pageSize=50'),
    alerts: async () =>
      (await get<ChatMessage[]>('/api/users/conversation-history?page=1&pageSize=50')).filter(
        (m) => m.role === 'agent' && m.source_activity_uuid_list.length > 0,
      ),
    async close() {
      await t.close();
      await google.close();
    },
  };
}
