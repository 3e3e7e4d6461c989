import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestWebPushPermission } from '../../shared/lib/webPush';
import { Button } from '../../shared/ui/Button';
import { registerThisBrowser, useWebPushPermission, useWebPushRegistration } from './useWebPush';

/**
 * Whether this browser shows alerts. The permission prompt only appears after a click, as browsers require;
 * "alerts appear here" is said only once the subscription went through, and a browser without Web Push or a
 * failed subscription says so instead (issue 31).
 */
export function BrowserNotificationsSetting({ pushOn }: { pushOn: boolean }) {
  const { t } = useTranslation();
  const permission = useWebPushPermission();
  const registration = useWebPushRegistration();
  const [asking, setAsking] = useState(false);
  if (!pushOn) return null;

  async function ask() {
    setAsking(true);
    try {
      await requestWebPushPermission();
    } catch (error) {
      console.warn('notification permission request failed', error);
    } finally {
      setAsking(false);
    }
  }

  return (
    <div className="flex items-start justify-between gap-4 px-1 py-3" data-testid="browser-notifications">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-100">{t('settings.notifications.browser')}</p>
        <p className="mt-1 text-sm text-slate-400" role="status">
          {permission === 'unsupported'
            ? t('settings.notifications.browserUnsupported')
            : permission === 'denied'
              ? t('settings.notifications.browserDenied')
              : permission === 'default'
                ? t('settings.notifications.browserAsk')
                : registration === 'registered'
                  ? t('settings.notifications.browserGranted')
                  : registration === 'failed'
                    ? t('settings.notifications.browserFailed')
                    : t('settings.notifications.browserRegistering')}
        </p>
      </div>
      {permission === 'granted' && registration === 'failed' ? (
        <Button variant="secondary" className="shrink-0" onClick={() => void registerThisBrowser()}>
          {t('settings.notifications.browserRetry')}
        </Button>
      ) : null}
      {permission === 'default' ? (
        <Button variant="secondary" className="shrink-0" busy={asking} onClick={() => void ask()}>
          {t('settings.notifications.browserAllow')}
        </Button>
      ) : null}
    </div>
  );
}
