import type { SignupRepository } from './signup.repository.js';

const SIGNUP_ENABLED_KEY = 'signup_enabled';

/**
 * The sign-up gate. `SIGNUP_ENABLED` is the default; `npm run admin -- signup on|off` stores an override in
 * the database, so every instance sees the change without a restart.
 */
export function createSignupService(deps: { repo: SignupRepository; enabledByDefault: boolean }) {
  const { repo } = deps;
  return {
    async isEnabled(): Promise<boolean> {
      const stored = await repo.getSetting(SIGNUP_ENABLED_KEY);
      return typeof stored === 'boolean' ? stored : deps.enabledByDefault;
    },
    setEnabled: (enabled: boolean) => repo.setSetting(SIGNUP_ENABLED_KEY, enabled),
    joinWaitlist: (email: string) => repo.addToWaitlist(email),
    async listWaitlist() {
      const rows = await repo.listWaitlist();
      return rows.map((r) => ({ email: r.email, created_at: r.createdAt.toISOString() }));
    },
  };
}
export type SignupService = ReturnType<typeof createSignupService>;
