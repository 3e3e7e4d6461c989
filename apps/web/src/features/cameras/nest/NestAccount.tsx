import { MESSAGES } from '@homesitter/contract/runtime';
import { RefreshCw, Unlink } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../../shared/lib/errors';
import { notify } from '../../../shared/lib/toast';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { ConfirmDialog } from '../../../shared/ui/ConfirmDialog';
import { useNestLink, useStartNestLink, useUnlinkNest } from './api';
import { NestNotConfigured } from './NestNotConfigured';

/** Settings → camera setup: the linked Google account, its cameras, Reconnect and Unlink. */
export function NestAccount({ go }: { go?: (url: string) => void }) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const link = useNestLink();
  const start = useStartNestLink(go);
  const unlink = useUnlinkNest();
  const [confirming, setConfirming] = useState(false);
  if (!link.data) {
    return link.error ? <Alert>{errorText(tr, link.error, MESSAGES.loadCamerasFailed)}</Alert> : null;
  }
  const { configured, status, cameras } = link.data;
  return (
    <Card>
      <h2 className="mb-3 text-lg font-semibold text-white">{t('nest.title')}</h2>
      {!configured ? <NestNotConfigured /> : null}
      {configured && status === 'unlinked' ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-300">{t('nest.notLinked')}</p>
          <Link to="/cameras/add?type=nest" className="text-sm font-medium text-brand-300 underline">
            {t('nest.connect')}
          </Link>
        </div>
      ) : null}
      {configured && status !== 'unlinked' ? (
        <div className="flex flex-col gap-3">
          {status === 'failed' ? (
            <Alert>{t('nest.linkLost')}</Alert>
          ) : (
            <p className="text-sm text-slate-300">{t('nest.linked', { count: cameras.length })}</p>
          )}
          {cameras.length > 0 ? (
            <ul
              className="divide-y divide-slate-800 rounded-lg ring-1 ring-slate-800"
              data-testid="nest-cameras"
            >
              {cameras.map((camera) => (
                <li key={camera.camera_uuid} className="flex items-center justify-between gap-3 px-3 py-2">
                  <Link
                    to={`/cameras/${encodeURIComponent(camera.name)}`}
                    className="truncate text-sm text-white hover:underline"
                  >
                    {camera.name}
                  </Link>
                  <span className="text-xs text-slate-400">{t(`nest.kinds.${camera.kind}`)}</span>
                </li>
              ))}
            </ul>
          ) : null}
          {start.error ? <Alert>{errorText(tr, start.error, t('nest.startFailed'))}</Alert> : null}
          <div className="flex flex-wrap gap-2">
            <Button
              variant={status === 'failed' ? 'primary' : 'secondary'}
              onClick={() => start.mutate()}
              busy={start.isPending || start.isSuccess}
            >
              <RefreshCw className="size-4" aria-hidden="true" />
              {t('nest.reconnect')}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              <Unlink className="size-4" aria-hidden="true" />
              {t('nest.unlink')}
            </Button>
          </div>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('nest.unlinkTitle')}
        description={t('nest.unlinkText')}
        confirmLabel={t('nest.unlinkConfirm')}
        tone="danger"
        busy={unlink.isPending}
        onConfirm={() =>
          unlink.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notify.success(t('nest.unlinked'));
            },
            onError: (error) => notify.error(errorText(tr, error, t('nest.unlinkFailed'))),
          })
        }
      />
    </Card>
  );
}
