import type { ActivitySummary } from '@homesitter/contract';
import type { UsersService } from '../users/users.service.js';
import type { ActivitySummaryRow, HighlightsRepository } from './highlights.repository.js';
import { dayWindow } from '../../platform/time.js';

export interface HighlightsServiceDeps {
  repo: HighlightsRepository;
  users: Pick<UsersService, 'getProfile'>;
  /** Turns a stored media key into a URL the client may load; URLs stored as such pass through. */
  mediaUrl?: (keyOrUrl: string) => string;
}

const passThrough = (keyOrUrl: string) => keyOrUrl;

export function toActivitySummary(
  row: ActivitySummaryRow,
  mediaUrl: (keyOrUrl: string) => string = passThrough,
): ActivitySummary {
  const media = (v: string | null) => (v ? mediaUrl(v) : null);
  return {
    summary_uuid: row.id,
    site_uuid: row.siteId,
    period: row.period,
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    counts: row.counts,
    recognised_names: row.recognisedNames,
    notable_moments: row.notableMoments.map((m) => ({
      ...m,
      thumbnail_image_url: media(m.thumbnail_image_url),
      clip_url: media(m.clip_url),
      hls_url: media(m.hls_url),
    })),
    text: row.text,
    thumbnail_image_url: media(row.thumbnailKey),
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
      return rows.map((row) => toActivitySummary(row, deps.mediaUrl));
    },
  };
}
export type HighlightsService = ReturnType<typeof createHighlightsService>;
