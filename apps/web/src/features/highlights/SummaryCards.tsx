import type { ActivitySummary, NotableMoment } from '@homesitter/contract';
import { Car, PawPrint, Play, User, Users, Box } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { NoPicture } from '../../shared/ui/NoPicture';
import { focusStyle } from '../../shared/lib/focus';
import { formatInZone } from '../../shared/lib/time';
import { Card } from '../../shared/ui/Card';

const KIND_ICON: Record<string, LucideIcon> = { person: User, vehicle: Car, animal: PawPrint };

function Counts({ counts }: { counts: Record<string, number> }) {
  const { t } = useTranslation('highlights');
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t('counts.label')}>
      {entries.map(([kind, count]) => {
        const Icon = KIND_ICON[kind] ?? Box;
        return (
          <li
            key={kind}
            className="inline-flex items-center gap-1.5 rounded-full bg-slate-800 px-2.5 py-1 text-xs text-slate-200"
          >
            <Icon className="size-3.5 text-brand-400" aria-hidden="true" />
            {t(`counts.${kind}`, { count, defaultValue: `${kind}: ${count}` })}
          </li>
        );
      })}
    </ul>
  );
}

function Names({ names }: { names: string[] }) {
  const { t } = useTranslation('highlights');
  if (names.length === 0) return null;
  return (
    <p className="flex items-center gap-1.5 text-xs text-slate-300">
      <Users className="size-3.5 text-brand-400" aria-hidden="true" />
      <span className="sr-only">{t('recognised')}: </span>
      {names.join(', ')}
    </p>
  );
}

/** The profile's time zone, which every time on the cards is shown in (the device's when unknown). */
type TimeZone = string | null | undefined;

function Moments({
  moments,
  timeZone,
  onOpen,
}: {
  moments: NotableMoment[];
  timeZone: TimeZone;
  onOpen: (m: NotableMoment) => void;
}) {
  const { t, i18n } = useTranslation('highlights');
  if (moments.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-col gap-2" aria-label={t('moments')}>
      {moments.map((moment) => {
        const playable = Boolean(moment.clip_url ?? moment.hls_url);
        const when = formatInZone(moment.date_time_utc, { language: i18n.language, timeZone });
        const body = (
          <>
            {moment.thumbnail_image_url ? (
              <img
                src={moment.thumbnail_image_url}
                alt=""
                loading="lazy"
                className="h-12 w-20 shrink-0 rounded-md object-cover"
                style={focusStyle(moment.thumbnail_focus)}
              />
            ) : playable ? null : (
              // A moment without a picture (a Nest event that arrived after its picture had expired).
              <NoPicture className="h-12 w-20 shrink-0 rounded-md" />
            )}
            <span className="min-w-0 flex-1">
              <span className="block text-xs text-slate-400">
                {when}
                {moment.camera_name ? ` · ${moment.camera_name}` : ''}
              </span>
              {moment.is_unusual ? (
                <span className="mt-0.5 inline-block rounded bg-amber-500/20 px-1.5 text-xs font-semibold text-amber-300">
                  {t('unusual')}
                </span>
              ) : null}
              <span className="block truncate text-sm text-slate-100">{moment.description}</span>
              {moment.unusual_reason ? (
                <span className="block text-xs text-amber-200">{moment.unusual_reason}</span>
              ) : null}
            </span>
            {playable ? <Play className="size-4 text-brand-400" aria-hidden="true" /> : null}
          </>
        );
        return (
          <li key={moment.activity_uuid}>
            {playable ? (
              <button
                type="button"
                onClick={() => onOpen(moment)}
                aria-label={t('openClip', { description: moment.description })}
                className="flex w-full items-center gap-3 rounded-lg p-1.5 text-left hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-brand-400"
              >
                {body}
              </button>
            ) : (
              <div className="flex items-center gap-3 p-1.5">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function DailySummaryCard({
  summary,
  timeZone,
  onOpen,
}: {
  summary: ActivitySummary;
  timeZone: TimeZone;
  onOpen: (m: NotableMoment) => void;
}) {
  const { t } = useTranslation('highlights');
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId} className="overflow-hidden p-0" data-testid="daily-summary">
      {summary.thumbnail_image_url ? (
        <img
          src={summary.thumbnail_image_url}
          alt=""
          data-testid="summary-hero"
          className="aspect-[21/9] w-full object-cover"
          style={focusStyle(summary.thumbnail_focus)}
        />
      ) : null}
      <div className="flex flex-col gap-3 p-5">
        <h2 id={headingId} className="text-base font-semibold text-white">
          {t('daily')}
        </h2>
        <p className="text-sm leading-relaxed text-slate-200">{summary.text}</p>
        <Counts counts={summary.counts} />
        <Names names={summary.recognised_names} />
        <Moments moments={summary.notable_moments} timeZone={timeZone} onOpen={onOpen} />
      </div>
    </Card>
  );
}

export function HourlyCard({
  summary,
  timeZone,
  onOpen,
}: {
  summary: ActivitySummary;
  timeZone: TimeZone;
  onOpen: (m: NotableMoment) => void;
}) {
  const { t, i18n } = useTranslation('highlights');
  const time = (iso: string) => formatInZone(iso, { language: i18n.language, timeZone });
  return (
    <li>
      <Card className="flex gap-4 p-4" data-testid="hourly-summary">
        {summary.thumbnail_image_url ? (
          <img
            src={summary.thumbnail_image_url}
            alt=""
            loading="lazy"
            className="hidden h-24 w-36 shrink-0 rounded-lg object-cover sm:block"
            style={focusStyle(summary.thumbnail_focus)}
          />
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <h3 className="text-sm font-semibold text-brand-300">
            {t('hourRange', { from: time(summary.period_start), to: time(summary.period_end) })}
          </h3>
          <p className="text-sm text-slate-200">{summary.text}</p>
          <Counts counts={summary.counts} />
          <Names names={summary.recognised_names} />
          <Moments moments={summary.notable_moments} timeZone={timeZone} onOpen={onOpen} />
        </div>
      </Card>
    </li>
  );
}
