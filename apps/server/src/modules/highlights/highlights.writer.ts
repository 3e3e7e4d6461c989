/**
 * The highlights jobs' work: hourly summaries of each property's last hours and daily summaries of the
 * user's local day, written from the activities table and rewritten as the day goes on. Counts by kind, who
 * was recognised, notable moments with their activity uuids, and a text in the user's language. Users in
 * amnesia mode get none (nothing new is kept).
 */
import type { NotableMoment } from '@homesitter/contract';
import type { Logger } from '../../platform/logger.js';
import { focusOf } from '../media/media.module.js';
import { instantOfWallTime, wallTimeIn } from '../../platform/time.js';
import { dayWindow } from '../../platform/time.js';
import {
  localDate,
  zoneOrUtc,
  describeActivity,
  detectionsOf,
  languageOf,
  type Language,
  type ObjectKind,
  composeSummary,
  unusualReason,
  type SummaryCounts,
  type SummaryFacts,
} from '../language/language.module.js';
import { reportedSomeoneUnseen } from '../alerts/alerts.module.js';
import type { LlmSummarizer } from './llm-summary.js';
import type { HighlightsRepository, SummarisedActivity, SummaryOwner } from './highlights.repository.js';

const HOUR_MS = 3_600_000;
/** Complete local hours each hourly run (re)writes: the last one, and the one before for late analyses. */
const HOURS_PER_RUN = 2;
/** During the first hours of a local day the day before is rewritten too, so it ends complete. */
const FINISH_YESTERDAY_HOURS = 2;
const MOMENTS = { hourly: 3, daily: 5 } as const;
/** How far back a change of language rewrites the highlights. */
const RELANGUAGE_DAYS = 7;

export interface HighlightsWriterDeps {
  repo: HighlightsRepository;
  log: Logger;
  /** With an LLM: rewrites each text from the same facts; the composer's text stands when it cannot. */
  summarizer?: Pick<LlmSummarizer, 'rewrite'> | undefined;
  now?: () => Date;
  /** Told after each period is written (the realtime hub tells the user's open apps to refetch that day). */
  onWritten?: (written: SummaryWritten) => Promise<void> | void;
}

/** Summaries of one user's period were written or rewritten; `date` is the user's day the period starts on. */
export interface SummaryWritten {
  userId: string;
  period: 'hourly' | 'daily';
  date: string;
}

/**
 * How much an activity is worth a mention: anything its camera's routine finds unusual, then someone known,
 * people (also someone a camera's maker reported in an event without a picture), vehicles, animals; motion
 * is not.
 */
function notability(a: SummarisedActivity): number {
  const kinds = new Set(a.objects.map((o) => o.kind));
  return (
    (a.routine?.unusual ? 10 : 0) +
    (a.recognised.length > 0 ? 4 : 0) +
    (kinds.has('person') || reportedSomeoneUnseen(a) ? 3 : 0) +
    (kinds.has('vehicle') ? 2 : 0) +
    (kinds.has('animal') ? 2 : 0) +
    (a.mediaKind === 'video' && kinds.size > 0 ? 0.5 : 0)
  );
}

/**
 * The moment's sentence in the summary's language, without the property's name in front ("Home: …"): the
 * summary is of one property and says so once. A sentence stored in another language is composed anew.
 */
function sentenceOf(
  a: SummarisedActivity,
  owner: SummaryOwner,
  language: Language,
  siteName: string | null,
): string {
  const stored = (language === 'en' ? a.description : a.descriptionLocalized)?.trim();
  const prefix = siteName ? `${siteName.trim()}: ` : undefined;
  if (stored) return prefix && stored.startsWith(prefix) ? stored.slice(prefix.length) : stored;
  return describeActivity(
    {
      cameraName: a.cameraName,
      occurredAt: a.occurredAt,
      timezone: owner.timezone,
      objects: detectionsOf(a.objects),
      recognised: a.recognised,
      mediaKind: a.mediaKind,
      cameraVerdict: a.cameraVerdict,
    },
    language,
  );
}

export interface PeriodSummary {
  /** What the text was written from, in the language it was written in (for the LLM to rewrite). */
  facts: SummaryFacts;
  language: Language;
  siteId: string | null;
  periodEnd: Date;
  counts: SummaryCounts;
  recognisedNames: string[];
  notableMoments: NotableMoment[];
  text: string;
  thumbnailKey: string | null;
}

