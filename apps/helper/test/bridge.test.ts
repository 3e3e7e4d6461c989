import { readFileSync, statSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  publishScene,
  startRtspServer,
  type Publication,
  type RtspTestServer,
} from '@homesitter/cameras/testing';
import type { HelperJobs, HelperToServerMessage } from '@homesitter/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHelper } from '../src/helper.js';
import { startFakeServer, type FakeServer } from './support/fake-server.js';
import { postJson, signIn, startTestHelper, tempDir, waitFor } from './support/harness.js';

const login = { username: 'admin', password: 'hunter2-secret' };
type CameraState = Extract<HelperToServerMessage, { type: 'camera-state' }>;

describe('bridging a camera the server cannot reach', () => {
  let fake: FakeServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let helper: RunningHelper | undefined;
  let rtsp: RtspTestServer;
  let publication: Publication;
  let cameraUuid = '';

  const env = () => ({ HOMESITTER_URL: fake.url, HELPER_BRIDGE: 'always' });
  const start = async () =>
    (helper = await startTestHelper(dir.path, env(), { recording: { preEventSeconds: 1, tailSeconds: 1 } }));
  const states = () => fake.helperMessages.filter((m): m is CameraState => m.type === 'camera-state');
  const players = () => rtsp.stats().players['/main'] ?? 0;

  beforeAll(async () => {
    fake = await startFakeServer();
    dir = await tempDir();
    rtsp = await startRtspServer({ auth: login });
    publication = await publishScene(rtsp.url('/main'), 'person-walks-in', { width: 640, height: 360 });
    await rtsp.waitForPublisher('/main');
  });
  afterAll(async () => {
    await helper?.stop();
    await publication?.stop();
    await rtsp?.close();
    await fake?.close();
    await dir?.remove();
  });

  it('registers a helper camera, configures it here and tells the server, keeping the login at home', async () => {
    await start();
    await signIn(helper!, fake);
    const connection = { type: 'rtsp', url: rtsp.url('/main'), ...login };
    const res = await postJson(`${helper!.url}/cameras/configure`, {
      cameras: [{ device_id: '127.0.0.1', name: 'Porch', connection }],
    });
    expect(res.status).toBe(202);

    const job = await waitFor(async () => {
      const { jobs } = (await (await fetch(`${helper!.url}/jobs`)).json()) as HelperJobs;
      return jobs.find((j) => j.status === 'configured' || j.status === 'failed');
    }, 'the job to end');
    expect(job).toMatchObject({ status: 'configured', mode: 'bridge', error_code: null });
    cameraUuid = job.camera_uuid!;
    expect(fake.cameras.get(cameraUuid)!.body).toEqual({ name: 'Porch', connection: { type: 'helper' } });

    const configured = await waitFor(
      () => states().find((s) => s.configuration_status === 'configured'),
      'the configured state over the control socket',
    );
    expect(configured).toMatchObject({
      camera_uuid: cameraUuid,
      configuration_error_code: null,
      details: {
        address: rtsp.url('/main'),
        motion_source: 'frames',
        video: { codec: 'h264', width: 640, height: 360 },
      },
    });
    expect(fake.helperMessages[0]).toMatchObject({ type: 'hello', version: expect.any(String) });
    expect(JSON.stringify(fake.helperMessages)).not.toContain(login.password);

    const file = join(dir.path, 'cameras.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = () => JSON.parse(readFileSync(file, 'utf8')) as { cameras: Record<string, unknown>[] };
    // Recorded only once the server has said the camera is not private.
    await waitFor(() => stored().cameras[0]?.private === false, 'the server’s word on privacy');
    expect(stored().cameras).toEqual([
      expect.objectContaining({ camera_uuid: cameraUuid, name: 'Porch', connection, private: false }),
    ]);
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({ bridged_cameras: 1 });
  }, 120_000);

  it('records it and relays live view on request', async () => {
    await waitFor(() => states().some((s) => s.stream_status === 'streaming'), 'the camera streaming');
    fake.send({ type: 'live-start', camera_uuid: cameraUuid });
    const live = await waitFor(
      () => fake.lives.find((l) => l.cameraUuid === cameraUuid && l.binaries > 2),
      'live fragments at the server',
    );
    expect(JSON.parse(live.texts[0]!)).toMatchObject({
      type: 'init',
      mime_type: expect.stringContaining('video/mp4'),
    });
    fake.send({ type: 'live-stop', camera_uuid: cameraUuid });
    await waitFor(() => live.closed, 'the relay to close');
  }, 60_000);

  it('uploads the motion snapshot and clip to the ingest with the camera upload login', async () => {
    const clip = await waitFor(
      () => fake.ingests.find((i) => i.fileName === 'motion.mp4'),
      'a motion clip',
      150_000,
    );
    expect(clip).toMatchObject({ cameraName: 'Porch', contentType: 'video/mp4', login: fake.uploadLogin });
    expect(clip.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const snapshot = fake.ingests.find((i) => i.fileName === 'motion.jpg');
    expect(snapshot).toMatchObject({ cameraName: 'Porch', contentType: 'image/jpeg' });
    expect(snapshot!.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Nothing waits in the spool once the server has it.
    await waitFor(async () => (await readdir(join(dir.path, 'spool'))).length === 0, 'the spool to empty');
  }, 160_000);

  it('stops recording while the camera is private', async () => {
    expect(players()).toBeGreaterThan(0);
    fake.cameras.get(cameraUuid)!.private = true;
    fake.sendCameraList();
    await waitFor(() => players() === 0, 'the pull to stop');
    await waitFor(
      () => states().at(-1)?.configuration_status === 'configured' && states().at(-1)?.stream_status === null,
      'the stopped state',
    );
  }, 60_000);

  it('resumes its cameras and the upload spool after a restart', async () => {
    await helper!.stop();
    helper = undefined;
    const helperId = fake.helperMessages.find((m) => m.type === 'hello')?.helper_id;
    // Left behind by a helper that crashed while the server was away.
    const left = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.from('left in the spool')]);
    await writeFile(join(dir.path, 'spool', `${Date.now()}-0badcafe--${cameraUuid}.jpg`), left);
    fake.cameras.get(cameraUuid)!.private = false;
    const uploads = fake.ingests.length;

    await start();
    await waitFor(
      () => fake.ingests.slice(uploads).some((i) => i.bytes.equals(left)),
      'the spooled file uploaded',
    );
    await waitFor(() => players() > 0, 'the camera pulled again');
    const hello = fake.helperMessages.filter((m) => m.type === 'hello').at(-1)!;
    expect(hello).toMatchObject({ cameras: [cameraUuid], helper_id: helperId });
  }, 120_000);

  it('connects again when the server drops the link, and says hello again', async () => {
    const hellos = () => fake.helperMessages.filter((m) => m.type === 'hello').length;
    const before = hellos();
    fake.dropControls();
    await waitFor(() => hellos() > before, 'a new hello');
    expect(players()).toBeGreaterThan(0);
  }, 60_000);

  it('forgets a camera deleted on the server', async () => {
    fake.cameras.delete(cameraUuid);
    fake.sendCameraList();
    await waitFor(() => players() === 0, 'the pull to stop');
    // The camera is stopped first and then removed from cameras.json: wait for the file, not the pull.
    const stored = () =>
      (JSON.parse(readFileSync(join(dir.path, 'cameras.json'), 'utf8')) as { cameras: unknown[] }).cameras;
    await waitFor(() => stored().length === 0, 'cameras.json to forget the camera');
    expect(stored()).toEqual([]);
    expect(await (await fetch(`${helper!.url}/status`)).json()).toMatchObject({ bridged_cameras: 0 });
  }, 60_000);
});
