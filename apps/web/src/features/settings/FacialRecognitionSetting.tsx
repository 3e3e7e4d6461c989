import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';
import { useFacialRecognitionToggle } from './toggles';

/** Turning facial recognition on needs the user's consent first (docs/product.md §4); turning it off does not. */
export function FacialRecognitionSetting({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const toggle = useFacialRecognitionToggle();
  const [asking, setAsking] = useState(false);
  return (
    <>
      <SettingSwitch
        id="facial-recognition"
        label={t('settings.privacy.facialRecognition')}
        description={t('settings.privacy.facialRecognitionDescription')}
        checked={enabled}
        disabled={toggle.isPending}
        onCheckedChange={(on) => (on ? setAsking(true) : toggle.mutate(false))}
      />
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('settings.privacy.consentTitle')}
        description={t('settings.privacy.consentText')}
        confirmLabel={t('settings.privacy.consentConfirm')}
        onConfirm={() => {
          setAsking(false);
          toggle.mutate(true);
        }}
      />
    </>
  );
}
