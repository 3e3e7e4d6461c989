import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import { profileFixture } from '../../test/session';
import ChangePlanPage from './ChangePlanPage';
import { openExternal } from './navigation';
import { monthly, renderAt, setupBillingTestI18n, subscriptionFixture, yearly } from './testKit';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', isVerified: true }),
}));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));
vi.mock('./navigation', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  openExternal: vi.fn(),
}));

const call = vi.mocked(api.call);
type Handler = (body: unknown) => unknown;

function serve(handlers: Record<string, Handler>) {
  call.mockImplementation((async (name: string, input?: { body?: unknown }) => {
    const handler = handlers[name];
    if (!handler) throw new Error(`unexpected call ${name}`);
    return handler(input?.body);
  }) as never);
}

const base: Record<string, Handler> = {
  getProfile: () => ({ success: true, data: { ...profileFixture, remaining_free_events: 1 } }),
  getPrices: () => ({ success: true, data: [monthly, yearly], in_app_payment: true }),
  getSubscription: () => {
    throw new ApiError('No subscription', 404, 'subscription.not_found');
  },
};

const renderPage = () => renderAt(<ChangePlanPage />, '/settings/account/change-plan');

beforeAll(setupBillingTestI18n);
beforeEach(() => {
  call.mockReset();
  vi.mocked(openExternal).mockReset();
});

describe('coming back from a payment that left the app (3-D Secure)', () => {
  const incomplete = () => ({
    success: true,
    data: subscriptionFixture({ status: 'incomplete', plan: 'yearly', price: yearly }),
  });
  const back = (status: string) =>
    `/settings/account/change-plan?payment_intent=pi_3ds&payment_intent_client_secret=pi_3ds_secret_x&redirect_status=${status}`;

  it('finishes the activation with the payment intent Stripe names', async () => {
    const bodies: unknown[] = [];
    serve({
      ...base,
      getSubscription: incomplete,
      activateSubscription: (body) => {
        bodies.push(body);
        return { success: true, data: subscriptionFixture({ plan: 'yearly', price: yearly }) };
      },
    });
    renderAt(<ChangePlanPage />, back('succeeded'), '/settings/account/change-plan');
    expect(await screen.findByText('Payment received. Your subscription is active.')).toBeInTheDocument();
    expect(bodies).toEqual([{ paymentIntentId: 'pi_3ds', priceId: 'price_yearly', planId: 'yearly' }]);
  });

  it('says the payment is processing when Stripe has not confirmed it yet (402)', async () => {
    serve({
      ...base,
      getSubscription: incomplete,
      activateSubscription: () => {
        throw new ApiError('Failed to activate subscription', 402, 'billing.payment_incomplete');
      },
    });
    renderAt(<ChangePlanPage />, back('succeeded'), '/settings/account/change-plan');
    expect(await screen.findByText(/Your payment is still processing/)).toBeInTheDocument();
  });

  it('says the payment failed when the bank refused it, without activating', async () => {
    serve({ ...base, getSubscription: incomplete });
    renderAt(<ChangePlanPage />, back('failed'), '/settings/account/change-plan');
    expect(await screen.findByText('The payment did not go through. Please try again.')).toBeInTheDocument();
    expect(call.mock.calls.map(([name]) => name)).not.toContain('activateSubscription');
  });
});

describe('change plan without a subscription', () => {
  it('shows the free events left and both plans with their prices', async () => {
    serve(base);
    renderPage();
    expect(await screen.findByRole('radio', { name: /Monthly\s*\$9\.99 \/ month/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /Yearly\s*\$99\.00 \/ year/ })).not.toBeChecked();
    const card = screen.getByRole('region', { name: 'Your plan' });
    expect(within(card).getByText('Free events left').nextSibling).toHaveTextContent('1');
  });

  it('offers to pay in the app only when the server can take a card there', async () => {
    serve(base);
    const first = renderPage();
    expect(await screen.findByRole('button', { name: 'Pay by card here' })).toBeInTheDocument();
    first.unmount();
    serve({ ...base, getPrices: () => ({ success: true, data: [monthly, yearly], in_app_payment: false }) });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Continue to secure checkout' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay by card here' })).not.toBeInTheDocument();
  });

  it('starts hosted Checkout for the chosen plan and goes to its page', async () => {
    const bodies: unknown[] = [];
    serve({
      ...base,
      createCheckoutSession: (body) => {
        bodies.push(body);
        return { success: true, data: { sessionId: 'cs_1', url: 'https://checkout.example/cs_1' } };
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('radio', { name: /Yearly/ }));
    await user.click(screen.getByRole('button', { name: 'Continue to secure checkout' }));
    await waitFor(() => expect(openExternal).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    expect(bodies).toEqual([{ priceId: 'price_yearly' }]);
  });

  it('shows the §8 message when Checkout cannot start', async () => {
    serve({
      ...base,
      createCheckoutSession: () => {
        throw new ApiError('Failed to start checkout process', 502, 'billing.provider_failed');
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Continue to secure checkout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to start checkout process');
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('shows the §8 message when the prices do not load', async () => {
    serve({
      ...base,
      getPrices: () => {
        throw new ApiError('Failed to load subscription prices', 502, 'billing.provider_failed');
      },
    });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load subscription prices');
  });
});

describe('change plan for an active subscriber', () => {
  const active = {
    ...base,
    getSubscription: () => ({ success: true, data: subscriptionFixture() }),
  };

  it('shows the plan, its status and the next payment date', async () => {
    serve(active);
    renderPage();
    const card = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('July 1, 2030')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Cancel subscription' })).toHaveAttribute(
      'href',
      '/settings/account/cancel',
    );
  });

  it('switches to yearly after a confirmation, with the price and plan', async () => {
    const bodies: unknown[] = [];
    serve({
      ...active,
      updateSubscription: (body) => {
        bodies.push(body);
        return { success: true, data: subscriptionFixture({ plan: 'yearly', price: yearly }) };
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Switch to yearly billing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch to the Yearly plan?' });
    expect(dialog).toHaveTextContent('$99.00 / year');
    expect(bodies).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Switch plan' }));
    await waitFor(() => expect(bodies).toEqual([{ priceId: 'price_yearly', planId: 'yearly' }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says so when the current plan is chosen', async () => {
    serve(active);
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('radio', { name: /Monthly/ }));
    expect(screen.getByText('This is your current plan')).toBeInTheDocument();
  });

  it('opens the billing portal, or says it could not', async () => {
    let fail = true;
    serve({
      ...active,
      createPortalSession: () => {
        if (fail) throw new ApiError('Could not open billing portal', 502, 'billing.provider_failed');
        return { success: true, data: { url: 'https://portal.example/p1' } };
      },
    });
    const user = userEvent.setup();
    renderPage();
    const button = await screen.findByRole('button', { name: 'Manage payment details and invoices' });
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not open billing portal');
    fail = false;
    await user.click(button);
    await waitFor(() => expect(openExternal).toHaveBeenCalledWith('https://portal.example/p1'));
  });
});

describe('a server without payments', () => {
  it('shows a free plan without limits and nothing to pay', async () => {
    serve({
      ...base,
      getSubscription: () => {
        throw new ApiError('Payments are not configured on this server', 503, 'billing.not_configured');
      },
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Free plan, no limits' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to secure checkout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(call.mock.calls.map(([name]) => name)).not.toContain('getPrices');
  });
});
