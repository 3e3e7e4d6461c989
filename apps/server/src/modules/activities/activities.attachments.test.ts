import type { ChatMessage, VideoAttachment } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import type { ActivityRow } from './activities.repository.js';
import { createAttachmentRefresher } from './activities.attachments.js';

const KEPT = '11111111-1111-4111-8111-111111111111';
const GONE = '22222222-2222-4222-8222-222222222222';

const video = (activity_uuid: string): VideoAttachment => ({
  activity_uuid,
  video_url: 'http://old/clip?exp=1',
  url: 'http://old/clip?exp=1',
  hls_url: 'http://old/hls?exp=1',
  thumbnail_image_url: 'http://old/thumb?exp=1',
  camera_name: 'Front Door',
});

const message = (id: string, videos: VideoAttachment[]): ChatMessage => ({
  message_uuid: id,
  date_time_utc: '2026-06-01T13:12:00.000Z',
  role: 'agent',
  text: 'Rose was seen at the Front Door.',
  image_urls: [],
  hidden_images: [],
  videos,
  source_activity_uuid_list: videos.map((v) => v.activity_uuid!),
  reply_to_message_uuid: null,
  reply_to_message: null,
});

/** A person at the Haustür, analysed, described in English when it happened. */
const analysedActivity = (alertMessageId: string | null) =>
  ({
    id: KEPT,
    alertMessageId,
    cameraName: 'Haustür',
    occurredAt: new Date('2025-06-10T13:12:00Z'),
    analysedAt: new Date('2025-06-10T13:12:05Z'),
    mediaKind: 'image',
    objects: [{ kind: 'person', label: 'person', score: 0.9 }],
    recognised: [],
    routine: null,
    description: 'A person walked up to the Haustür at 3:12 PM.',
    descriptionLocalized: null,
  }) as unknown as ActivityRow;

/** The refresher over that one activity, for a reader in Berlin who reads `language` now. */
const refresherOf = (analysed: ActivityRow) => (preferredLanguage: string) =>
  createAttachmentRefresher({
    repo: {
      findActivities: async () => [analysed],
      reader: async () => ({ preferredLanguage, timezone: 'Europe/Berlin' }),
    },
    media: async () => ({ video_url: null, hls_url: null, thumbnail_image_url: null }),
  });

describe('fresh links for history attachments', () => {
  it('re-signs the clips of activities that still exist, in one query, and leaves the rest as they were', async () => {
    const asked: string[][] = [];
    const refresh = createAttachmentRefresher({
      repo: {
        findActivities: async (_userId, ids) => {
          asked.push(ids);
          return ids.filter((id) => id === KEPT).map((id) => ({ id }) as ActivityRow);
        },
        reader: async () => undefined,
      },
      media: async (row) => ({
        video_url: `http://new/${row.id}/clip`,
        hls_url: `http://new/${row.id}/hls`,
        thumbnail_image_url: `http://new/${row.id}/thumb`,
        focus: { x: 0.4, y: 0.3 },
      }),
    });
    const plain = { ...message('m0', []), role: 'user' as const, source_activity_uuid_list: [] };
    const [first, second, third] = await refresh('u1', [
      message('m1', [video(KEPT), video(GONE)]),
      message('m2', [video(GONE)]),
      plain,
    ]);
    expect(asked).toEqual([[KEPT, GONE]]);
    expect(first!.videos[0]).toMatchObject({
      video_url: `http://new/${KEPT}/clip`,
      url: `http://new/${KEPT}/clip`,
      hls_url: `http://new/${KEPT}/hls`,
      thumbnail_image_url: `http://new/${KEPT}/thumb`,
      camera_name: 'Front Door',
      // Cropped where the findings are, as the activity's own picture is (issue 31 point 10).
      focus: { x: 0.4, y: 0.3 },
    });
    expect(first!.videos[1]).toEqual(video(GONE));
    expect(second).toEqual(message('m2', [video(GONE)]));
    expect(third).toBe(plain);
  });

  it('asks nothing for a page without clips', async () => {
    let asked = 0;
    const refresh = createAttachmentRefresher({
      repo: { findActivities: async () => (asked++, []), reader: async () => (asked++, undefined) },
      media: async () => ({ video_url: null, hls_url: null, thumbnail_image_url: null }),
    });
    const messages = [message('m1', [])];
    expect(await refresh('u1', messages)).toBe(messages);
    expect(asked).toBe(0);
  });

  it("captions each attachment in the user's language as it is now, whatever it was when sent", async () => {
    const refreshIn = refresherOf(analysedActivity(null));
    const [german] = await refreshIn('de')('u1', [message('m1', [video(KEPT)])]);
    expect(german!.videos[0]!.activity_description_in_preferred_language).toBe(
      'Eine Person kam um 15:12 zur Haustür.',
    );
    const [english] = await refreshIn('en')('u1', [message('m1', [video(KEPT)])]);
    expect(english!.videos[0]!.activity_description_in_preferred_language).toBe(
      'A person walked up to the Haustür at 3:12 PM.',
    );
  });

  it("writes an alert's text again in the user's language as it is now; an answer about the event keeps its own", async () => {
    const alertId = '33333333-3333-4333-8333-333333333333';
    const refreshIn = refresherOf(analysedActivity(alertId));
    const alert = {
      ...message(alertId, [video(KEPT)]),
      text: 'A person walked up to the Haustür at 3:12 PM.',
    };
    const answer = { ...message('m2', [video(KEPT)]), text: 'Yes, one person came today.' };
    const [german, germanAnswer] = await refreshIn('de')('u1', [alert, answer]);
    expect(german!.text).toBe('Eine Person kam um 15:12 zur Haustür.');
    expect(germanAnswer!.text).toBe('Yes, one person came today.');
    const [english] = await refreshIn('en')('u1', [alert]);
    expect(english!.text).toBe('A person walked up to the Haustür at 3:12 PM.');
  });
});
