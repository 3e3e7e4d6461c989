/**
 * npm run bench:live — stream cameras on a built server started as `npm start` runs it:
 *
 * 1. Glass-to-glass latency of the live player in Chromium: a camera whose picture carries the wall-clock time
 *    it was made (the `clock` scene: 1280×720, 15 fps, x264 zerolatency, published to an RTSP server on
 *    127.0.0.1), watched on the web app's own camera view; each frame the browser presents is read back from a
 *    canvas and compared with the browser's clock. p50/p95 over BENCH_FRAMES frames.
 * 2. The server's CPU per recorded camera: 8 ONVIF cameras (720p main + 360p sub, a person walking in and out,
 *    H.264 copied by the publishers), motion by frame differencing; the server process and its ffmpeg children
 *    over 30 s, against the same server idle.
 * 3. The cost of viewers: 10 WebSocket viewers of one camera against one, over 20 s each.
 *
 * Targets (issue 16, 2 cores): latency p50 ≤ 1 s; 8 cameras ≤ 1 core in total; 10 viewers ≤ 10 % of a core
 * more than one. Prints the load average too: the machine is shared.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  decodeClock,
  mainAndSub,
  publishScene,
  startOnvifSimulator,
  startRtspServer,
  type OnvifSimulator,
  type Publication,
} from '@homesitter/cameras/testing';
import type { Camera, CameraLive } from '@homesitter/contract';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { chromiumLaunchOptions } from '../../web/scripts/chromium.mjs';
import { serverPath } from '../src/platform/paths.js';
import { postJson, startBenchServer } from './harness.js';
import { CLOCK_TICKS, cpuTicks } from './proc.js';

const FRAMES = Number(process.env.BENCH_FRAMES ?? 300);
const CAMERAS = Number(process.env.BENCH_CAMERAS ?? 8);
const LOGIN = { username: 'bench', password: 'bench-camera-pass' };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs in the page: for each frame the video element presents, draws it on a canvas, reads the time the
 * frame was made from its blocks and keeps the difference to the browser's clock. Plain JavaScript: it is
 * sent to the browser as text.
 */
const SAMPLE_FRAMES = `async (frames, decode) => {
  const video = document.querySelector('video');
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 180;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const found = [];
  await new Promise((resolve) => {
    const onFrame = () => {
      const shownAt = Date.now();
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const sent = decode(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height, shownAt);
      if (sent !== null) found.push(shownAt - sent);
      if (found.length >= frames) resolve();
      else video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  });
  return found;
}`;

/** The web app is served by the server from apps/web/dist: built here when missing. */
const webDist = serverPath('..', 'web', 'dist');
if (!existsSync(join(webDist, 'index.html'))) {
  const built = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: serverPath('..', '..'),
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('web build failed');
}

type Part = 'server' | 'ffmpeg' | 'vision';

/** CPU ticks of the server and every process below it, by part: the server, its ffmpeg pulls and decoders,
 * and its vision processes (the analysis of what motion recorded). */
function treeTicks(root: number): Record<Part, number> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const total: Record<Part, number> = { server: 0, ffmpeg: 0, vision: 0 };
  const partOf = (pid: number): Part => {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('ffmpeg')) return 'ffmpeg';
      if (cmdline.includes('vision.worker')) return 'vision';
    } catch {
      // gone meanwhile
    }
    return 'server';
  };
  const visit = (pid: number) => {
    total[pid === root ? 'server' : partOf(pid)] += cpuTicks(pid) ?? 0;
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return total;
}

/** Share of one core each part of the server's process tree used over `seconds`. */
async function coreShare(pid: number, seconds: number): Promise<Record<Part, number> & { all: number }> {
  const before = treeTicks(pid);
  await sleep(seconds * 1000);
  const after = treeTicks(pid);
  const share = (part: Part) => (after[part] - before[part]) / CLOCK_TICKS / seconds;
  const parts = { server: share('server'), ffmpeg: share('ffmpeg'), vision: share('vision') };
  return { ...parts, all: parts.server + parts.ffmpeg + parts.vision };
}

const email = `bench-live-${Date.now()}@example.com`;
const password = 'bench password';
const rtsp = await startRtspServer({ auth: { ...LOGIN, scheme: 'digest' } });
const publications: Publication[] = [];
const devices: OnvifSimulator[] = [];
const server = await startBenchServer({ VERIFICATION_EXEMPT_EMAILS: email, WEB_DIST_DIR: webDist });
const { base, pid } = server;

