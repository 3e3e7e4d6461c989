import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { AuthApi } from '../auth/auth.module.js';
import { createUsersRepository, type BillingPatch } from './users.repository.js';
import { userErrors } from './users.errors.js';
import { registerUserRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

// What other modules may use besides the API: rules and errors they share.
export { userErrors } from './users.errors.js';
export type { BillingPatch, UserRow } from './users.repository.js';
export { derivePreferences } from './users.service.js';
/** Takes one of `remaining_free_events`, on the caller's transaction (activities, for a new activity). */
export { spendFreeEvent } from './users.repository.js';

/** The user's profile, settings and account deletion (which announces `user.deleted`). */
export function createUsersModule(context: ModuleContext, needs: { auth: Pick<AuthApi, 'deleteIdentity'> }) {
  const repo = createUsersRepository(context.database.db);
  const beforeDelete: ((userId: string) => Promise<void>)[] = [];
  const users = createUsersService({
    repo,
    freeEvents: context.config.FREE_EVENTS,
    deleteIdentity: (auth) => needs.auth.deleteIdentity(auth),
    events: context.events,
    beforeDelete: async (userId) => {
      for (const hook of beforeDelete) await hook(userId);
    },
  });
  return {
    api: {
      getProfile: (subject: string) => users.getProfile(subject),
      /** The user id of a token's subject; the "no profile yet" 404 when there is none. */
      requireIdBySubject: (subject: string) => users.requireId(subject),
      /** The user id of a token's subject, or undefined before the profile exists. */
      findIdBySubject: async (subject: string) => (await repo.findBySubject(subject))?.id,
      /** The whole profile row of a token's subject (billing reads its Stripe side); 404 when none. */
      requireRowBySubject: async (subject: string) => {
        const row = await repo.findBySubject(subject);
        if (!row) throw userErrors.notFound();
        return row;
      },
      findRowById: (userId: string) => repo.findById(userId),
      findRowByStripeCustomer: (customerId: string) => repo.findByStripeCustomer(customerId),
      /** Billing's columns of the profile (Stripe customer, subscription, refund, free-events notice). */
      updateBilling: (userId: string, patch: BillingPatch) => repo.updateBilling(userId, patch),
      setStripeCustomerOnce: (userId: string, customerId: string) => repo.setCustomerOnce(userId, customerId),
      claimFreeEventsNotice: (userId: string, at: Date) => repo.claimFreeEventsNotice(userId, at),
      setFreeEventsByEmail: (email: string, remaining: number) => repo.setFreeEventsByEmail(email, remaining),
      /** Runs `hook` before every account deletion; a failing hook stops it (billing's refund). */
      beforeDelete: (hook: (userId: string) => Promise<void>) => void beforeDelete.push(hook),
    },
    routes: (app, { guards }) => registerUserRoutes(app, { users, guards }),
  } satisfies AppModule<unknown>;
}
export type UsersApi = ReturnType<typeof createUsersModule>['api'];
