import { serverOrigin } from './apiOrigin';
import { createHttpClient } from './http';
import { createSessionStore } from './session';

/** The app's one auth session (tokens in local storage). */
export const session = createSessionStore({
  storage: window.localStorage,
  refresh: async (refreshToken) => await api.call('refreshToken', { body: { refreshToken } }),
  revoke: (refreshToken) => api.call('signOut', { body: { refreshToken } }),
});

/**
 * The typed API client: bearer added, token refreshed, §8/§9 timeouts and retries, 401 ends the session.
 * Calls go to the page's own origin in a browser, to the configured server in the phone apps (apiOrigin.ts).
 */
export const api = createHttpClient({
  baseUrl: serverOrigin(),
  getToken: (force) => session.getIdToken(force),
  onUnauthorized: () => session.endLocally(),
});
