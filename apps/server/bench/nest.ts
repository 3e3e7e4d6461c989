/**
 * npm run bench:nest — Nest events to alerts on a built server started as `npm start` runs it (embedded
 * PGlite, local vision models) against the fake Google of the tests (test/fake-google.ts, the documented
 * SDM, OAuth and Pub/Sub shapes on 127.0.0.1): a linked account with BENCH_NEST_CAMERAS Nest cameras, each
 * sends one Person event whose GenerateImage picture is a 1280×720 frame with a person; the time from the
 * message being pulled to the agent's alert arriving at a SignalR client is measured (each camera once, so the
 * 60 s coalescing swallows no alert). Prints p50/p95 and the load average (the machine may be shared).
 *
 * Then the live first frame of a Nest RTSP camera: the fake's GenerateRtspStream points at an RTSP server of
 * the tests (@homesitter/cameras/testing) fed a 1280×720 15 fps scene; each round times GET /live to the first
 * media fragment (moof) at an MSE socket opened right after it, then leaves and waits until the server has
 * stopped the stream (StopRtspStream, after the grace), so every round generates and pulls anew.
 */
import { loadavg } from 'node:os';
import { publishScene, startRtspServer } from '@homesitter/cameras/testing';
import type { CameraLive, ChatMessage } from '@homesitter/contract';
import sharp from 'sharp';
import WebSocket from 'ws';
import { sdmDevice, sdmEvent, startFakeGoogle } from '../test/fake-google.js';
import { fixturePath } from '../test/fixtures.js';
import { alertListener, postJson, startBenchServer } from './harness.js';

const CAMERAS = Number(process.env.BENCH_NEST_CAMERAS ?? 30);
const LIVE_ROUNDS = Number(process.env.BENCH_NEST_LIVE_ROUNDS ?? 6);
const P = 'bench-project';
const PERSON = 'sdm.devices.events.CameraPerson.Person';
/** Longest wait for one alert before the run counts it as lost. */
const ALERT_TIMEOUT_MS = 60_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (n: number) => `${Math.round(n)} ms`;

const rtsp = await startRtspServer();
const scene = await publishScene(rtsp.url('/nest'), 'clock', { width: 1280, height: 720, fps: 15 });
await rtsp.waitForPublisher('/nest');
const google = await startFakeGoogle(P);
google.state.rtspUrl = () => rtsp.url('/nest');
google.state.image = await sharp(fixturePath('person-obama-1.jpg'))
  .resize(1280, 720, { fit: 'contain', background: '#202428' })
  .jpeg({ quality: 85 })
  .toBuffer();
const names = ['Warm-up', ...Array.from({ length: CAMERAS }, (_, i) => `Nest ${i + 1}`)];
google.state.devices = names.map((name, i) => sdmDevice(P, `d${i}`, { customName: name }));

