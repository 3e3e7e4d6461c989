import type { InitSegment } from './mp4.js';
import type { Fragment } from './types.js';

/**
 * The last seconds of one camera's main stream, always starting at a keyframe: what a new viewer gets first
 * and where a motion clip's pre-event seconds come from. Holds references, never copies.
 */
export interface FragmentBuffer {
  /** Starts over with a new init segment (a reconnect): older fragments cannot be decoded with it. */
  reset(init: InitSegment): void;
  push(fragment: Fragment): void;
  init(): InitSegment | undefined;
  /** From the newest keyframe on; empty before the first keyframe. */
  sinceKeyframe(): Fragment[];
  /** From the last keyframe at or before `ms` (wall clock), or from the oldest kept keyframe. */
  from(ms: number): Fragment[];
  newest(): Fragment | undefined;
  size(): number;
}

export interface FragmentBufferOptions {
  /** How much to keep at least, in ms: more by up to one keyframe interval. */
  keepMs: number;
  /** A hard cap on the bytes kept, against a camera that sends keyframes rarely. */
  maxBytes?: number;
}

export function createFragmentBuffer({
  keepMs,
  maxBytes = 64 * 1024 * 1024,
}: FragmentBufferOptions): FragmentBuffer {
  let initSegment: InitSegment | undefined;
  let fragments: Fragment[] = [];
  let bytes = 0;
  /** Index of the newest keyframe in `fragments`, -1 when none. */
  let lastKey = -1;

  function dropBefore(index: number): void {
    if (index <= 0) return;
    for (let i = 0; i < index; i++) bytes -= fragments[i]!.data.length;
    fragments = fragments.slice(index);
    lastKey -= index;
  }

  /** The newest keyframe index with receivedAt ≤ ms, or the first keyframe (0) when none is that old. */
  function keyframeAtOrBefore(ms: number): number {
    for (let i = lastKey; i >= 0; i--) {
      const fragment = fragments[i]!;
      if (fragment.keyframe && fragment.receivedAt <= ms) return i;
    }
    return 0;
  }

  return {
    reset(init) {
      initSegment = init;
      fragments = [];
      bytes = 0;
      lastKey = -1;
    },
    push(fragment) {
      // Until the first keyframe nothing is decodable.
      if (fragments.length === 0 && !fragment.keyframe) return;
      fragments.push(fragment);
      bytes += fragment.data.length;
      if (!fragment.keyframe) {
        if (bytes > maxBytes && lastKey > 0) dropBefore(lastKey);
        return;
      }
      lastKey = fragments.length - 1;
      dropBefore(keyframeAtOrBefore(fragment.receivedAt - keepMs));
      if (bytes > maxBytes) dropBefore(lastKey);
    },
    init: () => initSegment,
    sinceKeyframe: () => (lastKey < 0 ? [] : fragments.slice(lastKey)),
    from: (ms) => (lastKey < 0 ? [] : fragments.slice(keyframeAtOrBefore(ms))),
    newest: () => fragments[fragments.length - 1],
    size: () => fragments.length,
  };
}
