import type { HelperCameraTestResult, HelperVideoInfo } from '@homesitter/contract';
import { CheckCircle2, TriangleAlert, XCircle } from 'lucide-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../shared/ui/cn';
import { testAdvice } from '../helperProblems';

function videoText(t: TFunction<'discovery'>, video: HelperVideoInfo | null): string {
  if (!video) return t('test.none');
  const parts = [video.codec.toUpperCase(), `${video.width}×${video.height}`];
  if (video.fps) parts.push(t('test.fps', { fps: Math.round(video.fps * 10) / 10 }));
  return parts.join(' · ');
}

function deviceText(t: TFunction<'discovery'>, device: HelperCameraTestResult['device']): string {
  if (!device) return t('test.unknown');
  const name = [device.manufacturer, device.model].filter(Boolean).join(' ') || t('test.unknown');
  return device.firmware ? `${name} (${t('test.firmware', { version: device.firmware })})` : name;
}

/**
 * A camera test's answer: the verdict ("Works with Homesitter", or the one thing to change), the picture it
 * took and what the stream is. Used by the public camera test and by "Test" in the discovery flow.
 */
export function TestResult({
  result,
  name,
  compact = false,
}: {
  result: HelperCameraTestResult;
  name: string;
  compact?: boolean;
}) {
  const { t } = useTranslation('discovery');
  const advice = testAdvice(result);
  const works = advice === 'works';
  const Icon = works ? CheckCircle2 : result.verdict === 'unsupported' ? TriangleAlert : XCircle;
  const rows: [string, string][] = [
    [t('test.video'), videoText(t, result.video)],
    [t('test.subVideo'), videoText(t, result.sub_video)],
    [t('test.audio'), result.audio_codec ? result.audio_codec.toUpperCase() : t('test.none')],
    [t('test.device'), deviceText(t, result.device)],
    [
      t('test.motion'),
      result.motion_source ? t(`test.motionSources.${result.motion_source}`) : t('test.none'),
    ],
  ];
  return (
    <div className="flex flex-col gap-3" data-testid="camera-test-result" data-verdict={result.verdict}>
      <div
        role="status"
        className={cn(
          'flex items-start gap-2 rounded-lg px-3 py-2 text-sm ring-1',
          works
            ? 'bg-emerald-950/60 text-emerald-200 ring-emerald-800'
            : result.verdict === 'unsupported'
              ? 'bg-amber-950/60 text-amber-200 ring-amber-800'
              : 'bg-red-950/60 text-red-200 ring-red-800',
        )}
      >
        <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <span className="flex flex-col gap-1">
          <span className="font-semibold">{t(`test.verdicts.${result.verdict}`)}</span>
          {works ? null : <span>{t(`test.advice.${advice}`)}</span>}
        </span>
      </div>
      {result.snapshot ? (
        <img
          src={result.snapshot}
          alt={t('test.snapshotAlt', { name })}
          className={cn(
            'w-full rounded-xl bg-slate-950 object-contain',
            compact ? 'max-h-48' : 'aspect-video',
          )}
        />
      ) : (
        <p className="text-sm text-slate-400">{t('test.noSnapshot')}</p>
      )}
      {result.video || !compact ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-400">{label}</dt>
              <dd className="text-slate-100">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <p className="text-xs text-slate-400">
        {t('test.took', { seconds: (result.elapsed_ms / 1000).toFixed(1) })}
      </p>
    </div>
  );
}
