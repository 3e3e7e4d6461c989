import { apiRoutes, authSessionSchema, successOnlySchema, type AuthSession } from '@homesitter/contract';
import { requestServer, type Fetch } from './request.js';

/** The identity calls the helper's session makes: none of them needs a bearer token of its own. */
export interface AuthApi {
  /** The browser's fresh ID token buys the helper its own refresh token. */
  deviceSession(idToken: string): Promise<AuthSession>;
  /** A new ID token and a rotated refresh token. */
  refresh(refreshToken: string): Promise<AuthSession>;
  signOut(refreshToken: string): Promise<void>;
}

export function createAuthApi({ baseUrl, fetch: fetchFn }: { baseUrl: string; fetch: Fetch }): AuthApi {
  return {
    deviceSession: (idToken) =>
      requestServer(
        fetchFn,
        `${baseUrl}${apiRoutes.deviceSession.path}`,
        { method: 'POST', headers: { authorization: `Bearer ${idToken}` } },
        authSessionSchema,
      ),
    refresh: (refreshToken) =>
      requestServer(
        fetchFn,
        `${baseUrl}${apiRoutes.refreshToken.path}`,
        { method: 'POST', json: { refreshToken } },
        authSessionSchema,
      ),
    signOut: async (refreshToken) => {
      await requestServer(
        fetchFn,
        `${baseUrl}${apiRoutes.signOut.path}`,
        { method: 'POST', json: { refreshToken } },
        successOnlySchema,
      );
    },
  };
}
