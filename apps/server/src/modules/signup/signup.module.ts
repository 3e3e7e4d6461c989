import type { AppModule, ModuleContext } from '../../platform/module.js';
import { registerAdminRoutes } from './admin.routes.js';
import { createSignupRepository } from './signup.repository.js';
import { registerSignupRoutes } from './signup.routes.js';
import { createSignupService } from './signup.service.js';

/** Whether sign-up is open, and the waitlist; the operator switches it (`npm run admin`). */
export function createSignupModule(context: ModuleContext) {
  const signup = createSignupService({
    repo: createSignupRepository(context.database.db),
    enabledByDefault: context.config.SIGNUP_ENABLED,
  });
  return {
    api: { isEnabled: () => signup.isEnabled() },
    routes: (app, { guards, rateLimit }) => {
      registerSignupRoutes(app, { signup, guards, rateLimit });
      registerAdminRoutes(app, { signup, guards });
    },
  } satisfies AppModule<unknown>;
}
export type SignupApi = ReturnType<typeof createSignupModule>['api'];
