/**
 * Keeping a live picture live: how far behind the newest buffered frame playback may fall, and how much of
 * the past the buffer keeps. The aim is about a second from camera to screen; when a camera's fragments are
 * longer than that, the limits grow with them so playback does not stall between fragments.
 */
export const LIVE_EDGE = {
  /** Where a jump lands: this far before the newest frame. */
  targetLagS: 0.3,
  /** Behind by more than this: play slightly faster. */
  catchUpAboveS: 0.5,
  /** Behind by more than this (or outside what is buffered): jump to the live edge. */
  jumpAboveS: 1.5,
  catchUpRate: 1.1,
  /** Seconds of the past kept in the buffer; older media is removed. */
  keepBehindS: 10,
  /** Remove only once this much more has piled up, so trims are few. */
  trimSlackS: 5,
} as const;

/** What a live player reads and steers: the media element's clock and buffer. */
export interface LiveClock {
  currentTime: number;
  playbackRate: number;
  readonly buffered: TimeRanges;
}

export type Steering = 'none' | 'jump' | 'faster' | 'normal' | 'hold';

function inside(ranges: TimeRanges, time: number): boolean {
  for (let i = 0; i < ranges.length; i += 1) {
    if (time >= ranges.start(i) && time <= ranges.end(i)) return true;
  }
  return false;
}

/**
 * Moves playback towards the newest buffered frame: a jump when far behind (or stuck outside the buffer),
 * a slightly faster rate when a little behind, normal speed once close. `fragmentS` is the length of the
 * camera's recent fragments (0 when unknown).
 */
export function steerToLiveEdge(clock: LiveClock, fragmentS = 0): Steering {
  const ranges = clock.buffered;
  if (ranges.length === 0) return 'none';
  const start = ranges.start(0);
  const end = ranges.end(ranges.length - 1);
  const lag = end - clock.currentTime;
  const jumpAbove = Math.max(LIVE_EDGE.jumpAboveS, fragmentS * 2.5);
  const catchUpAbove = Math.max(LIVE_EDGE.catchUpAboveS, fragmentS * 1.2);
  const normalBelow = Math.max(LIVE_EDGE.targetLagS, fragmentS * 0.8);
  if (lag > jumpAbove || !inside(ranges, clock.currentTime)) {
    clock.currentTime = Math.max(start, end - Math.max(LIVE_EDGE.targetLagS, fragmentS * 0.5));
    clock.playbackRate = 1;
    return 'jump';
  }
  if (lag > catchUpAbove) {
    if (clock.playbackRate !== LIVE_EDGE.catchUpRate) clock.playbackRate = LIVE_EDGE.catchUpRate;
    return 'faster';
  }
  if (lag <= normalBelow) {
    if (clock.playbackRate !== 1) clock.playbackRate = 1;
    return 'normal';
  }
  return 'hold';
}

/** The part of the buffer to remove (everything older than ~10 s behind playback), or null. */
export function staleRange(clock: LiveClock): [number, number] | null {
  const ranges = clock.buffered;
  if (ranges.length === 0) return null;
  const start = ranges.start(0);
  const keepFrom = clock.currentTime - LIVE_EDGE.keepBehindS;
  return keepFrom - start > LIVE_EDGE.trimSlackS ? [start, keepFrom] : null;
}
