import type { UserProfile } from '@homesitter/contract';
import { useTranslation } from 'react-i18next';
import { useHighlight } from '../../shared/lib/highlight';
import { Card } from '../../shared/ui/Card';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';
import { FacialRecognitionSetting } from './FacialRecognitionSetting';
import { PrivateModeSetting } from './PrivateModeSetting';
import { useAmnesiaModeToggle } from './toggles';

export function DataPrivacySection({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const amnesia = useAmnesiaModeToggle();
  const amnesiaHighlighted = useHighlight('amnesia-mode');
  return (
    <Card aria-labelledby="privacy-heading">
      <h2 id="privacy-heading" className="mb-2 text-base font-semibold text-white">
        {t('settings.privacy.title')}
      </h2>
      <div className="divide-y divide-slate-800">
        <PrivateModeSetting enabled={profile.is_global_privacy_mode_enabled} />
        <FacialRecognitionSetting enabled={profile.is_facial_recognition_enabled} />
        <SettingSwitch
          id="amnesia-mode"
          label={t('settings.privacy.amnesiaMode')}
          description={t('settings.privacy.amnesiaModeDescription')}
          checked={profile.is_amnesia_mode_enabled}
          highlighted={amnesiaHighlighted}
          onCheckedChange={(on) => amnesia.mutate(on)}
        />
      </div>
    </Card>
  );
}
