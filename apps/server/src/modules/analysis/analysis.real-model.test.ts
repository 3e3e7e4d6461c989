import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '@homesitter/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { messagePushed, recordCalls } from '../../../test/calls.js';
import { fixturePath } from '../../../test/fixtures.js';
import { multipart } from '../../../test/images.js';
import { createLocalVisionEngine } from '../../adapters/vision/local.vision.js';
import { createLogger } from '../../platform/logger.js';
import { addCamera, addPerson, aiUser, call } from './analysis.test-support.js';

/**
 * One event through the whole pipeline with the real local models (human objects, face-api faces) on the
 * test media: a memory photo of a person, then a 1280×720 camera frame of that person uploaded over
 * HTTP ingest, must come back as an alert naming them.
 */
const SLOW = 180_000;

describe('the pipeline with the real models', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ vision: createLocalVisionEngine({ log: createLogger('silent') }) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, SLOW);
  afterAll(async () => {
    await t?.close();
  });

  it(
    'recognises a person from their memory photo in a camera frame and alerts by name',
    async () => {
      const who = await aiUser(t);
      await addCamera(t, who, 'Front Door', { is_facial_recognition_enabled: true });
      const barack = await addPerson(t, who, 'Barack');
      const photo = multipart(
        'image',
        'b.jpg',
        'image/jpeg',
        readFileSync(fixturePath('person-obama-2.jpg')),
      );
      const added = await t.app.inject({
        method: 'POST',
        url: `/api/users/memories/people/${barack}/images`,
        payload: photo.payload,
        headers: { ...who.auth, ...photo.headers },
      });
      expect(added.statusCode, added.body).toBe(201);
      await t.modules.recognition.idle();

      const frame = await sharp(fixturePath('person-obama-1.jpg'))
        .resize(1280, 720, { fit: 'contain', background: '#202428' })
        .jpeg({ quality: 85 })
        .toBuffer();
      const login = (await call(t, who, 'GET', '/api/users/camera-email-credentials')).json<{
        data: { username: string; password: string };
      }>().data;
      const body = new FormData();
      body.append('camera_name', 'Front Door');
      body.append('file', new Blob([new Uint8Array(frame)]), 'snap.jpg');
      const auth = `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
      // The jobs run in the background: the alert is waited for as the user's apps get it.
      const published = recordCalls(t.modules.realtime, 'publish');
      const uploaded = await fetch(`${base}/api/ingest/events`, {
        method: 'POST',
        body,
        headers: { authorization: auth },
      });
      expect(uploaded.status).toBe(202);

      await messagePushed(published, (m, userId) => userId === who.userId && m.role === 'agent');
      published.stop();
      const res = await call(t, who, 'GET', '/api/users/conversation-history');
      const alert = res.json<{ data: ChatMessage[] }>().data.find((m) => m.role === 'agent');
      expect(alert?.text).toMatch(/^Barack .*Front Door/);
      expect(alert?.videos[0]).toMatchObject({
        camera_name: 'Front Door',
        metaWidth: 1280,
        metaHeight: 720,
      });
    },
    SLOW,
  );
});
