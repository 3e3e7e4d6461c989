import { LifeBuoy, Mail } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../../shared/lib/links';
import { Card } from '../../shared/ui/Card';

/** Contact and support: how to reach a person, and the answers people ask for most. */
export default function SupportPage() {
  const { t } = useTranslation();
  const faq = t('support.faq', { returnObjects: true }) as { q: string; a: string }[];
  return (
    <div className="mx-auto w-full max-w-3xl p-4 md:p-8">
      <h1 className="mb-6 flex items-center gap-3 text-2xl font-semibold tracking-tight text-white">
        <LifeBuoy className="size-6 text-brand-400" aria-hidden="true" />
        {t('support.title')}
      </h1>
      <Card>
        <p className="text-slate-200">{t('support.intro')}</p>
        <a
          href={`mailto:${SUPPORT_EMAIL}`}
          className="mt-4 inline-flex items-center gap-2 rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-slate-950 hover:bg-brand-400"
        >
          <Mail className="size-4" aria-hidden="true" />
          {t('support.email', { email: SUPPORT_EMAIL })}
        </a>
      </Card>
      <h2 className="mt-8 mb-3 text-lg font-semibold text-white">{t('support.faqTitle')}</h2>
      <div className="flex flex-col gap-3">
        {Array.isArray(faq)
          ? faq.map((item) => (
              <details key={item.q} className="rounded-xl bg-slate-900 p-4 ring-1 ring-slate-800">
                <summary className="cursor-pointer text-sm font-medium text-white">{item.q}</summary>
                <p className="mt-2 text-sm text-slate-300">{item.a}</p>
              </details>
            ))
          : null}
      </div>
      <p className="mt-8 text-sm text-slate-400">
        <Link to="/privacy" className="hover:text-slate-200">
          {t('legalLinks.privacy')}
        </Link>
        {' · '}
        <Link to="/terms" className="hover:text-slate-200">
          {t('legalLinks.terms')}
        </Link>
      </p>
    </div>
  );
}
