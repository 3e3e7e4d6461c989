import type { Activity, ChatMessage } from '@homesitter/contract';
import { alertText, languageOf } from '../language/language.module.js';
import { captionFor, type CaptionReader } from './activities.captions.js';
import type { ActivityRow } from './activities.repository.js';

type ActivityMedia = Pick<Activity, 'thumbnail_image_url' | 'video_url' | 'hls_url'> &
  Partial<Pick<Activity, 'focus'>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Chat messages keep their clips' URLs as they were when sent, and signed URLs expire (`MEDIA_URL_TTL`), while
 * history is read for weeks. So history hands out fresh URLs for every attachment whose activity still
 * exists (one query per page, and one for how the user reads), captioned in the user's language as it is now
 * (activities.captions.ts). An alert's text is made of its activities' sentences, so it is written again from
 * them in that language too (an alert sent in English reads in German once the user switched); a message is
 * an alert when its activities name it as theirs (`alert_message_id`).
 * An attachment of a deleted activity keeps its old (expired) URLs and caption; an alert none of whose
 * activities exists any more keeps its text as sent.
 */
export function createAttachmentRefresher(deps: {
  /** The user's activities of these ids (those that still exist). */
  repo: {
    findActivities(userId: string, activityIds: string[]): Promise<ActivityRow[]>;
    reader(who: { userId: string }): Promise<CaptionReader | undefined>;
  };
  media(activity: ActivityRow): Promise<ActivityMedia>;
}) {
  return async function refresh(userId: string, messages: ChatMessage[]): Promise<ChatMessage[]> {
    const ids = new Set<string>();
    for (const m of messages)
      for (const v of m.videos) if (v.activity_uuid && UUID.test(v.activity_uuid)) ids.add(v.activity_uuid);
    if (ids.size === 0) return messages;
    const [rows, reader] = await Promise.all([
      deps.repo.findActivities(userId, [...ids]),
      deps.repo.reader({ userId }),
    ]);
    const captions = new Map(rows.map((r) => [r.id, reader ? captionFor(r, reader) : undefined]));
    const media = new Map(await Promise.all(rows.map(async (r) => [r.id, await deps.media(r)] as const)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    /** The alert's text in the reader's language, from its activities in the message's order. */
    const alertTextOf = (m: ChatMessage): string | undefined => {
      if (!reader || m.role !== 'agent') return undefined;
      const alerted = m.source_activity_uuid_list
        .map((id) => byId.get(id))
        .filter((r): r is ActivityRow => r?.alertMessageId === m.message_uuid);
      if (alerted.length === 0) return undefined;
      const parts = alerted.map((r) => ({
        sentence: captions.get(r.id) ?? null,
        unusual: r.routine?.unusual,
        cameraName: r.cameraName,
      }));
      return alertText(parts, languageOf(reader.preferredLanguage)) || undefined;
    };
    return messages.map((m) =>
      m.videos.some((v) => v.activity_uuid && media.has(v.activity_uuid))
        ? {
            ...m,
            text: alertTextOf(m) ?? m.text,
            videos: m.videos.map((v) => {
              const fresh = v.activity_uuid ? media.get(v.activity_uuid) : undefined;
              return fresh
                ? {
                    ...v,
                    video_url: fresh.video_url,
                    url: fresh.video_url,
                    hls_url: fresh.hls_url,
                    thumbnail_image_url: fresh.thumbnail_image_url,
                    // Where its picture is cropped follows the findings as they are now (older alerts too).
                    ...(fresh.focus ? { focus: fresh.focus } : {}),
                    activity_description_in_preferred_language:
                      captions.get(v.activity_uuid!) ?? v.activity_description_in_preferred_language,
                  }
                : v;
            }),
          }
        : m,
    );
  };
}
export type AttachmentRefresher = ReturnType<typeof createAttachmentRefresher>;