/** One property's summary of a period, from its activities (oldest first). */
export function summarise(
  list: SummarisedActivity[],
  ctx: {
    owner: SummaryOwner;
    period: 'hourly' | 'daily';
    periodStart: Date;
    periodEnd: Date;
    siteId: string | null;
    siteName: string | null;
    now: Date;
  },
): PeriodSummary {
  const language = languageOf(ctx.owner.preferredLanguage);
  const counts: Record<string, number> = {};
  const names: string[] = [];
  for (const a of list) {
    const kinds = new Set<ObjectKind>(a.objects.map((o) => o.kind));
    if (kinds.size === 0) counts.other = (counts.other ?? 0) + 1;
    for (const k of kinds) counts[k] = (counts[k] ?? 0) + 1;
    for (const r of a.recognised) if (!names.includes(r.name)) names.push(r.name);
  }
  const chosen = list
    .map((a) => ({ a, score: notability(a) }))
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || y.a.occurredAt.getTime() - x.a.occurredAt.getTime())
    .slice(0, MOMENTS[ctx.period])
    .map(({ a }) => a);
  // Shown the same way in every summary: the unusual first, then newest first.
  const shown = chosen.sort(
    (x, y) =>
      Number(Boolean(y.routine?.unusual)) - Number(Boolean(x.routine?.unusual)) ||
      y.occurredAt.getTime() - x.occurredAt.getTime(),
  );
  const moments: NotableMoment[] = shown.map((a) => {
    const unusual = a.routine?.unusual;
    return {
      activity_uuid: a.id,
      date_time_utc: a.occurredAt.toISOString(),
      camera_name: a.cameraName,
      description: sentenceOf(a, ctx.owner, language, ctx.siteName),
      // Media keys; the highlights service signs them when a client reads the summary.
      thumbnail_image_url: a.thumbnailKey,
      thumbnail_focus: focusOf(a.objects, a.width, a.height),
      clip_url: a.videoKey,
      hls_url: a.hlsKey,
      is_unusual: Boolean(unusual),
      unusual_reason: unusual ? unusualReason(unusual, a.cameraName, language) : null,
    };
  });
  const facts: SummaryFacts = {
    period: ctx.period,
    periodStart: ctx.periodStart,
    periodEnd: ctx.periodEnd,
    siteName: ctx.siteName,
    timezone: ctx.owner.timezone,
    now: ctx.now,
    total: list.length,
    counts,
    recognisedNames: names,
    unusual: moments.filter((m) => m.is_unusual).map((m) => `${m.description} ${m.unusual_reason}`),
    moments: moments.filter((m) => !m.is_unusual).map((m) => m.description),
  };
  const text = composeSummary(facts, language);
  return {
    facts,
    language,
    siteId: ctx.siteId,
    periodEnd: ctx.periodEnd,
    counts,
    recognisedNames: names,
    notableMoments: moments,
    text,
    thumbnailKey: moments.find((m) => m.thumbnail_image_url)?.thumbnail_image_url ?? null,
  };
}

