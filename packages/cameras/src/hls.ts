import type { InitSegment } from './mp4.js';
import type { Fragment } from './types.js';

/**
 * Live HLS (version 7, fMP4) kept in memory, for browsers without Media Source Extensions. A segment runs from
 * one keyframe to the next (its moof + mdat pairs back to back); the playlist lists a sliding window of them.
 * A new init segment (a reconnect) starts a new map and a discontinuity; the window keeps its older
 * segments until they slide out, as RFC 8216 asks.
 */

export interface HlsOptions {
  /** Segments in the playlist (default 6). */
  windowSegments?: number;
}

export interface Hls {
  reset(init: InitSegment): void;
  push(fragment: Fragment): void;
  /** The media playlist, each URI followed by `?<query>` when given; undefined until a segment exists. */
  playlist(query?: string): string | undefined;
  /** A segment's bytes by media sequence number (`segment-<n>.m4s`). */
  segment(sequence: number): Buffer | undefined;
  /** An init segment by map number (`init-<n>.mp4`); the newest without one. */
  init(map?: number): Buffer | undefined;
}

interface Segment {
  sequence: number;
  map: number;
  data: Buffer;
  durationMs: number;
  startedAt: number;
  /** The first segment after a new init segment. */
  discontinuity: boolean;
}

interface Pending {
  fragments: Buffer[];
  durationMs: number;
  startedAt: number;
}

export function createHls({ windowSegments = 6 }: HlsOptions = {}): Hls {
  const inits = new Map<number, Buffer>();
  let map = -1;
  const segments: Segment[] = [];
  let nextSequence = 0;
  let discontinuitySequence = 0;
  let discontinuityPending = false;
  let pending: Pending | undefined;
  let targetDuration = 1;

  function close(next: Fragment | undefined): void {
    if (!pending) return;
    // Without media durations (0), the time between the keyframes stands in.
    const durationMs = pending.durationMs || (next ? next.receivedAt - pending.startedAt : 0);
    segments.push({
      sequence: nextSequence++,
      map,
      data: Buffer.concat(pending.fragments),
      durationMs,
      startedAt: pending.startedAt,
      discontinuity: discontinuityPending,
    });
    discontinuityPending = false;
    pending = undefined;
    targetDuration = Math.max(targetDuration, Math.ceil(durationMs / 1000));
    while (segments.length > windowSegments) {
      const dropped = segments.shift()!;
      if (segments[0]?.discontinuity) discontinuitySequence++;
      if (!segments.some((s) => s.map === dropped.map) && dropped.map !== map) inits.delete(dropped.map);
    }
  }

  return {
    reset(init) {
      pending = undefined;
      map++;
      inits.set(map, init.data);
      if (segments.length > 0) discontinuityPending = true;
    },
    push(fragment) {
      if (map < 0) return;
      if (fragment.keyframe) {
        close(fragment);
        pending = { fragments: [], durationMs: 0, startedAt: fragment.receivedAt };
      }
      if (!pending) return;
      pending.fragments.push(fragment.data);
      pending.durationMs += fragment.durationMs;
    },
    playlist(query) {
      if (segments.length === 0) return undefined;
      const q = query ? `?${query}` : '';
      const lines = [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        `#EXT-X-TARGETDURATION:${targetDuration}`,
        `#EXT-X-MEDIA-SEQUENCE:${segments[0]!.sequence}`,
        `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuitySequence}`,
        '#EXT-X-INDEPENDENT-SEGMENTS',
      ];
      let currentMap = -1;
      for (const segment of segments) {
        if (segment.discontinuity && currentMap !== -1) lines.push('#EXT-X-DISCONTINUITY');
        if (segment.map !== currentMap) {
          lines.push(`#EXT-X-MAP:URI="init-${segment.map}.mp4${q}"`);
          currentMap = segment.map;
        }
        lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.startedAt).toISOString()}`);
        lines.push(`#EXTINF:${(segment.durationMs / 1000).toFixed(3)},`);
        lines.push(`segment-${segment.sequence}.m4s${q}`);
      }
      return `${lines.join('\n')}\n`;
    },
    segment: (sequence) => segments.find((s) => s.sequence === sequence)?.data,
    init: (n) => inits.get(n ?? map),
  };
}
