/**
 * The live view's socket address: the server hands out a same-origin path (`/api/live/…/mse?exp=…&sig=…`);
 * the app calls its API on its own origin (the HTTP client has no base URL), so the socket goes there too,
 * `ws:` beside `http:` and `wss:` beside `https:`. An absolute address is kept as it is.
 */
export function toWebSocketUrl(pathOrUrl: string, base: string = window.location.href): string {
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
