import { MESSAGES } from '@homesitter/contract/runtime';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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

/** docs/product.md §2 settings/camera-setup: where cameras upload (FTP and email), step by step per brand. */
export default function CameraSetupPage() {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const creds = useUploadCredentials();
  const regenerate = useRegenerateUploadCredentials();
  const [confirming, setConfirming] = useState(false);

  return (
    <div className={pageClass}>
      <SettingsHeader title={t('setup.title')} back="/settings" />
      <p className="-mt-2 mb-6 text-sm text-slate-300">{t('setup.intro')}</p>
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
            <h2 className="mb-4 text-lg font-semibold text-white">{t('setup.ftp')}</h2>
            <dl className="grid gap-4 sm:grid-cols-2">
              <CopyField label={t('setup.host')} value={creds.data.ftp_host} />
              <CopyField label={t('setup.port')} value={String(creds.data.ftp_port)} />
              <CopyField label={t('setup.username')} value={creds.data.username} />
              <CopyField label={t('setup.password')} value={creds.data.password} secret />
            </dl>
          </Card>
          <Card>
            <h2 className="mb-4 text-lg font-semibold text-white">{t('setup.email')}</h2>
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