export function createHighlightsWriter(deps: HighlightsWriterDeps) {
  const { repo, log } = deps;
  const now = deps.now ?? (() => new Date());

  /** Writes one period of one owner: a summary per property with activity in it. */
  async function writePeriod(
    owner: SummaryOwner,
    period: 'hourly' | 'daily',
    periodStart: Date,
    periodEnd: Date,
    at: Date,
  ): Promise<number> {
    const until = new Date(Math.min(periodEnd.getTime(), at.getTime()));
    const list = await repo.activitiesBetween(owner.id, periodStart, until);
    const bySite = new Map<string | null, SummarisedActivity[]>();
    for (const a of list) bySite.set(a.siteId, [...(bySite.get(a.siteId) ?? []), a]);
    const names = await repo.siteNames(
      owner.id,
      [...bySite.keys()].filter((id): id is string => id !== null),
    );
    const summaries = [...bySite].map(([siteId, acts]) =>
      summarise(acts, {
        owner,
        period,
        periodStart,
        periodEnd,
        siteId,
        siteName: siteId ? (names.get(siteId) ?? null) : null,
        now: at,
      }),
    );
    const summarizer = deps.summarizer;
    if (summarizer && summaries.length > 0) {
      const knownNames = await repo.memoryNames(owner.id);
      for (const summary of summaries) {
        const text = await summarizer.rewrite({
          facts: summary.facts,
          language: summary.language,
          draft: summary.text,
          knownNames,
        });
        if (text) summary.text = text;
      }
    }
    await repo.replacePeriod(owner.id, period, periodStart, summaries);
    await deps.onWritten?.({ userId: owner.id, period, date: localDate(periodStart, owner.timezone) });
    return summaries.length;
  }

  /** The owner's daily summary of the local day `at` is in (so far, or in full once it has ended). */
  function writeDay(owner: SummaryOwner, day: Date, at: Date): Promise<number> {
    const zone = zoneOrUtc(owner.timezone);
    const { start, end } = dayWindow(localDate(day, zone), zone);
    return writePeriod(owner, 'daily', start, end, at);
  }

  /** [start, end) of the complete local hour `back` hours before the one `at` is in. */
  function localHour(at: Date, timezone: string | null, back: number): { start: Date; end: Date } {
    const zone = zoneOrUtc(timezone);
    const w = wallTimeIn(at.getTime(), zone);
    const current = Date.UTC(w.year, w.month - 1, w.day, w.hour);
    return {
      start: instantOfWallTime(current - back * HOUR_MS, zone),
      end: instantOfWallTime(current - (back - 1) * HOUR_MS, zone),
    };
  }

  return {
    /** Hourly summaries of the last complete local hours, per owner and property with activity. */
    async hourly(at: Date = now()): Promise<number> {
      const owners = await repo.ownersWithActivity(
        new Date(at.getTime() - (HOURS_PER_RUN + 1) * HOUR_MS),
        at,
      );
      let written = 0;
      for (const owner of owners) {
        for (let back = 1; back <= HOURS_PER_RUN; back++) {
          const { start, end } = localHour(at, owner.timezone, back);
          written += await writePeriod(owner, 'hourly', start, end, at);
        }
      }
      log.debug({ owners: owners.length, written }, 'hourly highlights written');
      return written;
    },

    /** Today's summary so far and, early in the local day, yesterday's in full. */
    async daily(at: Date = now()): Promise<number> {
      const owners = await repo.ownersWithActivity(new Date(at.getTime() - 26 * HOUR_MS), at);
      let written = 0;
      for (const owner of owners) {
        const zone = zoneOrUtc(owner.timezone);
        const today = dayWindow(localDate(at, zone), zone);
        written += await writeDay(owner, at, at);
        if (at.getTime() - today.start.getTime() < FINISH_YESTERDAY_HOURS * HOUR_MS)
          written += await writeDay(owner, new Date(today.start.getTime() - 1), at);
      }
      log.debug({ owners: owners.length, written }, 'daily highlights written');
      return written;
    },

    /**
     * The user's summaries of the last `days` days written again, in their language as it is now (after they
     * changed it: the highlights they scroll back to read in the new one).
     */
    async rewriteRecent(userId: string, at: Date = now(), days = RELANGUAGE_DAYS): Promise<number> {
      const owner = await repo.owner(userId);
      if (!owner) return 0;
      let written = 0;
      for (const p of await repo.periodsSince(userId, new Date(at.getTime() - days * 24 * HOUR_MS)))
        written += await writePeriod(owner, p.period, p.periodStart, p.periodEnd, at);
      log.debug({ userId, written }, 'highlights rewritten in the new language');
      return written;
    },

    /**
     * One user's summaries of the hour and the day so far, soon after a new, analysed or corrected activity
     * (`highlights.refresh`); `since` is the oldest activity time the run is for, and its hour and day are
     * rewritten too (an activity just before midnight, a correction of this morning's alert).
     */
    async refresh(userId: string, since: Date, at: Date = now()): Promise<number> {
      const owner = await repo.owner(userId);
      if (!owner) return 0;
      let written = 0;
      const thisHour = localHour(at, owner.timezone, 0);
      const sinceHour = localHour(since, owner.timezone, 0);
      if (sinceHour.start.getTime() !== thisHour.start.getTime())
        written += await writePeriod(owner, 'hourly', sinceHour.start, sinceHour.end, at);
      written += await writePeriod(owner, 'hourly', thisHour.start, thisHour.end, at);
      if (localDate(since, owner.timezone) !== localDate(at, owner.timezone))
        written += await writeDay(owner, since, at);
      written += await writeDay(owner, at, at);
      log.debug({ userId, written }, "today's highlights refreshed");
      return written;
    },
  };
}
export type HighlightsWriter = ReturnType<typeof createHighlightsWriter>;
