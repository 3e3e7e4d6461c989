import { useTranslation } from 'react-i18next';
import { APP_STORE_URL, PLAY_STORE_URL } from '../lib/links';
import { isNativeApp } from '../lib/native';

/** iOS and Android store links for web visitors; the native apps never show them (docs/product.md §1). */
export function StoreLinks({ className }: { className?: string }) {
  const { t } = useTranslation();
  if (isNativeApp()) return null;
  const linkClass =
    'inline-flex items-center rounded-lg bg-slate-800 px-3 py-2 text-xs font-medium text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700';
  return (
    <nav aria-label={t('storeLinks.label')} className={className}>
      <ul className="flex flex-wrap gap-2">
        <li>
          <a className={linkClass} href={APP_STORE_URL} target="_blank" rel="noopener noreferrer">
            {t('storeLinks.appStore')}
          </a>
        </li>
        <li>
          <a className={linkClass} href={PLAY_STORE_URL} target="_blank" rel="noopener noreferrer">
            {t('storeLinks.googlePlay')}
          </a>
        </li>
      </ul>
    </nav>
  );
}
