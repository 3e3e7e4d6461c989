import { Bell, Camera, ChevronRight, CreditCard, User } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSelector } from '../language/LanguageSelector';
import { Card } from '../../shared/ui/Card';
import { DataPrivacySection } from './DataPrivacySection';
import { ProfileGate } from './ProfileGate';
import { pageClass, SettingsHeader } from './SettingsHeader';

const LINKS: { to: string; labelKey: string; descriptionKey: string; icon: LucideIcon }[] = [
  {
    to: '/settings/account',
    labelKey: 'settings.account.title',
    descriptionKey: 'settings.account.summary',
    icon: User,
  },
  {
    to: '/settings/notifications',
    labelKey: 'settings.notifications.title',
    descriptionKey: 'settings.notifications.summary',
    icon: Bell,
  },
  {
    to: '/settings/camera-setup',
    labelKey: 'settings.cameraSetup.title',
    descriptionKey: 'settings.cameraSetup.summary',
    icon: Camera,
  },
  {
    to: '/settings/account/change-plan',
    labelKey: 'settings.subscription.title',
    descriptionKey: 'settings.subscription.summary',
    icon: CreditCard,
  },
];

export default function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('settings.title')} />
      <div className="flex flex-col gap-6">
        <Card className="p-2">
          <ul className="divide-y divide-slate-800">
            {LINKS.map(({ to, labelKey, descriptionKey, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex items-center gap-4 rounded-xl px-3 py-3.5 hover:bg-slate-800/60 focus-visible:outline-2 focus-visible:outline-brand-400"
                >
                  <Icon className="size-5 text-brand-400" aria-hidden="true" />
                  <span className="flex-1">
                    <span className="block text-sm font-medium text-white">{t(labelKey)}</span>
                    <span className="block text-sm text-slate-400">{t(descriptionKey)}</span>
                  </span>
                  <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <ProfileGate>{(profile) => <DataPrivacySection profile={profile} />}</ProfileGate>
        <Card aria-labelledby="language-heading">
          <h2 id="language-heading" className="mb-3 text-base font-semibold text-white">
            {t('language.title')}
          </h2>
          <div className="max-w-sm">
            <LanguageSelector />
          </div>
        </Card>
      </div>
    </div>
  );
}
