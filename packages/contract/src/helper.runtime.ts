/**
 * The desktop helper's plain values (no zod), for the helper, the server and the browser alike; the shapes
 * of its local API and of its link to the server are in `helper.ts`.
 */

/** docs/product.md §7: the local backend for camera discovery listens on this port, on 127.0.0.1 only. */
export const HELPER_PORT = 17429;
export const HELPER_ORIGIN = `http://127.0.0.1:${HELPER_PORT}`;
/** Where `/auth?redirect=` sends the signed-in browser with `&token=` added (docs/product.md §2 redirect rule). */
export const HELPER_CALLBACK_PATH = '/callback';
/**
 * `GET /sign-in` (opened in a tab by the app, or from the helper's console): 302 to the app's `/auth` with a
 * `redirect` to `/callback?state=<one-time>`; `/callback` requires that state, so a page elsewhere cannot
 * sign the helper in to another account.
 */
export const HELPER_SIGN_IN_PATH = '/sign-in';

/** docs/product.md §9 "Local camera backend timeouts". */
export const HELPER_DISCOVERY_TIMEOUT_MS = 60_000;
export const HELPER_SNAPSHOT_TIMEOUT_MS = 15_000;
export const HELPER_CONNECTION_TIMEOUT_MS = 60_000;

export const HELPER_ERROR_CODES = {
  notSignedIn: 'helper.not_signed_in',
  originNotAllowed: 'helper.origin_not_allowed',
  invalidRequest: 'helper.invalid_request',
  notFound: 'helper.not_found',
  busy: 'helper.busy',
} as const;

/**
 * The browser waits this much longer than docs/product.md §9's time for a camera call: the helper gives up at that
 * time and answers why, and that answer, not the browser's own timeout, should say what happened.
 */
export const HELPER_ANSWER_MARGIN_MS = 5_000;

/** Control socket: `Authorization: Bearer <ID token>` (or `?access_token=`). */
export const HELPER_CONNECT_PATH = '/api/helper/connect';
/**
 * One live relay per camera, opened by the helper on `live-start`: it sends exactly what a live viewer of
 * its own camera hub receives (a `{type:"init",mime_type}` text, the init segment, fMP4 fragments, status
 * texts); the server fans that out to the browsers as if it pulled the camera itself.
 */
export const HELPER_LIVE_PATH = '/api/helper/live/:cameraUuid';
/** `POST /api/auth/device-session`: a fresh ID token (≤ 10 min old) buys the helper its own refresh token. */
export const DEVICE_SESSION_MAX_TOKEN_AGE_S = 10 * 60;
