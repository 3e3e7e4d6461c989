import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { AuthApi } from '../auth/auth.module.js';
import { createUsersRepository } from './users.repository.js';
import { registerUserRoutes } from './users.routes.js';
import { createUsersService } from './users.service.js';

// What other modules may use besides the API: rules and errors they share.
export { userErrors } from './users.errors.js';
export { derivePreferences } from './users.service.js';
/** Takes one of `remaining_free_events`, on the caller's transaction (activities, for a new activity). */
export { spendFreeEvent } from './users.repository.js';

/** The user's profile, settings and account deletion (which announces `user.deleted`). */
export function createUsersModule(context: ModuleContext, needs: { auth: Pick<AuthApi, 'deleteIdentity'> }) {
  const repo = createUsersRepository(context.database.db);
  const users = createUsersService({
    repo,
    freeEvents: context.config.FREE_EVENTS,
    deleteLocalIdentity: (identityId) => needs.auth.deleteIdentity(identityId),
    events: context.events,
  });
  return {
    api: {
      getProfile: (subject: string) => users.getProfile(subject),
      /** The user id of a token's subject; the "no profile yet" 404 when there is none. */
      requireIdBySubject: (subject: string) => users.requireId(subject),
      /** The user id of a token's subject, or undefined before the profile exists. */
      findIdBySubject: async (subject: string) => (await repo.findBySubject(subject))?.id,
    },
    routes: (app, { guards }) => registerUserRoutes(app, { users, guards }),
  } satisfies AppModule<unknown>;
}
export type UsersApi = ReturnType<typeof createUsersModule>['api'];
