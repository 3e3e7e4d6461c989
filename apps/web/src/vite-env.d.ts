/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_AUTH_REDIRECT_ORIGINS?: string;
  /** The server of the phone apps (set by `npm run mobile:sync`); see shared/lib/apiOrigin.ts. */
  readonly VITE_SERVER_URL?: string;
}
