/**
 * Motion from frame differencing on small grayscale frames. Each frame is compared with a slowly adapting
 * background; a pixel counts as changed past a noise threshold, an 8×8 cell counts as changed when a quarter
 * of its pixels did (single noisy pixels and compression speckle never fill a cell), and the frame has
 * motion when enough cells changed. A change over most of the frame is a scene change (lights, the IR
 * filter switching, the camera moving): the background is learnt again and no motion is reported.
 */

export interface MotionOptions {
  width: number;
  height: number;
  /** 1–10, 10 the most sensitive. */
  sensitivity: number;
  /** Consecutive motion frames before `start` (default 2). */
  confirmFrames?: number;
  /** No motion for this long (frame time, ms) before `end` (default 3 s). */
  quietMs?: number;
}

export type MotionUpdate =
  /** `at`: the time of the first frame of the confirmed streak. */
  | { type: 'start'; at: number }
  /** `lastMotionAt`: the last frame that still had motion. */
  | { type: 'end'; at: number; lastMotionAt: number };

export interface FrameAnalysis {
  /** Share of cells that changed, 0–1. */
  changedArea: number;
  sceneChange: boolean;
  motion: boolean;
}

export interface MotionDetector {
  /** Feeds one frame (width × height gray bytes) taken at `at` ms; answers a start or end when one happens. */
  push(frame: Uint8Array, at: number): MotionUpdate | undefined;
  setSensitivity(sensitivity: number): void;
  /** Forgets the background and any motion in progress (a new stream). */
  reset(): void;
  moving(): boolean;
  /** What the last frame looked like to the detector (tests, tuning). */
  last(): FrameAnalysis;
}

const CELL = 8;
/** A cell changed when this share of its pixels did. */
const CELL_FILL = 0.25;
/** More than this share of cells changed at once is a scene change, not motion. */
const SCENE_CHANGE_AREA = 0.6;
/** Frames after a scene change that only re-learn (auto exposure settles over a second or so). */
const SETTLE_FRAMES = 5;
/** Background adaptation per frame, at ~5 fps: a still pixel follows within seconds… */
const LEARN_STILL = 0.1;
/** …a changed one slower, so something that stops moving (a parked car) joins the background in ~5 s. */
const LEARN_CHANGED = 0.05;

export interface MotionThresholds {
  /** Grey levels a pixel must differ by from the background. */
  pixel: number;
  /** Share of cells (0–1) that must change. */
  area: number;
}

/** Sensitivity 1 asks for a large, strong change; 10 for a small, faint one. */
export function motionThresholds(sensitivity: number): MotionThresholds {
  const s = Math.min(10, Math.max(1, Math.round(sensitivity)));
  const t = (s - 1) / 9;
  return { pixel: Math.round(40 - 26 * t), area: 0.06 * Math.pow(0.004 / 0.06, t) };
}

export function createMotionDetector(options: MotionOptions): MotionDetector {
  const { width, height } = options;
  const pixels = width * height;
  const confirmFrames = options.confirmFrames ?? 2;
  const quietMs = options.quietMs ?? 3000;
  const cols = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  const cellCount = Math.max(1, cols * rows);
  const cellMin = CELL * CELL * CELL_FILL;

  const background = new Float32Array(pixels);
  const cells = new Uint16Array(cellCount);
  const histogram = new Uint32Array(511);
  let thresholds = motionThresholds(options.sensitivity);
  let learnt = false;
  let settle = 0;
  let streak = 0;
  let streakStart = 0;
  let moving = false;
  let lastMotionAt = 0;
  // One object, rewritten per frame: the detector allocates nothing while it runs.
  const analysis: FrameAnalysis = { changedArea: 0, sceneChange: false, motion: false };

  function result(changedArea: number, sceneChange: boolean, motion: boolean): FrameAnalysis {
    analysis.changedArea = changedArea;
    analysis.sceneChange = sceneChange;
    analysis.motion = motion;
    return analysis;
  }

  function relearn(frame: Uint8Array): void {
    background.set(frame);
    learnt = true;
  }

  function analyse(frame: Uint8Array): FrameAnalysis {
    if (!learnt || settle > 0) {
      if (settle > 0) settle--;
      relearn(frame);
      return result(0, false, false);
    }
    // Exposure drifts and lights move every pixel alike: compare against the background shifted by the
    // median difference (the mean would follow a large object and shift the rest of the frame with it).
    histogram.fill(0);
    for (let i = 0; i < pixels; i++) histogram[frame[i]! - Math.round(background[i]!) + 255]!++;
    let shift = -255;
    for (let seen = 0, half = pixels / 2; shift < 255; shift++) {
      seen += histogram[shift + 255]!;
      if (seen >= half) break;
    }

    cells.fill(0);
    const threshold = thresholds.pixel;
    for (let y = 0, i = 0; y < height; y++) {
      const rowCell = y < rows * CELL ? ((y / CELL) | 0) * cols : -1;
      for (let x = 0; x < width; x++, i++) {
        const value = frame[i]!;
        const diff = Math.abs(value - background[i]! - shift);
        const changed = diff > threshold;
        if (changed && rowCell >= 0 && x < cols * CELL) cells[rowCell + ((x / CELL) | 0)]!++;
        background[i]! += (value - background[i]!) * (changed ? LEARN_CHANGED : LEARN_STILL);
      }
    }
    let changedCells = 0;
    for (let c = 0; c < cellCount; c++) if (cells[c]! >= cellMin) changedCells++;
    const changedArea = changedCells / cellCount;
    if (changedArea > SCENE_CHANGE_AREA) return sceneChange(frame);
    return result(changedArea, false, changedArea >= thresholds.area);
  }

  function sceneChange(frame: Uint8Array): FrameAnalysis {
    relearn(frame);
    settle = SETTLE_FRAMES;
    return result(1, true, false);
  }

  return {
    push(frame, at) {
      if (frame.length !== pixels)
        throw new Error(`a ${width}×${height} frame has ${pixels} bytes, not ${frame.length}`);
      if (analyse(frame).motion) {
        if (streak === 0) streakStart = at;
        streak++;
        lastMotionAt = at;
        if (!moving && streak >= confirmFrames) {
          moving = true;
          return { type: 'start', at: streakStart };
        }
        return undefined;
      }
      streak = 0;
      if (moving && at - lastMotionAt >= quietMs) {
        moving = false;
        return { type: 'end', at, lastMotionAt };
      }
      return undefined;
    },
    setSensitivity(sensitivity) {
      thresholds = motionThresholds(sensitivity);
    },
    reset() {
      learnt = false;
      settle = 0;
      streak = 0;
      moving = false;
    },
    moving: () => moving,
    last: () => analysis,
  };
}
