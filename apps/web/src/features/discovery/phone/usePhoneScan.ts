import { useCallback, useState, type Dispatch } from 'react';
import type { FlowAction } from '../flow';
import { NoWifiError } from '../phoneDiscovery';
import { useFlowScan, type ScanSource } from '../useFlowScan';
import { phone } from './phoneClient';

/** Why the phone could not scan: off Wi-Fi, or the system kept the app off the local network. */
export type PhoneScanProblem = 'noWifi' | 'blocked';

const phoneScan: ScanSource = (onEvent, signal) => phone.discover(onEvent, signal);

/**
 * The phone's twin of `useDiscoveryScan`: one scan at a time over the phone's own transport, streamed into
 * the same flow. A scan that fails says why, so the screen can tell how to allow it in the system settings.
 */
export function usePhoneScan(dispatch: Dispatch<FlowAction>) {
  const [problem, setProblem] = useState<PhoneScanProblem | null>(null);
  // Without Wi-Fi there is nothing to scan; any other failure of the plugin is the system refusing the local
  // network (iOS asks once, and a "Don't allow" stays until changed in Settings).
  const failed = useCallback(
    (error: unknown) => setProblem(error instanceof NoWifiError ? 'noWifi' : 'blocked'),
    [],
  );
  const { start: startScan, stop } = useFlowScan(dispatch, phoneScan, failed);
  const start = useCallback(() => {
    setProblem(null);
    startScan();
  }, [startScan]);

  return { start, stop, problem };
}
