import type { AuthSession } from '@homesitter/contract';
import { createBackoff } from '../backoff.js';
import { createEmitter } from '../emitter.js';
import type { Logger } from '../logger.js';
import { ServerApiError, type AuthApi, type TokenSource } from '../server-api/index.js';
import type { SessionStore, StoredSession } from './session-store.js';

export interface SessionEvents {
  /** Signed in through the browser, or a stored session was found at start. */
  signedIn: () => void;
  /** A new ID token (refreshed): sockets opened with the old one reconnect with it. */
  token: () => void;
  signedOut: () => void;
}

export interface SessionStatus {
  signedIn: boolean;
  email: string | null;
  uid: string | null;
}

/**
 * The helper's own sign-in: a refresh token of its own (bought with the browser's fresh ID token), kept in
 * session.json, and the current ID token in memory, refreshed before it expires. Every refresh rotates the
 * refresh token; the new one is stored before anything uses the new ID token. A refresh the server refuses
 * signs the helper out.
 */
export interface Session extends TokenSource {
  /** Reads session.json and refreshes it (in the background) at start. */
  resume(): Promise<void>;
  /** Exchanges the browser's ID token; throws the server's refusal (`ServerApiError`). */
  signIn(browserIdToken: string): Promise<void>;
  signOut(): Promise<void>;
  status(): SessionStatus;
  on: ReturnType<typeof createEmitter<SessionEvents>>['on'];
  stop(): void;
}

/** Refresh this long before the ID token expires (or at 80 % of its life when that is shorter). */
const REFRESH_LEAD_MS = 120_000;
/** A token this close to its end is refreshed before it is handed out. */
const MIN_VALIDITY_MS = 30_000;
const SIGN_OUT_WAIT_MS = 5_000;

export function createSession({
  authApi,
  store,
  serverUrl,
  log,
}: {
  authApi: AuthApi;
  store: SessionStore;
  serverUrl: string;
  log: Logger;
}): Session {
  const emitter = createEmitter<SessionEvents>((err) =>
    log.error({ err: String(err) }, 'a session listener failed'),
  );
  const retry = createBackoff({ initialMs: 2_000, maxMs: 60_000 });
  let stored: StoredSession | null = null;
  let current: { token: string; expiresAt: number } | null = null;
  let refreshing: Promise<string | null> | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Bumped by every sign-in and sign-out: a refresh that ends after one of them is dropped. */
  let generation = 0;

  function schedule(inMs: number): void {
    clearTimeout(timer);
    timer = setTimeout(() => void refreshNow(), inMs);
    timer.unref();
  }

  async function adopt(session: AuthSession): Promise<void> {
    stored = {
      server_url: serverUrl,
      uid: session.user.uid,
      email: session.user.email,
      refresh_token: session.refreshToken,
      saved_at: new Date().toISOString(),
    };
    try {
      await store.save(stored);
    } catch (err) {
      // The new refresh token lives on in memory; the next rotation tries to store it again.
      log.error({ err: String(err) }, 'the session could not be stored');
    }
    const lifeMs = session.expiresIn * 1000;
    current = { token: session.idToken, expiresAt: Date.now() + lifeMs };
    retry.reset();
    schedule(Math.max(0, lifeMs - Math.min(REFRESH_LEAD_MS, lifeMs / 5)));
  }

  async function forget(): Promise<void> {
    generation++;
    stored = null;
    current = null;
    clearTimeout(timer);
    try {
      await store.clear();
    } finally {
      emitter.emit('signedOut');
    }
  }

  function refreshNow(): Promise<string | null> {
    refreshing ??= (async () => {
      const session = stored;
      if (!session) return null;
      const started = generation;
      try {
        const fresh = await authApi.refresh(session.refresh_token);
        if (started !== generation) return null;
        await adopt(fresh);
        emitter.emit('token');
        return fresh.idToken;
      } catch (err) {
        if (started !== generation) return null;
        if (err instanceof ServerApiError && !err.transient) {
          log.warn({ code: err.code }, 'the server refused the session: signed out');
          await forget().catch((cause: unknown) =>
            log.error({ err: String(cause) }, 'session.json could not be deleted'),
          );
          return null;
        }
        const inMs = retry.next();
        log.warn({ err: String(err), retryInMs: inMs }, 'the session could not be refreshed; trying again');
        schedule(inMs);
        return null;
      }
    })().finally(() => (refreshing = undefined));
    return refreshing;
  }

  return {
    async resume() {
      const found = await store.load();
      if (!found) return;
      if (found.server_url !== serverUrl) {
        log.info({ server: found.server_url }, 'the stored session is for another server: sign in again');
        return;
      }
      stored = found;
      log.info({ email: found.email }, 'signed in (stored session)');
      emitter.emit('signedIn');
      void refreshNow();
    },
    async signIn(browserIdToken) {
      const session = await authApi.deviceSession(browserIdToken);
      const previous = stored;
      generation++;
      await adopt(session);
      log.info({ email: session.user.email }, 'signed in');
      if (previous) {
        authApi.signOut(previous.refresh_token).catch(() => undefined);
        if (previous.uid !== session.user.uid) emitter.emit('signedOut');
      }
      emitter.emit('signedIn');
    },
    async signOut() {
      const refreshToken = stored?.refresh_token;
      await forget();
      if (!refreshToken) return;
      // Best effort: the local session is gone whatever the server says, but it should hear of it.
      await Promise.race([
        authApi
          .signOut(refreshToken)
          .catch((err: unknown) => log.warn({ err: String(err) }, 'the server did not take the sign-out')),
        new Promise((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS).unref()),
      ]);
      log.info({}, 'signed out');
    },
    async idToken() {
      if (!stored) return null;
      if (current && current.expiresAt - Date.now() > MIN_VALIDITY_MS) return current.token;
      return refreshNow();
    },
    refreshNow,
    status: () => ({ signedIn: stored !== null, email: stored?.email ?? null, uid: stored?.uid ?? null }),
    on: emitter.on,
    stop() {
      clearTimeout(timer);
      generation++;
    },
  };
}
