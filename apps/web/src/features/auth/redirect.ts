import { serverOrigin } from '../../shared/lib/apiOrigin';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function configuredOrigins(): string[] {
  return (import.meta.env.VITE_AUTH_REDIRECT_ORIGINS ?? '')
    .split(',')
    .map((o: string) => o.trim())
    .filter(Boolean);
}

/**
 * The `redirect` query parameter receives the ID token, so only trusted targets are accepted: the desktop
 * helper on a loopback address, the app's own origin (and, in the phone apps, its server's: apiOrigin.ts),
 * the native app's scheme, and configured origins.
 */
export function isAllowedRedirect(
  target: string,
  ownOrigin = window.location.origin,
  server = serverOrigin(),
): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol === 'homesitter:') return true;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return (
    LOOPBACK_HOSTS.has(url.hostname) ||
    url.origin === ownOrigin ||
    (server !== '' && url.origin === server) ||
    configuredOrigins().includes(url.origin)
  );
}

/** A target on this computer: the desktop helper's callback. */
export function isLoopbackRedirect(target: string): boolean {
  try {
    const url = new URL(target);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/** The redirect address with `token` appended as a query parameter. */
export function withToken(target: string, token: string): string {
  const url = new URL(target);
  url.searchParams.set('token', token);
  return url.toString();
}

/** Leaves the app for the redirect target (a full navigation: the target is another program or site). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
