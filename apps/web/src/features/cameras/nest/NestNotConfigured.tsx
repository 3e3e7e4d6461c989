import { NEST_GUIDE_PATH } from '@homesitter/contract/runtime';
import { useTranslation } from 'react-i18next';
import { serverUrl } from '../../../shared/lib/apiOrigin';
import { Alert } from '../../../shared/ui/Alert';

/** This server has no Device Access project: said plainly, with the operator's guide. */
export function NestNotConfigured() {
  const { t } = useTranslation('cameras');
  return (
    <Alert tone="info">
      {t('nest.notConfigured')}{' '}
      <a
        href={serverUrl(NEST_GUIDE_PATH)}
        target="_blank"
        rel="noreferrer"
        className="font-medium text-brand-300 underline"
      >
        {t('nest.guide')}
      </a>
    </Alert>
  );
}
