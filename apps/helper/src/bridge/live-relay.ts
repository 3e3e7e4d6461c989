import type { LiveViewer } from '@homesitter/cameras';
import WebSocket from 'ws';
import type { Logger } from '../logger.js';

export interface LiveRelay {
  close(): void;
}

/**
 * Live view of a bridged camera: on the server's `live-start` the helper opens an outbound socket to
 * `/api/helper/live/<uuid>` and joins its camera hub as one more live viewer, so the server receives exactly
 * what a viewer of a pulled camera gets (init text, init segment, fragments, status texts) and fans it out.
 */
export function openLiveRelay({
  url,
  token,
  join,
  onClose,
  log,
}: {
  url: string;
  token: string;
  join: (viewer: LiveViewer) => () => void;
  onClose: () => void;
  log: Logger;
}): LiveRelay {
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, handshakeTimeout: 15_000 });
  let leave: (() => void) | undefined;
  ws.on('open', () => {
    log.info({}, 'live view relay open');
    leave = join({
      send: (data) => ws.send(data, { binary: typeof data !== 'string' }),
      bufferedAmount: () => ws.bufferedAmount,
      close: () => ws.close(1000, 'camera stopped'),
    });
  });
  ws.on('error', (err) => log.warn({ err: err.message }, 'the live view relay failed'));
  ws.on('close', () => {
    leave?.();
    leave = undefined;
    onClose();
  });
  return {
    close() {
      leave?.();
      leave = undefined;
      if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN)
        ws.close(1000, 'live view ended');
    },
  };
}
