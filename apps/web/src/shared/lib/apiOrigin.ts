import { isNativeApp } from './native';

/**
 * Where the Homesitter server is, for everything the web app fetches or opens on it (API calls, the
 * realtime hub, live sockets and playlists, server pages).
 *
 * In a browser the app is served by the server itself, so the answer is "" (same origin, relative paths).
 * The phone apps show the web app bundled into them (`npm run mobile:sync`, docs/mobile.md), served by
 * Capacitor from `https://localhost` (Android) or `capacitor://localhost` (iOS): there the server is the
 * origin baked in at build time (`VITE_SERVER_URL`, which `mobile:sync` sets from `HOMESITTER_SERVER_URL`).
 * A native build without one, or loaded from the server itself (live reload, the e2e tests), stays on its
 * own origin.
 */
export interface OriginInputs {
  /** `VITE_SERVER_URL` of the build. */
  configured: string | undefined;
  /** Inside the iOS/Android shell. */
  native: boolean;
  /** The page's own origin (`window.location.origin`). */
  pageOrigin: string;
}

/** The server origin for these inputs: "" for the page's own origin, else e.g. `https://homesitter.example.com`. */
export function resolveServerOrigin({ configured, native, pageOrigin }: OriginInputs): string {
  const value = configured?.trim();
  if (!native || !value) return '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    console.warn(`VITE_SERVER_URL is not a web address (${value}); calling the page's own origin`);
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    console.warn(`VITE_SERVER_URL must be http(s) (${value}); calling the page's own origin`);
    return '';
  }
  return url.origin === pageOrigin ? '' : url.origin;
}

/** This app's server origin ("" when it is the page's own). */
export function serverOrigin(): string {
  return resolveServerOrigin({
    configured: import.meta.env.VITE_SERVER_URL,
    native: isNativeApp(),
    pageOrigin: window.location.origin,
  });
}

/**
 * A path on the server (`/api/live/…`) as the app must use it: unchanged in the browser, prefixed with the
 * server origin in the phone apps. Absolute addresses (`https:`, `wss:`, `blob:`, `data:`…) are kept.
 */
export function serverUrl(pathOrUrl: string, origin: string = serverOrigin()): string {
  if (!origin || !pathOrUrl.startsWith('/') || pathOrUrl.startsWith('//')) return pathOrUrl;
  return `${origin}${pathOrUrl}`;
}

/** `serverUrl` for a value that may be missing (a clip without HLS). */
export function optionalServerUrl<T extends string | null | undefined>(
  pathOrUrl: T,
  origin: string = serverOrigin(),
): T {
  return (pathOrUrl ? serverUrl(pathOrUrl, origin) : pathOrUrl) as T;
}

/** The base to resolve server paths against with `new URL(path, base)`: the server, or this page. */
export function serverBase(origin: string = serverOrigin()): string {
  return origin ? `${origin}/` : window.location.href;
}
