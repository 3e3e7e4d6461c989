import { MESSAGES } from '@homesitter/contract/runtime';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { notify } from '../../shared/lib/toast';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { useRegenerateUploadCredentials, useUploadCredentials } from './api';
import { BrandGuides } from './BrandGuides';
import { CopyField } from './CopyField';
import { NestAccount } from './nest/NestAccount';

/** Only a plain address becomes a link: the query string is anyone's to write. */
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

/**
 * docs/product.md §2 settings/camera-setup: where cameras upload (FTP and email), step by step per brand.
 * `?camera=&address=` (the phone's discovery, for a camera the server cannot reach) names the camera these
 * values go into and links to its web page.
 */
export default function CameraSetupPage() {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const [search] = useSearchParams();
  const forCamera = search.get('camera');
  const address = search.get('address');
  const creds = useUploadCredentials();
  const regenerate = useRegenerateUploadCredentials();
  const [confirming, setConfirming] = useState(false);

  return (
    <div className={pageClass}>
      <SettingsHeader title={t('setup.title')} back="/settings" />
      <p className="-mt-2 mb-6 text-sm text-slate-300">{t('setup.intro')}</p>
      {forCamera ? (
        <Card className="mb-4 flex flex-col gap-2" data-testid="setup-for-camera">
          <h2 className="text-lg font-semibold text-white">
            {t('setup.forCamera.title', { name: forCamera })}
          </h2>
          <p className="text-sm text-slate-300">{t('setup.forCamera.text', { name: forCamera })}</p>
          {address && IPV4.test(address) ? (
            <a
              href={`http://${address}/`}
              target="_blank"
              rel="noreferrer"
              className="text-sm text-brand-400 underline-offset-4 hover:underline"
            >
              {t('setup.forCamera.open', { address })}
            </a>
          ) : null}
        </Card>
      ) : null}
      {creds.isPending ? <PageSpinner /> : null}
      {creds.error ? (
        <div className="flex flex-col items-start gap-3">
          <Alert>{errorText(tr, creds.error, MESSAGES.loadCameraCredentialsFailed)}</Alert>
          <Button variant="secondary" onClick={() => void creds.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : null}
      {creds.data ? (
        <div className="flex flex-col gap-4">
          <Card>
            <h2 className="mb-2 text-lg font-semibold text-white">{t('setup.ftp')}</h2>
            <p className="mb-4 text-sm text-slate-300">{t('setup.ftpName')}</p>
            <dl className="grid gap-4 sm:grid-cols-2">
              <CopyField label={t('setup.host')} value={creds.data.ftp_host} />
              <CopyField label={t('setup.port')} value={String(creds.data.ftp_port)} />
              <CopyField label={t('setup.username')} value={creds.data.username} />
              <CopyField label={t('setup.password')} value={creds.data.password} secret />
            </dl>
          </Card>
          <Card>
            <h2 className="mb-2 text-lg font-semibold text-white">{t('setup.email')}</h2>
            <p className="mb-4 text-sm text-slate-300">{t('setup.emailName')}</p>
            <dl className="grid gap-4 sm:grid-cols-2">
              <CopyField label={t('setup.emailAddress')} value={creds.data.email_address} />
              <CopyField label={t('setup.smtpHost')} value={creds.data.smtp_host} />
              <CopyField label={t('setup.port')} value={String(creds.data.smtp_port)} />
              <CopyField label={t('setup.username')} value={creds.data.username} />
              <CopyField label={t('setup.password')} value={creds.data.password} secret />
            </dl>
          </Card>
          <Card className="flex flex-wrap items-center justify-between gap-3">
            <p className="max-w-md text-sm text-slate-300">{t('setup.regenerateHint')}</p>
            <Button variant="secondary" onClick={() => setConfirming(true)} busy={regenerate.isPending}>
              <RefreshCw className="size-4" aria-hidden="true" />
              {t('setup.regenerate')}
            </Button>
          </Card>
          <NestAccount />
          <BrandGuides />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('setup.regenerateTitle')}
        description={t('setup.regenerateText')}
        confirmLabel={t('setup.regenerateConfirm')}
        tone="danger"
        busy={regenerate.isPending}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notify.success(t('setup.regenerated'));
            },
            onError: (error) =>
              notify.error(errorText(tr, error, MESSAGES.regenerateCameraCredentialsFailed)),
          })
        }
      />
    </div>
  );
}
