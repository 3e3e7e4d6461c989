import type { Camera } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { Card } from '../../../shared/ui/Card';
import { configurationErrorText } from '../add/configurationError';
import { useStartNestLink } from './api';

/** A Nest camera's page: where it comes from, and "Reconnect Google Nest" when Google refused the link. */
export function NestCameraPanel({
  camera,
  go,
}: {
  camera: Pick<Camera, 'configuration_status' | 'configuration_error' | 'configuration_error_code'>;
  go?: (url: string) => void;
}) {
  const { t } = useTranslation('cameras');
  const start = useStartNestLink(go);
  const lost = camera.configuration_status === 'failed';
  return (
    <Card className="flex flex-col items-start gap-3">
      <h2 className="text-lg font-semibold text-white">{t('nest.title')}</h2>
      <p className="text-sm text-slate-300">{t('nest.cameraFrom')}</p>
      {lost ? <Alert>{configurationErrorText(t, camera)}</Alert> : null}
      {lost && camera.configuration_error_code === 'nest_link_lost' ? (
        <Button onClick={() => start.mutate()} busy={start.isPending || start.isSuccess}>
          {t('nest.reconnectNest')}
        </Button>
      ) : null}
      {start.error ? <Alert>{t('nest.startFailed')}</Alert> : null}
    </Card>
  );
}
