import type { BillingProvider } from '../../adapters/billing/billing.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { ChatApi } from '../chat/chat.module.js';
import type { NotificationsApi } from '../notifications/notifications.module.js';
import type { UsersApi } from '../users/users.module.js';
import { freeEventsUsedUp } from './billing.notice.js';
import { createBillingRepository } from './billing.repository.js';
import { registerBillingAdminRoutes, registerBillingRoutes } from './billing.routes.js';
import { CHANGE_PLAN_PATH, createBillingService } from './billing.service.js';
import { registerStripeWebhook } from './billing.webhooks.js';

export interface BillingNeeds {
  /** Stripe (`STRIPE_SECRET_KEY`…), or undefined: the payment calls answer 503 and nothing is limited. */
  provider: BillingProvider | undefined;
  users: Pick<
    UsersApi,
    | 'requireRowBySubject'
    | 'findRowById'
    | 'findRowByStripeCustomer'
    | 'updateBilling'
    | 'setStripeCustomerOnce'
    | 'claimFreeEventsNotice'
    | 'setFreeEventsByEmail'
    | 'beforeDelete'
  >;
  activities: Pick<ActivitiesApi, 'releaseHeld'>;
  chat: Pick<ChatApi, 'postAgentMessage'>;
  notifications: Pick<NotificationsApi, 'notify'>;
  /** The clock of the refund preview (tests share it with the fake Stripe's). */
  now?: () => Date;
}

/**
 * Paid plans through Stripe (docs/billing.md): the nine payment calls, the webhook that keeps each user's
 * subscription in step with Stripe, the cancellation before an account is deleted, and the one-time notice
 * when a user's free events run out.
 */
export function createBillingModule(context: ModuleContext, needs: BillingNeeds) {
  const { config, log, events } = context;
  const now = needs.now ?? (() => new Date());
  const repo = createBillingRepository(context.database.db);
  const billing = createBillingService({
    provider: needs.provider,
    users: needs.users,
    releaseHeld: (userId) => needs.activities.releaseHeld(userId),
    publicUrl: config.PUBLIC_URL,
    log,
    now,
  });

  // The subscription ends (with its refund) before the account's data goes; a Stripe failure stops deletion.
  needs.users.beforeDelete((userId) => billing.cancelForDeletion(userId));

  // Told once per exhaustion: the mark is cleared when a subscription starts or free events are granted.
  events.on('free-events.exhausted', async ({ userId }) => {
    if (!(await needs.users.claimFreeEventsNotice(userId, now()))) return;
    const row = await needs.users.findRowById(userId);
    if (!row) return;
    const notice = freeEventsUsedUp(row.preferredLanguage, `${config.PUBLIC_URL}${CHANGE_PLAN_PATH}`);
    const message = await needs.chat.postAgentMessage(userId, { text: notice.text });
    await needs.notifications.notify(userId, {
      kind: 'chat_message',
      messageUuid: message.message_uuid,
      title: notice.title,
      body: notice.text,
    });
    log.info({ userId }, 'free events used up: user told');
  });

  return {
    api: {
      /** Whether Stripe is configured (the payment calls answer 503 otherwise). */
      configured: billing.configured,
    },
    routes: async (app, { guards }) => {
      await registerBillingRoutes(app, { billing, guards });
      registerBillingAdminRoutes(app, { users: needs.users, guards });
      await registerStripeWebhook(app, { provider: needs.provider, billing, repo, log });
    },
  } satisfies AppModule<unknown>;
}
export type BillingApi = ReturnType<typeof createBillingModule>['api'];
