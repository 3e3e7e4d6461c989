import type { PaymentIntentResult, Stripe } from '@stripe/stripe-js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import { notify } from '../../shared/lib/toast';
import { PaymentDialog } from './PaymentDialog';
import { loadStripeJs } from './stripeJs';
import { monthly, setupBillingTestI18n, subscriptionFixture } from './testKit';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));
// Stripe.js comes from js.stripe.com, which tests cannot reach: a fake with what Elements needs.
vi.mock('./stripeJs', () => ({ loadStripeJs: vi.fn() }));

const call = vi.mocked(api.call);
const intent = {
  paymentIntentId: 'pi_1',
  clientSecret: 'pi_1_secret_x',
  publishableKey: 'pk_test_1',
  amount: 999,
  currency: 'usd',
};

function fakeStripe(confirm: () => Promise<PaymentIntentResult>) {
  const element = { mount: vi.fn(), on: vi.fn(), off: vi.fn(), destroy: vi.fn(), update: vi.fn() };
  const elements = { create: vi.fn(() => element), getElement: vi.fn(() => element), update: vi.fn() };
  const stripe = {
    elements: vi.fn(() => elements),
    createToken: vi.fn(),
    createPaymentMethod: vi.fn(),
    confirmCardPayment: vi.fn(),
    confirmPayment: vi.fn(confirm),
  };
  return { stripe, elements };
}

let activateBodies: unknown[];

function serve(over: { createPaymentIntent?: () => unknown } = {}) {
  activateBodies = [];
  call.mockImplementation((async (name: string, input?: { body?: unknown }) => {
    if (name === 'createPaymentIntent') {
      expect(input?.body).toEqual({ priceId: 'price_monthly' });
      return over.createPaymentIntent ? over.createPaymentIntent() : { success: true, data: intent };
    }
    if (name === 'activateSubscription') {
      activateBodies.push(input?.body);
      return { success: true, data: subscriptionFixture() };
    }
    throw new Error(`unexpected call ${name}`);
  }) as never);
}

function renderDialog() {
  const onClose = vi.fn();
  const onPaid = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PaymentDialog price={monthly} onClose={onClose} onPaid={onPaid} />
    </QueryClientProvider>,
  );
  return { onClose, onPaid, dialog: screen.getByRole('dialog', { name: 'Pay by card' }) };
}

beforeAll(setupBillingTestI18n);
beforeEach(() => {
  call.mockReset();
  vi.mocked(loadStripeJs).mockReset();
  vi.mocked(notify.info).mockReset();
});

describe('payment dialog', () => {
  it('confirms the payment without a redirect, then activates the subscription', async () => {
    serve();
    const { stripe, elements } = fakeStripe(async () => ({
      paymentIntent: { id: 'pi_1', status: 'succeeded' } as PaymentIntentResult['paymentIntent'] & object,
    }));
    vi.mocked(loadStripeJs).mockResolvedValue(stripe as unknown as Stripe);
    const user = userEvent.setup();
    const { dialog, onPaid } = renderDialog();
    expect(dialog).toHaveTextContent('Monthly plan, $9.99.');
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $9.99' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith(subscriptionFixture()));
    expect(loadStripeJs).toHaveBeenCalledWith('pk_test_1');
    expect(stripe.elements).toHaveBeenCalledWith(expect.objectContaining({ clientSecret: 'pi_1_secret_x' }));
    expect(stripe.confirmPayment).toHaveBeenCalledWith(
      expect.objectContaining({ elements, redirect: 'if_required' }),
    );
    expect(activateBodies).toEqual([
      { paymentIntentId: 'pi_1', priceId: 'price_monthly', planId: 'monthly' },
    ]);
    expect(notify.info).not.toHaveBeenCalled();
  });

  it('says the payment failed when the card is declined, and activates nothing', async () => {
    serve();
    const { stripe } = fakeStripe(async () => ({
      error: { type: 'card_error', message: 'Your card was declined.' },
    }));
    vi.mocked(loadStripeJs).mockResolvedValue(stripe as unknown as Stripe);
    const user = userEvent.setup();
    const { dialog, onPaid } = renderDialog();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $9.99' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Payment failed. Please try again.');
    expect(activateBodies).toEqual([]);
    expect(onPaid).not.toHaveBeenCalled();
    expect(within(dialog).getByRole('button', { name: 'Pay $9.99' })).toBeEnabled();
  });

  it('does not activate a payment still processing: it says so and leaves the rest to the webhooks', async () => {
    serve();
    const { stripe } = fakeStripe(async () => ({
      paymentIntent: { id: 'pi_1', status: 'processing' } as PaymentIntentResult['paymentIntent'] & object,
    }));
    vi.mocked(loadStripeJs).mockResolvedValue(stripe as unknown as Stripe);
    const user = userEvent.setup();
    const { dialog, onPaid, onClose } = renderDialog();
    await user.click(await within(dialog).findByRole('button', { name: 'Pay $9.99' }));
    expect(await within(dialog).findByText(/still processing the payment/)).toBeInTheDocument();
    expect(activateBodies).toEqual([]);
    expect(onPaid).not.toHaveBeenCalled();
    expect(within(dialog).queryByRole('button', { name: 'Pay $9.99' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
    expect(notify.info).not.toHaveBeenCalled();
  });

  it('says "Payment cancelled." when closed before paying', async () => {
    serve();
    const { stripe } = fakeStripe(async () => ({ error: { type: 'card_error' } }));
    vi.mocked(loadStripeJs).mockResolvedValue(stripe as unknown as Stripe);
    const user = userEvent.setup();
    const { dialog, onClose } = renderDialog();
    await within(dialog).findByRole('button', { name: 'Pay $9.99' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(notify.info).toHaveBeenCalledWith('Payment cancelled.');
    expect(onClose).toHaveBeenCalled();
  });

  it('says it could not initialize the payment when Stripe.js does not load', async () => {
    serve();
    vi.mocked(loadStripeJs).mockResolvedValue(null);
    const { dialog } = renderDialog();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to initialize payment.');
  });

  it('shows the §8 message when the payment intent cannot be created', async () => {
    serve({
      createPaymentIntent: () => {
        throw new ApiError('Failed to create payment intent', 502, 'billing.provider_failed');
      },
    });
    const { dialog } = renderDialog();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to create payment intent');
    expect(loadStripeJs).not.toHaveBeenCalled();
  });
});
