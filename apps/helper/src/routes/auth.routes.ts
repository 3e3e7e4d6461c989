import { HELPER_CALLBACK_PATH, HELPER_SIGN_IN_PATH } from '@homesitter/contract';
import { z } from 'zod';
import { readJsonBody, sendHtml, sendJson, type Route } from '../http/index.js';
import type { Logger } from '../logger.js';
import { ServerApiError } from '../server-api/index.js';
import type { Session } from '../session/index.js';
import { signInFailedPage } from './auth-pages.js';
import { createSignInStates } from './sign-in-states.js';

export interface AuthDeps {
  serverUrl: string;
  session: Pick<Session, 'signIn' | 'signOut'>;
  /** The local API's own address, for the sign-in link that comes back here. */
  helperUrl(): string;
  /** Stops recording and relaying (the bridge) before the session goes. */
  stopBridging(): Promise<void>;
  log: Logger;
}

/** A JWT is three base64url parts; anything else is not worth sending to the server. */
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const MAX_TOKEN_CHARS = 8192;

/**
 * Sign-in: the app opens `GET /sign-in`, which sends the browser to the app's sign-in page; there the `/auth?redirect=http://127.0.0.1:17429/callback?state=…` sends the browser to `/callback` with
 * `&token=<ID token>` added. The helper checks the one-time state, buys its own session with that token and
 * sends the browser on to the app's success page. Sign-out forgets it.
 */
export function authRoutes(deps: AuthDeps): Route[] {
  const states = createSignInStates();
  /** The helper's own sign-in link (for pages and the console): it starts a sign-in when followed. */
  const retryUrl = () => `${deps.helperUrl()}${HELPER_SIGN_IN_PATH}`;

  return [
    {
      method: 'GET',
      path: HELPER_SIGN_IN_PATH,
      handle: async ({ res }) => {
        const callback = `${deps.helperUrl()}${HELPER_CALLBACK_PATH}?state=${states.issue()}`;
        const signIn = `${deps.serverUrl}/auth?defaultToSignIn=true&redirect=${encodeURIComponent(callback)}`;
        res.writeHead(302, { location: signIn, 'cache-control': 'no-store' });
        res.end();
      },
    },
    {
      method: 'GET',
      path: HELPER_CALLBACK_PATH,
      handle: async ({ res, url }) => {
        if (!states.consume(url.searchParams.get('state') ?? '')) {
          return sendHtml(
            res,
            400,
            signInFailedPage({
              problem:
                'This sign-in was not started by Homesitter on this computer, or it is more than 10 minutes old. To sign the helper in, use "Sign the helper in" in the Homesitter app.',
              retryUrl: retryUrl(),
            }),
          );
        }
        const token = url.searchParams.get('token') ?? '';
        if (!token || token.length > MAX_TOKEN_CHARS || !JWT.test(token)) {
          return sendHtml(
            res,
            400,
            signInFailedPage({
              problem:
                'The link that brought you here carries no sign-in. Open the sign-in page of Homesitter from the helper, sign in, and you will come back here by yourself.',
              retryUrl: retryUrl(),
            }),
          );
        }
        try {
          await deps.session.signIn(token);
        } catch (err) {
          const refused = err instanceof ServerApiError && !err.transient;
          deps.log.warn({ err: String(err) }, 'sign-in through the browser failed');
          return sendHtml(
            res,
            refused ? 400 : 502,
            signInFailedPage({
              problem: refused
                ? 'Homesitter did not accept this sign-in: it may be more than 10 minutes old or already used. Please sign in again.'
                : `The helper could not reach Homesitter at ${deps.serverUrl}. Check that it is running and that this computer is online, then sign in again.`,
              retryUrl: retryUrl(),
            }),
          );
        }
        // The address held the token: the next page must not see it as the referrer.
        res.writeHead(302, { location: `${deps.serverUrl}/auth/success`, 'referrer-policy': 'no-referrer' });
        res.end();
      },
    },
    {
      method: 'POST',
      path: '/sign-out',
      handle: async ({ req, res }) => {
        await readJsonBody(req, z.strictObject({}), { optional: true });
        await deps.stopBridging();
        await deps.session.signOut();
        sendJson(res, 200, { signed_in: false });
      },
    },
  ];
}