try {
  const session = await postJson<{ idToken: string }>(`${base}/api/auth/sign-up`, { email, password });
  const auth = { authorization: `Bearer ${session.idToken}` };
  await postJson(`${base}/api/users`, { timezone: 'Europe/Berlin' }, auth);
  const api = async <T>(path: string) => {
    const res = await fetch(`${base}${path}`, { headers: auth });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  const untilStreaming = async (names: string[]) => {
    for (;;) {
      const cameras = await api<Camera[]>('/api/users/cameras');
      const failed = cameras.find((c) => names.includes(c.name) && c.configuration_status === 'failed');
      if (failed) throw new Error(`${failed.name}: ${failed.configuration_error}`);
      if (names.every((n) => cameras.find((c) => c.name === n)?.stream_status === 'streaming')) return;
      await sleep(250);
    }
  };

  const idle = await coreShare(pid, 10);

  // 1. Latency in the browser.
  publications.push(await publishScene(rtsp.url('/clock'), 'clock', { width: 1280, height: 720, fps: 15 }));
  await rtsp.waitForPublisher('/clock');
  await postJson(
    `${base}/api/users/cameras`,
    { name: 'Clock', connection: { type: 'rtsp', url: rtsp.url('/clock'), ...LOGIN } },
    auth,
  );
  await untilStreaming(['Clock']);

  const browser = await chromium.launch(await chromiumLaunchOptions());
  // The sampler below is sent as text: the app's CSP (no eval) is set aside for this measuring page only.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await page.goto(`${base}/auth`);
  await page.getByTestId('auth-toggle').click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/highlights');
  await page.goto(`${base}/cameras/Clock/view`);
  await page.waitForFunction(`(() => {
    const video = document.querySelector('video');
    return video !== null && video.readyState >= 2 && !video.paused;
  })()`);
  const latencies = await page.evaluate<number[]>(`(${SAMPLE_FRAMES})(${FRAMES}, ${decodeClock.toString()})`);
  await browser.close();
  const sorted = [...latencies].sort((a, b) => a - b);

  // 2. CPU per recorded camera.
  const names: string[] = [];
  for (let i = 1; i <= CAMERAS; i++) {
    const path = `/cam${i}`;
    publications.push(await mainAndSub(`rtsp://127.0.0.1:${rtsp.port}${path}`, 'person-walks-in'));
    await Promise.all([rtsp.waitForPublisher(`${path}/main`), rtsp.waitForPublisher(`${path}/sub`)]);
    const device = await startOnvifSimulator({
      ...LOGIN,
      rtspBase: `rtsp://127.0.0.1:${rtsp.port}${path}`,
      motionEvents: false,
    });
    devices.push(device);
    const name = `Camera ${i}`;
    names.push(name);
    await postJson(
      `${base}/api/users/cameras`,
      { name, connection: { type: 'onvif', host: '127.0.0.1', port: device.port, ...LOGIN } },
      auth,
    );
  }
  // The clock camera leaves (its pull stops): exactly the 8 cameras are measured.
  await postJson(
    `${base}/api/users/update-camera`,
    { name: 'Clock', removed_date_time_utc: new Date().toISOString() },
    auth,
  );
  await untilStreaming(names);
  await sleep(5_000);
  const recording = await coreShare(pid, 30);

  // 3. Viewers of one camera.
  const live = await api<CameraLive>(`/api/users/cameras/${encodeURIComponent(names[0]!)}/live`);
  const viewers: WebSocket[] = [];
  const open = async (count: number) => {
    while (viewers.length < count) {
      const socket = new WebSocket(`${base.replace('http', 'ws')}${live.mse_url}`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      viewers.push(socket);
    }
  };
  await open(1);
  const oneViewer = await coreShare(pid, 20);
  await open(10);
  const tenViewers = await coreShare(pid, 20);
  for (const socket of viewers) socket.close();

  const pct = (share: number) => `${(share * 100).toFixed(1)} % of a core`;
  const recorded = recording.server + recording.ffmpeg - idle.all;
  console.log(`\nbench:live (${CAMERAS} cameras, ${latencies.length} frames)`);
  console.log(
    `glass-to-glass latency   p50 ${Math.round(percentile(sorted, 50))} ms   p95 ${Math.round(percentile(sorted, 95))} ms   (target p50 ≤ 1000 ms)`,
  );
  const noVision = (share: { server: number; ffmpeg: number }) => share.server + share.ffmpeg;
  console.log(`server idle              ${pct(idle.all)}`);
  console.log(
    `recording ${CAMERAS} cameras       ${pct(recorded)} above idle, ${pct(recorded / CAMERAS)} each (server ${pct(recording.server)}, ffmpeg ${pct(recording.ffmpeg)}; target ≤ 1 core for 8)`,
  );
  console.log(
    `  + analysing their motion ${pct(recording.vision)} (vision processes; a person walks in every 20 s on each)`,
  );
  console.log(
    `1 viewer / 10 viewers    ${pct(noVision(oneViewer))} / ${pct(noVision(tenViewers))}: ${pct(noVision(tenViewers) - noVision(oneViewer))} more (target ≤ +10 %)`,
  );
  console.log(
    `load average             ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await server.stop();
  await Promise.all(publications.map((p) => p.stop()));
  await Promise.all(devices.map((d) => d.close()));
  await rtsp.close();
}
