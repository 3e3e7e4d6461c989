import type { NotableMoment } from '@homesitter/contract';
import * as Dialog from '@radix-ui/react-dialog';
import { ArrowDown, Plus, RefreshCw, Sparkles, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { HighlightsSkeleton } from '../../shared/ui/Skeletons';
import { inputClass } from '../../shared/ui/TextField';
import { cn } from '../../shared/ui/cn';
import { VideoPlayer } from '../../shared/ui/VideoPlayer';
import { dayIn, zoneToName } from '../../shared/lib/time';
import { useCameras } from '../cameras/api';
import { useProfile } from '../user/profile';
import { useActivitySummaries, useHighlightsRealtime } from './highlightsApi';
import { DailySummaryCard, HourlyCard } from './SummaryCards';
import { usePullToRefresh } from './usePullToRefresh';

export default function HighlightsPage() {
  const { t, ready } = useTranslation('highlights');
  // One clock: "today" and every time below are the profile's (the zone the texts are written in).
  const timeZone = useProfile().data?.timezone;
  const namedZone = zoneToName(timeZone);
  const today = dayIn(timeZone);
  // No day picked: today, which moves on at midnight.
  const [picked, setPicked] = useState<string | null>(null);
  const date = picked ?? today;
  const [clip, setClip] = useState<NotableMoment | null>(null);
  const summaries = useActivitySummaries(date);
  const cameras = useCameras();
  const noCameras = cameras.data?.length === 0;
  useHighlightsRealtime();
  const refresh = () => void summaries.refetch();
  const { pull, ready: pullReady } = usePullToRefresh(refresh);

  const daily = summaries.data?.filter((s) => s.period === 'daily') ?? [];
  const hourly = summaries.data?.filter((s) => s.period === 'hourly') ?? [];

  if (!ready) return <HighlightsSkeleton />;
  return (
    <div className="mx-auto w-full max-w-3xl p-4 md:p-8">
      {pull > 0 ? (
        <div className="flex justify-center text-slate-400" style={{ height: pull }} aria-hidden="true">
          <ArrowDown
            className={cn('mt-2 size-5 transition-transform', pullReady && 'rotate-180 text-brand-400')}
          />
        </div>
      ) : null}
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-white">{t('title')}</h1>
          <p className="text-sm text-slate-400">{date === today ? t('today') : t('earlier')}</p>
          {namedZone ? (
            <p className="mt-1 text-xs text-slate-400" data-testid="time-zone-note">
              {t('timeZone', { zone: namedZone })}
            </p>
          ) : null}
        </div>
        <div className="flex items-end gap-2">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="highlights-date" className="text-sm font-medium text-slate-200">
              {t('day')}
            </label>
            <input
              id="highlights-date"
              type="date"
              value={date}
              max={today}
              onChange={(e) => e.target.value && setPicked(e.target.value === today ? null : e.target.value)}
              className={cn(inputClass, 'w-44 [color-scheme:dark]')}
            />
          </div>
          <Button
            variant="secondary"
            onClick={refresh}
            busy={summaries.isFetching}
            aria-label={t('refresh')}
            className="px-3"
          >
            {summaries.isFetching ? null : <RefreshCw className="size-4" aria-hidden="true" />}
          </Button>
        </div>
      </header>

      {summaries.isPending ? (
        <HighlightsSkeleton />
      ) : summaries.isError ? (
        <div className="flex flex-col items-start gap-3">
          <Alert>{t('error')}</Alert>
          <Button variant="secondary" onClick={refresh}>
            {t('retry')}
          </Button>
        </div>
      ) : daily.length === 0 && hourly.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-2xl bg-slate-900 px-6 py-12 text-center ring-1 ring-slate-800">
          <Sparkles className="size-10 text-brand-400" aria-hidden="true" />
          <h2 className="text-base font-semibold text-white">
            {t(noCameras ? 'noCameras.title' : 'empty.title')}
          </h2>
          <p className="max-w-sm text-sm text-slate-400">{t(noCameras ? 'noCameras.text' : 'empty.text')}</p>
          {noCameras ? (
            <Link
              to="/cameras/add"
              className="mt-2 inline-flex h-10 items-center gap-2 rounded-lg bg-brand-500 px-4 text-sm font-semibold text-slate-950 hover:bg-brand-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
            >
              <Plus className="size-4" aria-hidden="true" />
              {t('noCameras.action')}
            </Link>
          ) : null}
        </div>
      ) : (
        <div className="flex flex-col gap-6">
          {daily.map((s) => (
            <DailySummaryCard key={s.summary_uuid} summary={s} timeZone={timeZone} onOpen={setClip} />
          ))}
          {hourly.length > 0 ? (
            <section aria-labelledby="hourly-heading">
              <h2 id="hourly-heading" className="mb-3 text-base font-semibold text-white">
                {t('hourly')}
              </h2>
              <ol className="flex flex-col gap-3">
                {hourly.map((s) => (
                  <HourlyCard key={s.summary_uuid} summary={s} timeZone={timeZone} onOpen={setClip} />
                ))}
              </ol>
            </section>
          ) : null}
        </div>
      )}

      <Dialog.Root open={clip !== null} onOpenChange={(open) => !open && setClip(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
          <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-slate-900 p-4 shadow-2xl ring-1 ring-slate-700 focus:outline-none">
            <div className="mb-3 flex items-start justify-between gap-3">
              <Dialog.Title className="text-base font-semibold text-white">
                {clip?.camera_name ?? t('clip')}
              </Dialog.Title>
              <Dialog.Close
                className="rounded p-1 text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-400"
                aria-label={t('close')}
              >
                <X className="size-5" aria-hidden="true" />
              </Dialog.Close>
            </div>
            <Dialog.Description className="sr-only">{clip?.description}</Dialog.Description>
            {clip ? (
              <VideoPlayer
                video={{
                  activity_uuid: clip.activity_uuid,
                  video_url: clip.clip_url,
                  hls_url: clip.hls_url,
                  thumbnail_image_url: clip.thumbnail_image_url,
                  camera_name: clip.camera_name,
                  activity_description: clip.description,
                }}
              />
            ) : null}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}
