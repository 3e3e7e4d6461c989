import { MESSAGES } from '@homesitter/contract/runtime';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/errors';
import { Alert } from '../../../shared/ui/Alert';
import { Button } from '../../../shared/ui/Button';
import { PageSpinner } from '../../../shared/ui/Skeletons';
import { useNestLink, useStartNestLink } from './api';
import { NestNotConfigured } from './NestNotConfigured';

/** Add camera → Google Nest: what will happen, then Google's consent page. */
export function NestChoice({ go }: { go?: (url: string) => void }) {
  const { t } = useTranslation('cameras');
  const { t: tr } = useTranslation();
  const link = useNestLink();
  const start = useStartNestLink(go);
  if (link.isPending) return <PageSpinner />;
  if (link.error) return <Alert>{errorText(tr, link.error, MESSAGES.loadCamerasFailed)}</Alert>;
  if (!link.data.configured) return <NestNotConfigured />;
  const linked = link.data.status === 'linked';
  return (
    <div className="flex flex-col items-start gap-3">
      <h2 className="text-lg font-semibold text-white">{t('nest.title')}</h2>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-300">
        <li>{t('nest.steps.google')}</li>
        <li>{t('nest.steps.choose')}</li>
        <li>{t('nest.steps.back')}</li>
      </ol>
      {linked ? <Alert tone="info">{t('nest.alreadyLinked')}</Alert> : null}
      {start.error ? <Alert>{errorText(tr, start.error, t('nest.startFailed'))}</Alert> : null}
      <Button onClick={() => start.mutate()} busy={start.isPending || start.isSuccess}>
        {linked ? t('nest.addMore') : t('nest.connect')}
      </Button>
    </div>
  );
}
