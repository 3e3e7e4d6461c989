import { useTranslation } from 'react-i18next';
import { deviceTitle, loginFor, type FlowState } from '../flow';
import type { DiscoveredDevice } from '@homesitter/contract';

/**
 * The line under a camera's name in the summary, the same whether the helper or the phone found it: what it
 * is, how it is reached, its login and the test's verdict.
 */
export function DeviceFacts({ device, state }: { device: DiscoveredDevice; state: FlowState }) {
  const { t } = useTranslation('discovery');
  const login = loginFor(state, device.id);
  const test = state.tests[device.id];
  return (
    <p className="text-xs text-slate-400">
      {[
        deviceTitle(device),
        device.onvif ? 'ONVIF' : 'RTSP',
        login.username ? t('summary.login', { username: login.username }) : t('summary.noLogin'),
        test?.status === 'done' ? t(`test.verdicts.${test.result.verdict}`) : null,
      ]
        .filter(Boolean)
        .join(' · ')}
    </p>
  );
}
