import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMotionDetector, motionThresholds, type MotionUpdate } from './motion.js';
import { fixture, grayFrames, stillStream, tempDir } from './test-media.js';

const W = 320;
const H = 180;

/** A deterministic pseudo-random source, so a failing case fails the same way again. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** A textured scene: gradients and stripes, like walls, a floor and a fence. */
function scene(): Uint8Array {
  const frame = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) frame[y * W + x] = 60 + ((x + y) % 90) + (Math.floor(x / 16) % 2) * 30;
  }
  return frame;
}

/** The scene with sensor noise (± `noise` grey levels) and optionally a bright square at (sx, sy). */
function frameOf(
  base: Uint8Array,
  rnd: () => number,
  noise = 6,
  square?: { x: number; y: number; size: number },
) {
  const frame = new Uint8Array(base.length);
  for (let i = 0; i < base.length; i++) {
    const value = base[i]! + Math.round((rnd() * 2 - 1) * noise);
    frame[i] = Math.max(0, Math.min(255, value));
  }
  if (square) {
    for (let y = square.y; y < square.y + square.size; y++) {
      for (let x = square.x; x < square.x + square.size; x++) frame[y * W + x] = 250;
    }
  }
  return frame;
}

function run(frames: Uint8Array[], sensitivity = 5, quietMs = 3000): (MotionUpdate & { index: number })[] {
  const detector = createMotionDetector({ width: W, height: H, sensitivity, quietMs });
  const updates: (MotionUpdate & { index: number })[] = [];
  frames.forEach((frame, index) => {
    const update = detector.push(frame, index * 200);
    if (update) updates.push({ ...update, index });
  });
  return updates;
}

describe('motion thresholds', () => {
  it('ask for less change the more sensitive the setting', () => {
    for (let s = 2; s <= 10; s++) {
      expect(motionThresholds(s).pixel).toBeLessThan(motionThresholds(s - 1).pixel);
      expect(motionThresholds(s).area).toBeLessThan(motionThresholds(s - 1).area);
    }
    expect(motionThresholds(0)).toEqual(motionThresholds(1));
    expect(motionThresholds(42)).toEqual(motionThresholds(10));
  });
});

describe('motion on synthetic frames', () => {
  const base = scene();

  it('sees no motion in sensor noise, at any sensitivity', () => {
    const rnd = random(1);
    const frames = Array.from({ length: 150 }, () => frameOf(base, rnd, 8));
    expect(run(frames, 10)).toEqual([]);
    expect(run(frames, 5)).toEqual([]);
  });

  it('sees no motion in compression flicker: whole 8×8 blocks shifting a little', () => {
    const rnd = random(2);
    const frames = Array.from({ length: 100 }, () => {
      const frame = frameOf(base, rnd, 3);
      for (let b = 0; b < 60; b++) {
        const bx = Math.floor(rnd() * (W / 8)) * 8;
        const by = Math.floor(rnd() * (H / 8)) * 8;
        const delta = rnd() < 0.5 ? -10 : 10;
        for (let y = by; y < by + 8; y++) for (let x = bx; x < bx + 8; x++) frame[y * W + x]! += delta;
      }
      return frame;
    });
    expect(run(frames, 8)).toEqual([]);
  });

  it('starts after two frames of a moving object and ends after the quiet period', () => {
    const rnd = random(3);
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 10; i++) frames.push(frameOf(base, rnd));
    for (let i = 0; i < 20; i++) frames.push(frameOf(base, rnd, 6, { x: 20 + i * 10, y: 60, size: 40 }));
    for (let i = 0; i < 40; i++) frames.push(frameOf(base, rnd));
    const updates = run(frames);
    expect(updates.map((u) => u.type)).toEqual(['start', 'end']);
    expect(updates[0]).toMatchObject({ type: 'start', index: 11, at: 10 * 200 });
    const end = updates[1]!;
    expect(end.type === 'end' && end.at - end.lastMotionAt).toBeGreaterThanOrEqual(3000);
  });

  it('does not start on a single odd frame', () => {
    const rnd = random(4);
    const frames = Array.from({ length: 30 }, (_, i) =>
      frameOf(base, rnd, 6, i === 15 ? { x: 100, y: 60, size: 50 } : undefined),
    );
    expect(run(frames)).toEqual([]);
  });

  it('treats lights switching on (the whole frame brighter) as no motion', () => {
    const rnd = random(5);
    const bright = base.map((v) => Math.min(255, v + 60));
    const frames = [
      ...Array.from({ length: 10 }, () => frameOf(base, rnd)),
      ...Array.from({ length: 20 }, () => frameOf(bright, rnd)),
    ];
    expect(run(frames, 10)).toEqual([]);
  });

  it('treats an uneven change of most of the frame (IR switching) as a scene change, then detects motion again', () => {
    const rnd = random(6);
    const night = base.map((v, i) => Math.min(255, Math.round(255 - v * 0.8 + ((i % W) / W) * 40)));
    const detector = createMotionDetector({ width: W, height: H, sensitivity: 7 });
    const updates: MotionUpdate[] = [];
    let t = 0;
    const push = (frame: Uint8Array) => {
      const update = detector.push(frame, (t += 200));
      if (update) updates.push(update);
    };
    for (let i = 0; i < 10; i++) push(frameOf(base, rnd));
    push(frameOf(night, rnd));
    expect(detector.last().sceneChange).toBe(true);
    for (let i = 0; i < 20; i++) push(frameOf(night, rnd));
    expect(updates).toEqual([]);
    for (let i = 0; i < 10; i++) push(frameOf(night, rnd, 6, { x: 20 + i * 10, y: 60, size: 40 }));
    expect(updates.map((u) => u.type)).toEqual(['start']);
  });

  it('finds a small object only when sensitive', () => {
    const rnd = random(7);
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 10; i++) frames.push(frameOf(base, rnd));
    for (let i = 0; i < 15; i++) frames.push(frameOf(base, rnd, 6, { x: 40 + i * 12, y: 80, size: 16 }));
    expect(run(frames, 10).map((u) => u.type)).toEqual(['start']);
    expect(run(frames, 1)).toEqual([]);
  });

  it('refuses a frame of the wrong size', () => {
    const detector = createMotionDetector({ width: W, height: H, sensitivity: 5 });
    expect(() => detector.push(new Uint8Array(10), 0)).toThrow(/320×180/);
  });
});

describe('motion on frames decoded from the fixtures', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
  });
  afterAll(() => dir.remove());

  it('never fires on a still stream (H.264 keyframes every second), even at the highest sensitivity', async () => {
    const still = await stillStream(fixture('empty-driveway.jpg'), 12, `${dir.path}/driveway.mp4`);
    const frames = await grayFrames(still);
    expect(frames.length).toBeGreaterThan(50);
    expect(run(frames, 10)).toEqual([]);
  });

  it('fires when the woman walks into the empty room in clip-person, not before', async () => {
    const frames = await grayFrames(fixture('clip-person.mp4'));
    const updates = run(frames, 5);
    expect(updates[0]?.type).toBe('start');
    // The room is empty for the first five seconds (5 fps).
    expect(updates[0]!.index).toBeGreaterThanOrEqual(25);
  });

  it('fires when the car drives through clip-car and ends once it has left', async () => {
    const frames = await grayFrames(fixture('clip-car.mp4'));
    // Two seconds of the empty lot after the clip, so the quiet period can pass.
    const empty = frames[0]!;
    const updates = run([...frames, ...Array.from({ length: 25 }, () => empty)], 5);
    expect(updates.map((u) => u.type)).toEqual(['start', 'end']);
  });
});
