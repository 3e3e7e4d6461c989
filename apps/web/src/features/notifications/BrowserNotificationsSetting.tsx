import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestWebPushPermission } from '../../shared/lib/webPush';
import { Button } from '../../shared/ui/Button';
import { useWebPushPermission } from './useWebPush';

/**
 * Whether this browser may show alerts. The permission prompt only appears after a click, as browsers
 * require; a browser without Web Push (or the native app) shows nothing here.
 */
export function BrowserNotificationsSetting({ pushOn }: { pushOn: boolean }) {
  const { t } = useTranslation();
  const permission = useWebPushPermission();
  const [asking, setAsking] = useState(false);
  if (permission === 'unsupported' || !pushOn) return null;

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
          {permission === 'granted'
            ? t('settings.notifications.browserGranted')
            : permission === 'denied'
              ? t('settings.notifications.browserDenied')
              : t('settings.notifications.browserAsk')}
        </p>
      </div>
      {permission === 'default' ? (
        <Button variant="secondary" className="shrink-0" busy={asking} onClick={() => void ask()}>
          {t('settings.notifications.browserAllow')}
        </Button>
      ) : null}
    </div>
  );
}
