import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  createTestApp,
  TEST_MEDIA_SECRET,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '../../../test/app.js';
import { createFsStorage } from '../../adapters/storage/fs.storage.js';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import { activities, cameras, ingestCounters, uploads, users } from '../../platform/db/schema.js';
import type { AppEvents } from '../../platform/events.js';
import { createMediaSigner } from '../media/media.signer.js';

export interface ActivitiesTestApp {
  t: TestApp;
  /** The same files the server stores (its DATA_DIR/media), to plant uploads and check what is left. */
  storage: ObjectStorage;
  events: { created: AppEvents['activity.created'][]; camerasChanged: AppEvents['cameras.changed'][] };
}

/** A server on a fresh database with its jobs running; `env` adds settings (BILLING_ENABLED…). */
export async function startActivitiesApp(
  env: Record<string, string> = {},
  options: Omit<TestAppOptions, 'env'> = {},
): Promise<ActivitiesTestApp> {
  const t = await createTestApp({ ...options, env });
  const signer = createMediaSigner(TEST_MEDIA_SECRET, t.deps.config.PUBLIC_URL);
  const storage = createFsStorage({ root: join(t.deps.config.DATA_DIR, 'media'), signUrl: signer.url });
  const events: ActivitiesTestApp['events'] = { created: [], camerasChanged: [] };
  t.deps.events.on('activity.created', (e) => void events.created.push(e));
  t.deps.events.on('cameras.changed', (e) => void events.camerasChanged.push(e));
  return { t, storage, events };
}

/** The profile id behind a signed-up test user. */
export async function userIdOf(t: TestApp, who: TestUser): Promise<string> {
  const [row] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.authSubject, who.uid));
  if (!row) throw new Error(`no profile for ${who.email}`);
  return row.id;
}

export interface PlantedUpload {
  id: string;
  storageKey: string;
}

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'video/mp4': 'mp4' };

/**
 * What the ingest does for one received file: its bytes on storage under `users/<id>/uploads/`, then its
 * pending row. The processing is then run by the caller (or by the job the test sends).
 */
export async function plantUpload(
  a: ActivitiesTestApp,
  userId: string,
  file: { camera: string; bytes: Buffer; contentType: string; at: Date },
): Promise<PlantedUpload> {
  const id = randomUUID();
  const storageKey = `users/${userId}/uploads/${id}.${EXT[file.contentType] ?? 'bin'}`;
  await a.storage.put(storageKey, file.bytes, file.contentType);
  await a.t.database.db.insert(uploads).values({
    id,
    userId,
    cameraName: file.camera,
    source: 'http',
    storageKey,
    originalName: `${file.camera}.${EXT[file.contentType] ?? 'bin'}`,
    mediaKind: file.contentType.startsWith('video/') ? 'video' : 'image',
    contentType: file.contentType,
    sizeBytes: file.bytes.length,
    receivedAt: file.at,
  });
  return { id, storageKey };
}

export async function uploadRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

export async function activitiesOf(t: TestApp, userId: string) {
  return t.database.db
    .select()
    .from(activities)
    .where(eq(activities.userId, userId))
    .orderBy(activities.occurredAt);
}

export async function camerasOf(t: TestApp, userId: string) {
  return t.database.db.select().from(cameras).where(eq(cameras.userId, userId)).orderBy(cameras.name);
}

export async function countersOf(t: TestApp, userId: string) {
  return t.database.db.select().from(ingestCounters).where(eq(ingestCounters.userId, userId));
}

/** Jobs of a queue whose payload names this activity (pg-boss keeps them in its own schema). */
export async function analyseJobsFor(t: TestApp, activityId: string): Promise<number> {
  const rows = await t.database.query<{ n: number }>(
    `select count(*)::int as n from pgboss.job where name = 'analysis.analyse' and data->>'activityId' = $1`,
    [activityId],
  );
  return rows[0]?.n ?? 0;
}

export async function setUser(t: TestApp, userId: string, values: Partial<typeof users.$inferInsert>) {
  await t.database.db.update(users).set(values).where(eq(users.id, userId));
}

/** Path and query of a signed URL, for `app.inject`. */
export const pathOf = (url: string | null | undefined) => {
  if (!url) throw new Error('expected a URL, got none');
  const u = new URL(url);
  return u.pathname + u.search;
};

/** GETs a signed media URL from the server; it must answer 200. */
export async function fetchMedia(t: TestApp, url: string | null | undefined) {
  const res = await t.app.inject({ method: 'GET', url: pathOf(url) });
  expect(res.statusCode, `${url ?? ''}: ${res.body.slice(0, 200)}`).toBe(200);
  return res;
}
