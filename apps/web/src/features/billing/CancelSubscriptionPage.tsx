import type { CancelSubscriptionResponse } from '@homesitter/contract';
import { CheckCircle2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../shared/lib/errors';
import { Alert } from '../../shared/ui/Alert';
import { Button } from '../../shared/ui/Button';
import { Card } from '../../shared/ui/Card';
import { PageSpinner } from '../../shared/ui/Skeletons';
import { Spinner } from '../../shared/ui/Spinner';
import { pageClass, SettingsHeader } from '../settings/SettingsHeader';
import { isActive, useBillingState, useCancelPreview, useCancelSubscription } from './api';
import { CHANGE_PLAN_PATH, secondaryLinkClass } from './links';
import { formatMoney } from './format';
import { NotConfiguredCard } from './NotConfiguredCard';

function Cancelled({ answer }: { answer: CancelSubscriptionResponse }) {
  const { t, i18n } = useTranslation('billing');
  return (
    <Card className="flex flex-col items-start gap-4">
      <p role="status" className="flex items-start gap-3 text-sm text-white">
        <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-400" aria-hidden="true" />
        {answer.refund.amount > 0
          ? t('cancelPage.done', { amount: formatMoney(answer.refund, i18n.language) })
          : t('cancelPage.doneNoRefund')}
      </p>
      <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
        {t('actions.backToPlans')}
      </Link>
    </Card>
  );
}

/** Shows the refund cancelling now would give (a preview), then cancels on confirmation. */
function CancelFlow({ cancel }: { cancel: ReturnType<typeof useCancelSubscription> }) {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const preview = useCancelPreview(!cancel.isSuccess);
  if (preview.isPending)
    return (
      <p role="status" className="flex items-center gap-3 text-sm text-slate-300">
        <Spinner size="sm" /> {t('cancelPage.loading')}
      </p>
    );
  if (preview.isError)
    return (
      <div className="flex flex-col items-start gap-3">
        <Alert>{errorText(tc, preview.error, t('cancelPage.failed'))}</Alert>
        <Button variant="secondary" onClick={() => void preview.refetch()}>
          {tc('common.retry')}
        </Button>
      </div>
    );
  return (
    <Card aria-labelledby="cancel-heading" className="flex flex-col gap-4">
      <h2 id="cancel-heading" className="text-base font-semibold text-white">
        {t('cancelPage.title')}
      </h2>
      <p className="text-sm text-slate-300">{t('cancelPage.text')}</p>
      <dl className="flex items-baseline justify-between gap-4 rounded-xl bg-slate-800/60 px-4 py-3">
        <dt className="text-sm text-slate-300">{t('cancelPage.refund')}</dt>
        <dd className="text-lg font-semibold text-white">
          {formatMoney(preview.data.refund, i18n.language)}
        </dd>
      </dl>
      {cancel.isError ? <Alert>{errorText(tc, cancel.error, t('cancelPage.failed'))}</Alert> : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate()}>
          {t('cancelPage.confirm')}
        </Button>
        <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
          {t('cancelPage.keep')}
        </Link>
      </div>
    </Card>
  );
}

/** docs/product.md §2 settings/account/cancel: cancelling ends the subscription now with a prorated refund (§1). */
export default function CancelSubscriptionPage() {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const billing = useBillingState();
  // Held here: once cancelled, the subscription is no longer active, but the answer stays on screen.
  const cancel = useCancelSubscription();
  let body;
  if (cancel.data) body = <Cancelled answer={cancel.data} />;
  else if (billing.isPending) body = <PageSpinner />;
  else if (billing.isError)
    body = <Alert>{errorText(tc, billing.error, tc('errors.somethingWentWrong'))}</Alert>;
  else if (billing.data.kind === 'notConfigured') body = <NotConfiguredCard />;
  else if (billing.data.kind === 'subscribed' && isActive(billing.data.subscription))
    body = <CancelFlow cancel={cancel} />;
  else
    body = (
      <Card className="flex flex-col items-start gap-4">
        <p className="text-sm text-slate-300">{t('cancelPage.none')}</p>
        <Link to={CHANGE_PLAN_PATH} className={secondaryLinkClass}>
          {t('actions.backToPlans')}
        </Link>
      </Card>
    );
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('cancelPage.title')} back={CHANGE_PLAN_PATH} />
      {body}
    </div>
  );
}
