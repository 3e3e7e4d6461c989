import { CameraConfigurationError } from '@homesitter/cameras';
import type { HelperJob, HelperJobs } from '@homesitter/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CameraAccess } from '../src/cameras/index.js';
import type { RunningHelper } from '../src/helper.js';
import { startFakeServer, type FakeServer } from './support/fake-server.js';
import { postJson, signIn, startTestHelper, tempDir, waitFor } from './support/harness.js';

const porch = {
  device_id: '192.168.1.20',
  name: 'Porch',
  connection: {
    type: 'rtsp',
    url: 'rtsp://192.168.1.20:554/stream1',
    username: 'admin',
    password: 'hunter2',
  },
};

/** Reaching cameras, as the test wants it to go. */
function fakeCameras(outcome: () => never): CameraAccess & { calls: number } {
  const access = {
    calls: 0,
    configure: async () => {
      access.calls += 1;
      return outcome();
    },
  };
  return access;
}

describe('configuring cameras', () => {
  let fake: FakeServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let helper: RunningHelper | undefined;

  beforeEach(async () => {
    fake = await startFakeServer();
    dir = await tempDir();
  });
  afterEach(async () => {
    await helper?.stop();
    helper = undefined;
    await fake.close();
    await dir.remove();
  });

  const jobs = async () => ((await (await fetch(`${helper!.url}/jobs`)).json()) as HelperJobs).jobs;
  const jobWhen = (test: (job: HelperJob) => boolean, what: string) =>
    waitFor(async () => (await jobs()).find(test), what);

  it('lets a server at home pull the camera itself, and mirrors how its configuration goes', async () => {
    const cameras = fakeCameras(() => {
      throw new Error('the helper must not configure a camera the server pulls');
    });
    // The fake server is on 127.0.0.1: `auto` sees a server at home.
    helper = await startTestHelper(dir.path, { HOMESITTER_URL: fake.url }, { cameras, pollIntervalMs: 10 });
    await signIn(helper, fake);

    const res = await postJson(`${helper.url}/cameras/configure`, { cameras: [porch] });
    expect(res.status).toBe(202);
    const [created] = ((await res.json()) as HelperJobs).jobs;
    expect(created).toMatchObject({ device_id: '192.168.1.20', camera_name: 'Porch', status: 'pending' });

    const done = await jobWhen((j) => j.status === 'configured', 'the job to end');
    expect(done).toMatchObject({ id: created!.id, mode: 'server', error_code: null });
    const [registered] = [...fake.cameras.values()];
    expect(done.camera_uuid).toBe(registered!.camera.camera_uuid);
    // The server got the camera's real connection, login included: it connects to it itself.
    expect(registered!.body).toEqual({ name: 'Porch', connection: porch.connection });
    expect(cameras.calls).toBe(0);
  });

  it('reports a failure of the server pulling, and retries with a corrected login', async () => {
    fake.serverConfigures.result = 'failed';
    helper = await startTestHelper(dir.path, { HOMESITTER_URL: fake.url }, { pollIntervalMs: 10 });
    await signIn(helper, fake);
    await postJson(`${helper.url}/cameras/configure`, { cameras: [porch] });
    const failed = await jobWhen((j) => j.status === 'failed', 'the failure');
    expect(failed).toMatchObject({ mode: 'server', error_code: 'wrong_credentials' });

    const busy = await postJson(`${helper.url}/jobs/nope/retry`, {});
    expect(busy.status).toBe(404);
    const retry = await postJson(`${helper.url}/jobs/${failed.id}/retry`, {
      connection: { ...porch.connection, password: 'correct' },
    });
    expect(retry.status).toBe(202);
    expect(((await retry.json()) as HelperJobs).jobs[0]).toMatchObject({ id: failed.id, status: 'pending' });
    // The fake server has no update-camera route: the retry's call to it fails as a server error.
    const again = await jobWhen((j) => j.status === 'failed' && j.error_code === 'server_error', 'the retry');
    expect(again.id).toBe(failed.id);
  });

  it('bridges a camera the server may not reach, and tells the server why it failed', async () => {
    fake.serverConfigures.refuseNetwork = true;
    const cameras = fakeCameras(() => {
      throw new CameraConfigurationError('unreachable', 'connect ECONNREFUSED');
    });
    helper = await startTestHelper(dir.path, { HOMESITTER_URL: fake.url }, { cameras });
    await signIn(helper, fake);
    await postJson(`${helper.url}/cameras/configure`, { cameras: [porch] });

    const failed = await jobWhen((j) => j.status === 'failed', 'the failure');
    expect(failed).toMatchObject({
      mode: 'bridge',
      error_code: 'unreachable',
      message:
        'The camera could not be reached at this address. Check the address and that it is switched on.',
    });
    const [registered] = [...fake.cameras.values()];
    expect(registered!.body).toEqual({ name: 'Porch', connection: { type: 'helper' } });
    const state = await waitFor(
      () => fake.helperMessages.find((m) => m.type === 'camera-state' && m.configuration_status === 'failed'),
      'the failed state over the control socket',
    );
    expect(state).toMatchObject({
      camera_uuid: registered!.camera.camera_uuid,
      configuration_error_code: 'unreachable',
    });
  });

  it('fails a camera whose name is taken, with the server message', async () => {
    const cameras = fakeCameras(() => {
      throw new CameraConfigurationError('timed_out', 'no answer');
    });
    helper = await startTestHelper(
      dir.path,
      { HOMESITTER_URL: fake.url, HELPER_BRIDGE: 'always' },
      { cameras },
    );
    await signIn(helper, fake);
    await postJson(`${helper.url}/cameras/configure`, {
      cameras: [porch, { ...porch, device_id: '192.168.1.21' }],
    });
    const taken = await jobWhen(
      (j) => j.device_id === '192.168.1.21' && j.status === 'failed',
      'the refusal',
    );
    expect(taken).toMatchObject({
      error_code: 'name_taken',
      message: 'A camera named Porch already exists',
      camera_uuid: null,
    });
  });
});