const email = `bench-nest-${Date.now()}@example.com`;
const server = await startBenchServer({
  ...google.env,
  NEST_PUBSUB_SUBSCRIPTION: google.subscription,
  VERIFICATION_EXEMPT_EMAILS: email,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
});
try {
  const session = await postJson<{ idToken: string }>(`${server.base}/api/auth/sign-up`, {
    email,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${server.base}/api/users`, { timezone: 'Europe/Berlin' }, auth);

  // The consent round trip as a browser makes it: the app's link, Google's page, back to the callback.
  const link = await postJson<{ data: { url: string } }>(`${server.base}/api/nest/link`, {}, auth);
  const consent = await fetch(link.data.url, { redirect: 'manual' });
  const callback = await fetch(consent.headers.get('location')!, { redirect: 'manual' });
  const outcome = new URL(callback.headers.get('location') ?? '', server.base).searchParams.get('nest');
  if (outcome !== 'linked') throw new Error(`nest link: ${callback.status} ${outcome}`);
  // The devices become cameras in the background: an event of a camera not made yet would be dropped.
  for (;;) {
    const list = (await (await fetch(`${server.base}/api/users/cameras`, { headers: auth })).json()) as {
      data: unknown[];
    };
    if (list.data.length >= names.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const { hub, waiting } = alertListener(server.base, session.idToken);
  await hub.start();

  /** One Person event of the camera's device; answers ms from its pull to the alert, and the alert. */
  async function alertAfterEvent(index: number) {
    const camera = names[index]!;
    const alert = new Promise<{ at: number; message: ChatMessage }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no alert for ${camera}`)), ALERT_TIMEOUT_MS);
      waiting.set(camera, (at, message) => {
        clearTimeout(timer);
        resolve({ at, message });
      });
    });
    const id = google.publish(
      sdmEvent(P, `d${index}`, PERSON, { sessionId: `s${index}`, eventId: `e${index}` }),
    );
    const { at, message } = await alert;
    waiting.delete(camera);
    return { latency: at - google.state.pulledAt.get(id)!, message };
  }

  // The first event loads the models (and waits out a pull that found no linked account yet): not counted.
  const warm = await alertAfterEvent(0);
  console.log(`warm-up alert (models loading) ${ms(warm.latency)}: ${warm.message.text}`);
  const latencies: number[] = [];
  for (let i = 1; i <= CAMERAS; i++) latencies.push((await alertAfterEvent(i)).latency);
  const sorted = latencies.sort((a, b) => a - b);
  console.log(
    `bench:nest — Pub/Sub Person message pulled → GenerateImage picture → agent alert at a SignalR client, ${CAMERAS} cameras`,
  );
  console.log(
    [
      `alerts ${sorted.length}/${CAMERAS}`,
      `p50 ${ms(percentile(sorted, 50))}`,
      `p95 ${ms(percentile(sorted, 95))}`,
      `max ${ms(sorted[sorted.length - 1] ?? NaN)}`,
    ].join('   '),
  );
  console.log(
    `server peak RSS ${server.peakRssMb()} MB, vision process peak RSS ${server.visionPeakRssMb()} MB`,
  );
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  await hub.stop();

  /** GET /live of a Nest camera to the first fragment at an MSE socket opened right after; ms. */
  async function liveFirstFrame(camera: string): Promise<number> {
    const started = performance.now();
    const res = await fetch(`${server.base}/api/users/cameras/${encodeURIComponent(camera)}/live`, {
      headers: auth,
    });
    const live = ((await res.json()) as { data: CameraLive }).data;
    if (!live.mse_url) throw new Error(`no live stream for ${camera}: ${live.notice ?? live.stream_status}`);
    const socket = new WebSocket(`${server.base.replace('http', 'ws')}${live.mse_url}`);
    const at = await new Promise<number>((resolve, reject) => {
      socket.on('message', (data, isBinary) => {
        if (isBinary && (data as Buffer).subarray(4, 8).toString() === 'moof') resolve(performance.now());
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error(`${camera}: live socket closed before a frame`)));
    });
    socket.removeAllListeners('close');
    socket.close();
    return at - started;
  }

  const firstFrames: number[] = [];
  for (let round = 0; round < LIVE_ROUNDS; round++) {
    const stopped = google.state.rtspStopped;
    firstFrames.push(await liveFirstFrame(names[1]!));
    // The session ends after its grace without viewers: the next round starts from nothing again.
    while (google.state.rtspStopped === stopped) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const frames = [...firstFrames].sort((a, b) => a - b);
  console.log(
    `bench:nest — live first frame of a Nest RTSP camera (GET /live → GenerateRtspStream → ffmpeg pull → first fragment at an MSE socket, 1280×720 15 fps), ${LIVE_ROUNDS} rounds`,
  );
  console.log(
    [
      `p50 ${ms(percentile(frames, 50))}`,
      `p95 ${ms(percentile(frames, 95))}`,
      `min ${ms(frames[0] ?? NaN)}`,
      `max ${ms(frames[frames.length - 1] ?? NaN)}`,
    ].join('   '),
  );
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server.stop();
  await google.close();
  await scene.stop();
  await rtsp.close();
}
