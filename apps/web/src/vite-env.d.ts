/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_VERIFICATION_EXEMPT_EMAILS?: string;
  readonly VITE_AUTH_REDIRECT_ORIGINS?: string;
}
