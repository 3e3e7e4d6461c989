// The front door of the helper's local HTTP server.
export { HelperError, helperErrors } from './errors.js';
export { readJsonBody, MAX_BODY_BYTES } from './json-body.js';
export { NATIVE_APP_ORIGINS } from './origin-guard.js';
export { escapeHtml, sendError, sendHtml, sendJson } from './respond.js';
export type { Route, RouteContext } from './router.js';
export { LOOPBACK_ADDRESS, startLocalServer, type LocalServer } from './server.js';
