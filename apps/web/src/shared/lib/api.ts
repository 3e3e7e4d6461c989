import { createHttpClient } from './http';
import { createSessionStore } from './session';

/** The app's one auth session (tokens in local storage). */
export const session = createSessionStore({
  storage: window.localStorage,
  refresh: async (refreshToken) => await api.call('refreshToken', { body: { refreshToken } }),
  revoke: (refreshToken) => api.call('signOut', { body: { refreshToken } }),
});

/** The typed API client: bearer added, token refreshed, §8/§9 timeouts and retries, 401 ends the session. */
export const api = createHttpClient({
  getToken: (force) => session.getIdToken(force),
  onUnauthorized: () => session.endLocally(),
});
