import { useTranslation } from 'react-i18next';
import { ChangePasswordSection } from './ChangePasswordSection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { PersonalInfoForm } from './PersonalInfoForm';
import { ProfileGate } from './ProfileGate';
import { pageClass, SettingsHeader } from './SettingsHeader';

export default function AccountPage() {
  const { t } = useTranslation();
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('settings.account.title')} back="/settings" />
      <ProfileGate>
        {(profile) => (
          <div className="flex flex-col gap-6">
            <PersonalInfoForm profile={profile} />
            <ChangePasswordSection />
            <DeleteAccountSection />
          </div>
        )}
      </ProfileGate>
    </div>
  );
}
