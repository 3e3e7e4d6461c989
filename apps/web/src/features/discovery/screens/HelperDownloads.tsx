import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../shared/ui/Spinner';
import type { HelperDownload } from '../serverHelper';
import { useHelperDownloads } from '../useHelper';

const OS_NAMES: Record<string, string> = {
  win32: 'Windows',
  windows: 'Windows',
  darwin: 'macOS',
  macos: 'macOS',
  mac: 'macOS',
  linux: 'Linux',
};

const osName = (os: string) => OS_NAMES[os.toLowerCase()] ?? os;

/** The systems the helper runs on: any this server does not offer is named, with how it gets one. */
const SYSTEMS = ['Windows', 'macOS', 'Linux'];

/** The visitor's own system first: a guess from the user agent, only to order the list. */
function ownOsFirst(downloads: HelperDownload[]): HelperDownload[] {
  const agent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const own = /Windows/i.test(agent) ? 'Windows' : /Mac OS X|Macintosh/i.test(agent) ? 'macOS' : 'Linux';
  return [...downloads].sort((a, b) => Number(osName(b.os) === own) - Number(osName(a.os) === own));
}

/**
 * Where to get the helper: the builds this server offers (its own OS's is always among them, built on the
 * first download), and the systems it does not offer, with what whoever runs the server can do about it.
 */
export function HelperDownloads() {
  const { t, i18n } = useTranslation('discovery');
  const downloads = useHelperDownloads();
  if (downloads.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-400">
        <Spinner size="sm" />
        {t('downloads.loading')}
      </p>
    );
  }
  const list = ownOsFirst(downloads.data ?? []);
  const missing = SYSTEMS.filter((system) => !list.some((d) => osName(d.os) === system));
  return (
    <div className="flex flex-col gap-3">
      <h3 className="font-medium text-white">{t('downloads.title')}</h3>
      {list.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t('downloads.title')}>
          {list.map((d) => (
            <li key={d.url}>
              <a
                href={d.url}
                download
                className="inline-flex h-11 items-center gap-2 rounded-lg bg-slate-800 px-4 text-sm font-semibold text-slate-100 ring-1 ring-slate-700 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400"
              >
                <Download className="size-4" aria-hidden="true" />
                {d.size === null
                  ? t('downloads.itemOnDemand', { os: osName(d.os), arch: d.arch })
                  : t('downloads.item', {
                      os: osName(d.os),
                      arch: d.arch,
                      size: (d.size / 1_000_000).toFixed(0),
                    })}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-300">{t('downloads.none')}</p>
      )}
      {missing.length > 0 && list.length > 0 ? (
        <p className="text-sm text-slate-400">
          {t('downloads.notOffered', {
            systems: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(missing),
          })}
        </p>
      ) : null}
      <p className="text-sm text-slate-400">{t('downloads.afterDownload')}</p>
    </div>
  );
}
