import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHighlight } from '../../shared/lib/highlight';
import { ConfirmDialog } from '../../shared/ui/ConfirmDialog';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';
import { usePrivateModeToggle } from './toggles';

/** Private mode asks first, with wording for entering and for leaving; disabled while the update runs. */
export function PrivateModeSetting({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const toggle = usePrivateModeToggle();
  const highlighted = useHighlight('private-mode');
  const [asking, setAsking] = useState<boolean | null>(null);
  const entering = asking === true;
  return (
    <>
      <SettingSwitch
        id="private-mode"
        label={t('settings.privacy.privateMode')}
        description={t('settings.privacy.privateModeDescription')}
        checked={enabled}
        disabled={toggle.isPending}
        highlighted={highlighted}
        onCheckedChange={(on) => setAsking(on)}
      />
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={t(entering ? 'settings.privacy.enterTitle' : 'settings.privacy.leaveTitle')}
        description={t(entering ? 'settings.privacy.enterText' : 'settings.privacy.leaveText')}
        confirmLabel={t(entering ? 'settings.privacy.enterConfirm' : 'settings.privacy.leaveConfirm')}
        busy={toggle.isPending}
        onConfirm={() => {
          toggle.mutate(entering, { onSettled: () => setAsking(null) });
        }}
      />
    </>
  );
}
