import type { CameraConnectionSummary } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../shared/ui/Card';

function Row({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="text-sm break-all text-slate-100">{value}</dd>
    </div>
  );
}

/** How Homesitter reaches a stream camera, read-only (the password never leaves the server). */
export function ConnectionSummary({ connection }: { connection: CameraConnectionSummary }) {
  const { t } = useTranslation('cameras');
  const address =
    connection.type !== 'onvif'
      ? connection.url
      : connection.host
        ? connection.port
          ? `${connection.host}:${connection.port}`
          : connection.host
        : null;
  const device = [connection.manufacturer, connection.model].filter(Boolean).join(' ') || null;
  const video = connection.video
    ? t('connection.videoValue', {
        codec: connection.video.codec.toUpperCase(),
        width: connection.video.width,
        height: connection.video.height,
      })
    : null;
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold text-white">{t('connection.title')}</h2>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Row label={t('connection.type')} value={t(`add.stream.types.${connection.type}`)} />
        <Row label={t('connection.address')} value={address} />
        <Row label={t('connection.username')} value={connection.username} />
        <Row label={t('connection.device')} value={device} />
        <Row
          label={t('connection.motion')}
          value={connection.motion_source ? t(`connection.motionSources.${connection.motion_source}`) : null}
        />
        <Row label={t('connection.video')} value={video} />
        <Row
          label={t('connection.audio')}
          value={connection.has_audio ? t('connection.yes') : t('connection.no')}
        />
      </dl>
    </Card>
  );
}
