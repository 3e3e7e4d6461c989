import { useTranslation } from 'react-i18next';
import { Card } from '../../shared/ui/Card';
import { BrowserNotificationsSetting } from '../notifications/BrowserNotificationsSetting';
import { useDeliverableChannels } from '../notifications/channels';
import { SettingSwitch } from '../../shared/ui/SettingSwitch';
import { ProfileGate } from './ProfileGate';
import { pageClass, SettingsHeader } from './SettingsHeader';
import { useChannelToggle, useNotificationsToggle } from './toggles';

function NotificationSettings({ allOn, push, sms }: { allOn: boolean; push: boolean; sms: boolean }) {
  const { t } = useTranslation();
  const all = useNotificationsToggle();
  const channel = useChannelToggle();
  // A switch for texts this server cannot send would look on and never deliver: it is off and says why.
  const smsDeliverable = useDeliverableChannels().data?.sms_mms !== false;
  return (
    <Card className="divide-y divide-slate-800">
      <SettingSwitch
        id="notifications-all"
        label={t('settings.notifications.all')}
        description={t('settings.notifications.allDescription')}
        checked={allOn}
        onCheckedChange={(on) => all.mutate(on)}
      />
      <SettingSwitch
        id="notifications-push"
        label={t('settings.notifications.push')}
        description={t('settings.notifications.pushDescription')}
        checked={push}
        disabled={!allOn}
        onCheckedChange={(on) => channel.toggle('push_enabled', on)}
      />
      <BrowserNotificationsSetting pushOn={allOn && push} />
      <SettingSwitch
        id="notifications-sms"
        label={t('settings.notifications.sms')}
        description={t(
          smsDeliverable ? 'settings.notifications.smsDescription' : 'settings.notifications.smsUnavailable',
        )}
        checked={sms && smsDeliverable}
        disabled={!allOn || !smsDeliverable}
        onCheckedChange={(on) => channel.toggle('sms_mms_enabled', on)}
      />
    </Card>
  );
}

export default function NotificationsPage() {
  const { t } = useTranslation();
  return (
    <div className={pageClass}>
      <SettingsHeader title={t('settings.notifications.title')} back="/settings" />
      <ProfileGate>
        {(p) => (
          <NotificationSettings
            allOn={p.notifications_status !== 'ALL_DISABLED'}
            push={p.notification_preferences.push_enabled}
            sms={p.notification_preferences.sms_mms_enabled}
          />
        )}
      </ProfileGate>
    </div>
  );
}
