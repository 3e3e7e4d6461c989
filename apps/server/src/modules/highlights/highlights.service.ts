import type { ActivitySummary } from '@homesitter/contract';
import type { UsersApi } from '../users/users.module.js';
import type { ActivitySummaryRow, HighlightsRepository } from './highlights.repository.js';
import { dayWindow } from '../../platform/time.js';
import { CENTRE } from '../media/media.module.js';

export interface HighlightsServiceDeps {
  repo: HighlightsRepository;
  users: Pick<UsersApi, 'getProfile'>;
  /** Signed URLs of stored media keys: files (pictures, clips) and HLS playlists. */
  media?: {
    file(key: string): Promise<string> | string;
    playlist(key: string): Promise<string> | string;
  };
}

/** Summaries keep media keys; URLs stored as such (absolute or rooted) pass through unchanged. */
const isUrl = (v: string) => /^(https?:)?\/\//.test(v) || v.startsWith('/');

export async function toActivitySummary(
  row: ActivitySummaryRow,
  media?: HighlightsServiceDeps['media'],
): Promise<ActivitySummary> {
  const sign = async (v: string | null, kind: 'file' | 'playlist') => {
    if (!v) return null;
    if (isUrl(v) || !media) return v;
    return kind === 'file' ? media.file(v) : media.playlist(v);
  };
  return {
    summary_uuid: row.id,
    site_uuid: row.siteId,
    period: row.period,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    counts: row.counts,
    recognised_names: row.recognisedNames,
    notable_moments: await Promise.all(
      row.notableMoments.map(async (m) => ({
        ...m,
        thumbnail_image_url: await sign(m.thumbnail_image_url, 'file'),
        thumbnail_focus: m.thumbnail_focus ?? CENTRE,
        clip_url: await sign(m.clip_url, 'file'),
        hls_url: await sign(m.hls_url, 'playlist'),
      })),
    ),
    text: row.text,
    thumbnail_image_url: await sign(row.thumbnailKey, 'file'),
    // The hero is one of the moments' pictures (highlights.writer.ts): its crop is that moment's.
    thumbnail_focus:
      row.notableMoments.find((m) => m.thumbnail_image_url === row.thumbnailKey)?.thumbnail_focus ?? CENTRE,
    created_at: row.createdAt.toISOString(),
  };
}

/** Highlights: the summaries of one calendar day in the user's own time zone (UTC when none is set). */
export function createHighlightsService(deps: HighlightsServiceDeps) {
  return {
    async summariesFor(subject: string, date: string): Promise<ActivitySummary[]> {
      const profile = await deps.users.getProfile(subject);
      const { start, end } = dayWindow(date, profile.timezone ?? 'UTC');
      const rows = await deps.repo.listStartingBetween(profile.user_uuid, start, end);
      return Promise.all(rows.map((row) => toActivitySummary(row, deps.media)));
    },
  };
}
export type HighlightsService = ReturnType<typeof createHighlightsService>;
