import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import CancelSubscriptionPage from './CancelSubscriptionPage';
import { renderAt, setupBillingTestI18n, subscriptionFixture } from './testKit';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', isVerified: true }),
}));

const call = vi.mocked(api.call);
const refund = { amount: 450, currency: 'usd' };
let cancelBodies: unknown[];
let subscription = subscriptionFixture();

beforeAll(setupBillingTestI18n);
beforeEach(() => {
  cancelBodies = [];
  subscription = subscriptionFixture();
  call.mockReset();
  call.mockImplementation((async (name: string, input?: { body?: { preview?: boolean } }) => {
    switch (name) {
      case 'getSubscription':
        return { success: true, data: subscription };
      case 'getProfile':
        throw new Error('not needed');
      case 'cancelSubscription': {
        cancelBodies.push(input?.body);
        if (input?.body?.preview)
          return { success: true, data: { canceled: false, refund, subscription: null } };
        subscription = subscriptionFixture({
          status: 'canceled',
          end_date: '2030-06-10T12:00:00Z',
          next_billing_date: null,
          refund,
        });
        return { success: true, data: { canceled: true, refund, subscription } };
      }
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});

const renderPage = () => renderAt(<CancelSubscriptionPage />, '/settings/account/cancel');

describe('cancel subscription (docs/product.md §2, §4 prorated refund)', () => {
  it('shows the refund from the preview before anything is cancelled', async () => {
    renderPage();
    expect(await screen.findByText('$4.50')).toBeInTheDocument();
    expect(cancelBodies).toEqual([{ preview: true }]);
  });

  it('cancels on confirmation and says what was refunded', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cancel subscription now' }));
    expect(
      await screen.findByText('Your subscription is cancelled. $4.50 has been refunded.'),
    ).toBeInTheDocument();
    expect(cancelBodies).toEqual([{ preview: true }, {}]);
    expect(screen.getByRole('link', { name: 'Back to plans' })).toHaveAttribute(
      'href',
      '/settings/account/change-plan',
    );
  });

  it('keeps the subscription when the user goes back', async () => {
    renderPage();
    expect(await screen.findByRole('link', { name: 'Keep my subscription' })).toHaveAttribute(
      'href',
      '/settings/account/change-plan',
    );
  });

  it('says there is nothing to cancel without a subscription', async () => {
    call.mockRejectedValue(new ApiError('No subscription', 404, 'subscription.not_found'));
    renderPage();
    expect(await screen.findByText('You have no active subscription to cancel.')).toBeInTheDocument();
    await waitFor(() => expect(cancelBodies).toEqual([]));
  });
});
