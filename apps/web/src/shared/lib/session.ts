import type { AuthSession, AuthUser } from '@homesitter/contract';
import { decodeJwtClaims } from './jwt';

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface SessionState {
  status: AuthStatus;
  user: AuthUser | null;
}

interface StoredSession {
  idToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  user: AuthUser;
}

export type SessionEvent = 'loggedIn' | 'loggedOut';

export interface SessionStoreOptions {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** POST /api/auth/token. */
  refresh: (refreshToken: string) => Promise<AuthSession>;
  /** POST /api/auth/sign-out; failures are ignored (the local session ends regardless). */
  revoke: (refreshToken: string) => Promise<unknown>;
  now?: () => number;
}

export const SESSION_STORAGE_KEY = 'homesitter.session';
/** Refresh the ID token this long before it expires. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000;

function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.idToken === 'string' &&
    typeof v.refreshToken === 'string' &&
    typeof v.expiresAt === 'number' &&
    typeof v.user === 'object' &&
    v.user !== null
  );
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/**
 * The auth session: tokens in local storage, an ID token refreshed before it expires, and a state React
 * reads through `useSyncExternalStore`. Auth state is `loading` until `init()` has looked at storage.
 */
export function createSessionStore(options: SessionStoreOptions) {
  const now = options.now ?? Date.now;
  let stored: StoredSession | null = null;
  let state: SessionState = { status: 'loading', user: null };
  let refreshing: Promise<string | null> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();
  const eventListeners = new Set<(event: SessionEvent) => void>();

  function setState(next: SessionState) {
    const wasSignedIn = state.status === 'signedIn';
    state = next;
    listeners.forEach((l) => l());
    if (!wasSignedIn && next.status === 'signedIn') eventListeners.forEach((l) => l('loggedIn'));
    if (wasSignedIn && next.status === 'signedOut') eventListeners.forEach((l) => l('loggedOut'));
  }

  function persist(next: StoredSession | null) {
    stored = next;
    if (next) options.storage.setItem(SESSION_STORAGE_KEY, JSON.stringify(next));
    else options.storage.removeItem(SESSION_STORAGE_KEY);
  }

  function scheduleRefresh() {
    clearTimeout(timer);
    if (!stored) return;
    const delay = Math.max(0, stored.expiresAt - REFRESH_MARGIN_MS - now());
    timer = setTimeout(() => void refresh().catch(() => undefined), delay);
  }

  function fromSession(session: AuthSession): StoredSession {
    const claims = decodeJwtClaims(session.idToken);
    const exp = typeof claims?.exp === 'number' ? claims.exp * 1000 : now() + session.expiresIn * 1000;
    const claimVerified = claims?.email_verified === true;
    return {
      idToken: session.idToken,
      refreshToken: session.refreshToken,
      expiresAt: exp,
      user: { ...session.user, emailVerified: session.user.emailVerified || claimVerified },
    };
  }

  /** Starts a session from a sign-up, sign-in or token answer. */
  function establish(session: AuthSession) {
    persist(fromSession(session));
    scheduleRefresh();
    setState({ status: 'signedIn', user: stored!.user });
  }

  function endLocally() {
    clearTimeout(timer);
    persist(null);
    setState({ status: 'signedOut', user: null });
  }

  async function refresh(): Promise<string | null> {
    if (!stored) return null;
    if (refreshing) return refreshing;
    const refreshToken = stored.refreshToken;
    refreshing = options
      .refresh(refreshToken)
      .then((session) => {
        establish(session);
        return session.idToken;
      })
      .catch((error: unknown) => {
        const status = (error as { status?: unknown }).status;
        if (status === 401 || status === 400) endLocally();
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
    return refreshing;
  }

  /** Reads the stored session; refreshes it first when the ID token is (nearly) expired. */
  async function init() {
    let raw: unknown = null;
    try {
      raw = JSON.parse(options.storage.getItem(SESSION_STORAGE_KEY) ?? 'null');
    } catch {
      raw = null;
    }
    if (!isStoredSession(raw)) {
      persist(null);
      setState({ status: 'signedOut', user: null });
      return;
    }
    stored = raw;
    if (raw.expiresAt - REFRESH_MARGIN_MS > now()) {
      scheduleRefresh();
      setState({ status: 'signedIn', user: raw.user });
      return;
    }
    try {
      await refresh();
    } catch {
      // Offline: keep the stored user; the next call refreshes or signs out on 401.
      if (stored) setState({ status: 'signedIn', user: stored.user });
      else setState({ status: 'signedOut', user: null });
    }
  }

  return {
    getState: () => state,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** `loggedIn` / `loggedOut` (docs/product.md §4), emitted when the state changes. */
    on(listener: (event: SessionEvent) => void) {
      eventListeners.add(listener);
      return () => {
        eventListeners.delete(listener);
      };
    },
    init,
    establish,
    /** A valid ID token: the stored one, or a refreshed one when it expires within the margin. */
    async getIdToken(force = false): Promise<string | null> {
      if (!stored) return null;
      if (force || stored.expiresAt - REFRESH_MARGIN_MS <= now()) return refresh();
      return stored.idToken;
    },
    /** A new ID token now (e.g. after the email was verified, to pick up `email_verified`). */
    refresh,
    isVerified(user: AuthUser | null = state.user) {
      // docs/product.md §6: a listed test account counts as verified; the server says which (verificationExempt).
      return !!user && (user.emailVerified || user.verificationExempt === true);
    },
    /** Revokes the refresh token on the server (best effort) and ends the session here. */
    async signOut() {
      const refreshToken = stored?.refreshToken;
      endLocally();
      if (refreshToken) await options.revoke(refreshToken).catch(() => undefined);
    },
    endLocally,
    /** Another tab changed the stored session. */
    syncFromStorage() {
      void init();
    },
  };
}
