import { serverBase } from '../../../shared/lib/apiOrigin';

/**
 * The live view's socket address: the server hands out a path on itself (`/api/live/…/mse?exp=…&sig=…`),
 * resolved against the server the app calls (its own origin in a browser, the configured server in the
 * phone apps: shared/lib/apiOrigin.ts), `ws:` beside `http:` and `wss:` beside `https:`. An absolute
 * address keeps its host.
 */
export function toWebSocketUrl(pathOrUrl: string, base: string = serverBase()): string {
  const url = new URL(pathOrUrl, base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.toString();
}

/** Milliseconds until an ISO time (negative once it has passed; 0 when it cannot be read). */
export function msUntil(iso: string, now = Date.now()): number {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? 0 : at - now;
}
