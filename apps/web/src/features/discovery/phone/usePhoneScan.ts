import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import type { FlowAction } from '../flow';
import { NoWifiError } from '../phoneDiscovery';
import { phone } from './phoneClient';

/** Why the phone could not scan: off Wi-Fi, or the system kept the app off the local network. */
export type PhoneScanProblem = 'noWifi' | 'blocked';

/**
 * The phone's twin of `useDiscoveryScan`: one scan at a time over the phone's own transport, streamed into
 * the same flow. A scan that fails says why, so the screen can tell how to allow it in the system settings.
 */
export function usePhoneScan(dispatch: Dispatch<FlowAction>) {
  const running = useRef<AbortController | null>(null);
  const [problem, setProblem] = useState<PhoneScanProblem | null>(null);

  const stop = useCallback(() => {
    if (!running.current) return;
    running.current.abort();
    running.current = null;
    dispatch({ type: 'scanStopped' });
  }, [dispatch]);

  const start = useCallback(() => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setProblem(null);
    dispatch({ type: 'scanStarted', at: Date.now() });
    phone
      .discover((event) => dispatch({ type: 'scanEvent', event }), controller.signal)
      .then(
        () => {
          if (!controller.signal.aborted) dispatch({ type: 'scanEnded' });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          dispatch({ type: 'scanFailed' });
          // Without Wi-Fi there is nothing to scan; any other failure of the plugin is the system refusing
          // the local network (iOS asks once, and a "Don't allow" stays until changed in Settings).
          setProblem(error instanceof NoWifiError ? 'noWifi' : 'blocked');
        },
      )
      .finally(() => {
        if (running.current === controller) running.current = null;
      });
  }, [dispatch]);

  useEffect(() => () => running.current?.abort(), []);

  return { start, stop, problem };
}
