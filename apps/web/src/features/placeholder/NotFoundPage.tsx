import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-md p-8 text-center">
      <h1 className="text-2xl font-semibold text-white">{t('notFound.title')}</h1>
      <p className="mt-2 text-slate-300">{t('notFound.text')}</p>
      <Link to="/highlights" className="mt-6 inline-block text-brand-400 underline-offset-4 hover:underline">
        {t('notFound.back')}
      </Link>
    </div>
  );
}
