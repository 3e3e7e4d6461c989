import type { CameraLogger } from '@homesitter/cameras';
import type { DiscoveredDevice, DiscoveryEvent } from '@homesitter/contract';
import { helperErrors, type Route } from '../http/index.js';
import type { Logger } from '../logger.js';

/** The network scan of @homesitter/cameras (`discoverCameras`), as the discovery route calls it. */
export type DiscoverCameras = (
  options: ScanSettings & {
    timeoutMs: number;
    signal: AbortSignal;
    onDevice: (device: DiscoveredDevice) => void;
    log: CameraLogger;
  },
) => Promise<{ devices: DiscoveredDevice[]; subnets: string[]; timedOut: boolean }>;

/** Where to look: the defaults of `discoverCameras` unless the helper's settings narrow them. */
export interface ScanSettings {
  wsDiscovery?: { port?: number; interfaces?: string[] };
  portScan?: { subnets?: string[]; rtspPorts?: number[]; httpPorts?: number[] };
}

export interface DiscoverDeps {
  discover: DiscoverCameras;
  scan: ScanSettings;
  localSubnets: () => string[];
  timeoutMs: number;
  log: Logger;
}

/** A scan that overruns its own deadline is cut this much later. */
const DEADLINE_SLACK_MS = 5_000;

/**
 * `GET /discover`: the devices on the home network as NDJSON, one `DiscoveryEvent` a line as they are
 * found, for at most `timeoutMs`. The client closing the request stops the scan. One scan runs at a time: a
 * second request meanwhile answers 409 `helper.busy` (a scan floods the network; two would only slow each
 * other down, and the first page gets every device anyway).
 */
export function discoverRoutes(deps: DiscoverDeps): Route[] {
  let scanning = false;
  return [
    {
      method: 'GET',
      path: '/discover',
      handle: async ({ res, signal }) => {
        if (scanning)
          throw helperErrors.busy('The helper is already scanning the network; try again when it is done');
        scanning = true;
        try {
          res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
          const write = (event: DiscoveryEvent) => {
            if (!res.destroyed && !res.writableEnded) res.write(`${JSON.stringify(event)}\n`);
          };
          const subnets = deps.scan.portScan?.subnets ?? deps.localSubnets();
          write({ type: 'started', subnets, timeout_ms: deps.timeoutMs });
          const found = new Set<string>();
          let result: { devices: number; timedOut: boolean };
          try {
            const scan = await deps.discover({
              ...deps.scan,
              timeoutMs: deps.timeoutMs,
              signal: AbortSignal.any([signal, AbortSignal.timeout(deps.timeoutMs + DEADLINE_SLACK_MS)]),
              onDevice: (device) => {
                found.add(device.id);
                write({ type: 'device', device });
              },
              log: deps.log,
            });
            result = { devices: scan.devices.length, timedOut: scan.timedOut };
          } catch (err) {
            if (signal.aborted) return;
            deps.log.error({ err: String(err) }, 'the network scan failed');
            result = { devices: found.size, timedOut: false };
          }
          write({ type: 'done', devices: result.devices, timed_out: result.timedOut });
          res.end();
        } finally {
          scanning = false;
        }
      },
    },
  ];
}
