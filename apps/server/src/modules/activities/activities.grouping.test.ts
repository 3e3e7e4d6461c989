import { describe, expect, it } from 'vitest';
import { GROUPING_WINDOW_MS, planCameraFiles } from './activities.grouping.js';
import type { UploadRow } from './activities.repository.js';

const t0 = Date.parse('2026-03-01T08:00:00Z');
const at = (s: number) => new Date(t0 + s * 1000);
let n = 0;
const upload = (seconds: number): UploadRow => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  userId: 'u',
  cameraName: 'Gate',
  source: 'ftp',
  storageKey: `users/u/uploads/${n}.jpg`,
  originalName: `${n}.jpg`,
  mediaKind: 'image',
  contentType: 'image/jpeg',
  sizeBytes: 1,
  contentSha256: null,
  receivedAt: at(seconds),
  cameraVerdict: [],
  status: 'pending',
  activityId: null,
  forActivityId: null,
  processedAt: null,
});
const ids = (prefix: string) => {
  let i = 0;
  return () => `${prefix}${++i}`;
};
const plan = (candidates: Parameters<typeof planCameraFiles>[0], files: UploadRow[]) =>
  planCameraFiles(candidates, files, GROUPING_WINDOW_MS, ids('new-')).map((p) => ({
    at: (p.upload.receivedAt.getTime() - t0) / 1000,
    activity: p.activityId,
    starts: p.starts,
    thumbnail: p.needThumbnail,
  }));

describe('planning a round of one camera’s snapshots', () => {
  it('groups files within 10 s of each other in upload order, whatever order they came in', () => {
    expect(plan([], [upload(9), upload(0), upload(4), upload(25)])).toEqual([
      { at: 0, activity: 'new-1', starts: true, thumbnail: true },
      { at: 4, activity: 'new-1', starts: false, thumbnail: false },
      { at: 9, activity: 'new-1', starts: false, thumbnail: false },
      { at: 25, activity: 'new-2', starts: true, thumbnail: true },
    ]);
  });

  it('chains: each file extends the event the next one may join (10 s after the last file, not the first)', () => {
    expect(plan([], [upload(0), upload(8), upload(16), upload(27)]).map((p) => p.activity)).toEqual([
      'new-1',
      'new-1',
      'new-1',
      'new-2',
    ]);
  });

  it('joins a stored activity on either side, and makes a thumbnail only where it has none', () => {
    const stored = [
      { id: 'early', occurredAt: at(-30), lastFileAt: at(-20), thumbnailKey: 'thumb.webp' },
      { id: 'later', occurredAt: at(20), lastFileAt: at(22), thumbnailKey: null },
    ];
    expect(plan(stored, [upload(-12), upload(12), upload(14)])).toEqual([
      { at: -12, activity: 'early', starts: false, thumbnail: false },
      { at: 12, activity: 'later', starts: false, thumbnail: true },
      { at: 14, activity: 'later', starts: false, thumbnail: false },
    ]);
  });

  it('picks the latest of two activities a file is close to, as processing one by one does', () => {
    const stored = [
      { id: 'a', occurredAt: at(0), lastFileAt: at(2), thumbnailKey: 't' },
      { id: 'b', occurredAt: at(15), lastFileAt: at(15), thumbnailKey: 't' },
    ];
    expect(plan(stored, [upload(8)]).map((p) => p.activity)).toEqual(['b']);
  });

  it('makes no thumbnail of an event without media: the next picture of its activity makes it', () => {
    const none = { ...upload(0), mediaKind: 'none' as const, storageKey: null, contentType: null };
    expect(plan([], [none, upload(4)])).toEqual([
      { at: 0, activity: 'new-1', starts: true, thumbnail: false },
      { at: 4, activity: 'new-1', starts: false, thumbnail: true },
    ]);
  });

  it('puts a file meant for an activity into it while it has no clip, else groups it by its time', () => {
    const stored = [
      { id: 'meant', occurredAt: at(0), lastFileAt: at(0), thumbnailKey: null, videoKey: null },
      { id: 'close', occurredAt: at(5), lastFileAt: at(5), thumbnailKey: 't', videoKey: null },
    ];
    const clip = { ...upload(0), mediaKind: 'video' as const, forActivityId: 'meant' };
    expect(plan(stored, [clip]).map((p) => p.activity)).toEqual(['meant']);
    const clipped = [{ ...stored[0]!, videoKey: 'clip.mp4' }, stored[1]!];
    expect(plan(clipped, [clip]).map((p) => p.activity)).toEqual(['close']);
  });

  it('is the same plan for the same candidates (a round checks its plan by them)', () => {
    const files = [upload(0), upload(3), upload(30)];
    expect(plan([], files)).toEqual(plan([], [...files].reverse()));
  });
});
