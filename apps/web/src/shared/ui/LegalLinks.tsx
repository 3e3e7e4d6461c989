import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Privacy, cookies and terms: the footer links of the public pages. */
export function LegalLinks({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('legalLinks.label')} className={`flex gap-4 ${className}`}>
      <Link to="/privacy" className="hover:text-slate-200">
        {t('legalLinks.privacy')}
      </Link>
      <Link to="/cookies" className="hover:text-slate-200">
        {t('legalLinks.cookies')}
      </Link>
      <Link to="/terms" className="hover:text-slate-200">
        {t('legalLinks.terms')}
      </Link>
    </nav>
  );
}
