import type { ChatMessage } from '@homesitter/contract';
import { signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { messagePushed, recordCalls } from '../../../test/calls.js';
import { activities, type ActivityObject, type RecognisedMemory } from '../../platform/db/schema.js';
import { answerIdFor } from './assistant.service.js';

/** Shared by the assistant's and the highlights' tests: users with properties and cameras, and their events. */

export interface Camera {
  id: string;
  name: string;
  siteId: string | null;
}

export interface World {
  user: TestUser;
  userId: string;
  /** Property ids by name. */
  sites: Record<string, string>;
  /** Cameras by name. */
  cameras: Record<string, Camera>;
}

const call = (t: TestApp, who: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.auth, ...(payload ? { payload } : {}) });

/**
 * A signed-up user (in `timezone`, default Europe/Berlin) with cameras in properties; the key '' holds cameras
 * without one.
 */
export async function userWithCameras(
  t: TestApp,
  layout: Record<string, string[]>,
  timezone?: string,
): Promise<World> {
  const user = await signUp(t, timezone ? { timezone } : {});
  const userId = (await call(t, user, 'GET', '/api/users/profile')).json<{ data: { user_uuid: string } }>()
    .data.user_uuid;
  const sites: Record<string, string> = {};
  const cameras: Record<string, Camera> = {};
  for (const [siteName, names] of Object.entries(layout)) {
    let siteId: string | null = null;
    if (siteName) {
      const res = await call(t, user, 'POST', '/api/users/sites', { name: siteName });
      siteId = res.json<{ data: { site_uuid: string } }>().data.site_uuid;
      sites[siteName] = siteId;
    }
    for (const name of names) {
      const res = await call(t, user, 'POST', '/api/users/cameras', {
        name,
        ...(siteId ? { site_uuid: siteId } : {}),
      });
      if (res.statusCode !== 201) throw new Error(`camera ${name}: ${res.statusCode} ${res.body}`);
      const [row] = await t.database.query<{ id: string }>(
        'select id from cameras where user_id = $1 and name = $2',
        [userId, name],
      );
      cameras[name] = { id: row!.id, name, siteId };
    }
  }
  return { user, userId, sites, cameras };
}

export const person = (): ActivityObject => ({ kind: 'person', label: 'person', score: 0.9 });
export const car = (color?: string): ActivityObject => ({
  kind: 'vehicle',
  label: 'car',
  score: 0.8,
  ...(color ? { color } : {}),
});
export const dog = (): ActivityObject => ({ kind: 'animal', label: 'dog', score: 0.8 });

/** Inserts an analysed activity as the pipeline would leave it; answers its id. */
export async function insertActivity(
  t: TestApp,
  world: Pick<World, 'userId'>,
  camera: Camera,
  fields: {
    at: Date;
    objects?: ActivityObject[];
    recognised?: RecognisedMemory[];
    description?: string;
    mediaKind?: 'image' | 'video';
    keys?: { thumbnail?: string; video?: string };
    ephemeralUntil?: Date;
  },
): Promise<string> {
  const [row] = await t.database.db
    .insert(activities)
    .values({
      userId: world.userId,
      cameraId: camera.id,
      cameraName: camera.name,
      siteId: camera.siteId,
      occurredAt: fields.at,
      lastFileAt: fields.at,
      mediaKind: fields.mediaKind ?? 'image',
      thumbnailKey: fields.keys?.thumbnail ?? `users/${world.userId}/activities/${camera.id}/thumb.jpg`,
      videoKey: fields.keys?.video ?? null,
      width: 1280,
      height: 720,
      objects: fields.objects ?? [],
      recognised: fields.recognised ?? [],
      description: fields.description ?? null,
      analysedAt: fields.at,
      ephemeralUntil: fields.ephemeralUntil ?? null,
    })
    .returning({ id: activities.id });
  return row!.id;
}

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/**
 * Posts a chat message (a reply to `replyTo`, a message id, when given) and waits for the home sitter's answer
 * to it (as the user's apps would get it).
 */
export async function ask(t: TestApp, who: TestUser, text: string, replyTo?: string): Promise<ChatMessage> {
  // Recorded from before the message is sent: the answer may be pushed before the send's answer is read.
  const published = recordCalls(t.modules.realtime, 'publish');
  try {
    const sent = await call(t, who, 'POST', '/api/users/messages', {
      text,
      ...(replyTo ? { reply_to_message_uuid: replyTo } : {}),
    });
    if (sent.statusCode !== 200 && sent.statusCode !== 201)
      throw new Error(`send: ${sent.statusCode} ${sent.body}`);
    const answerId = answerIdFor(sent.json<{ data: ChatMessage }>().data.message_uuid);
    await messagePushed(published, (m) => m.message_uuid === answerId);
    const page = await call(t, who, 'GET', '/api/users/conversation-history?page=1&pageSize=20');
    const answer = page.json<{ data: ChatMessage[] }>().data.find((m) => m.message_uuid === answerId);
    if (!answer) throw new Error(`the answer to "${text}" was pushed but is not in the history`);
    return answer;
  } finally {
    published.stop();
  }
}
