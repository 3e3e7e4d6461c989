import { useTranslation } from 'react-i18next';
import { useAmnesiaModeToggle } from '../settings/toggles';
import { useProfile } from '../user/profile';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';

/** Amnesia mode from the memories screen; its banner is the app-wide one (features/user/ProfileBanners). */
export function AmnesiaCard() {
  const { t } = useTranslation('memories');
  const profile = useProfile();
  const toggle = useAmnesiaModeToggle();
  return (
    <div className="mb-6 rounded-2xl bg-slate-900 px-4 py-1 ring-1 ring-slate-800">
      <SettingSwitch
        label={t('amnesia.label')}
        description={t('amnesia.description')}
        checked={profile.data?.is_amnesia_mode_enabled ?? false}
        disabled={!profile.data || toggle.isPending}
        onCheckedChange={(on) => toggle.mutate(on)}
      />
    </div>
  );
}
