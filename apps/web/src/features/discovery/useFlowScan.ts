import { useCallback, useEffect, useRef, type Dispatch } from 'react';
import type { DiscoveryEvent } from '@homesitter/contract';
import type { FlowAction } from './flow';

/** A scan's source: the helper's `GET /discover` or the phone's own transport, streaming its events. */
export type ScanSource = (onEvent: (event: DiscoveryEvent) => void, signal: AbortSignal) => Promise<void>;

/**
 * One scan at a time, streamed into the discovery flow: `start` (again) runs `source`, aborting a scan still
 * running; `stop` ends it keeping what was found; leaving the screen stops it. A scan that fails is
 * `scanFailed`, and `failed` hears why (not for a scan that was stopped). The helper's and the phone's scans
 * are this, with their own source and failures; both should be stable (module functions or callbacks), as
 * `start` changes with them.
 */
export function useFlowScan(
  dispatch: Dispatch<FlowAction>,
  source: ScanSource,
  failed: (error: unknown) => void,
) {
  const running = useRef<AbortController | null>(null);

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
    dispatch({ type: 'scanStarted', at: Date.now() });
    source((event) => dispatch({ type: 'scanEvent', event }), controller.signal)
      .then(
        () => {
          if (!controller.signal.aborted) dispatch({ type: 'scanEnded' });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          dispatch({ type: 'scanFailed' });
          failed(error);
        },
      )
      .finally(() => {
        if (running.current === controller) running.current = null;
      });
  }, [dispatch, source, failed]);

  useEffect(() => () => running.current?.abort(), []);

  return { start, stop };
}
