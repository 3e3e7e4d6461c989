import type { VerifiedSession } from '@homesitter/contract';
import { screen } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import SubscriptionCanceledPage from './SubscriptionCanceledPage';
import SubscriptionSuccessPage from './SubscriptionSuccessPage';
import { renderAt, setupBillingTestI18n, subscriptionFixture } from './testKit';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', isVerified: true }),
}));

const call = vi.mocked(api.call);

function session(over: Partial<VerifiedSession>): VerifiedSession {
  return { sessionId: 'cs_1', status: 'complete', payment_status: 'paid', subscription: null, ...over };
}

/** Answers verify-session with each of `answers` in turn (the last one repeats). */
function verifyAnswers(...answers: (VerifiedSession | Error)[]) {
  call.mockImplementation((async (name: string, input?: { params?: { sessionId?: string } }) => {
    if (name === 'verifyCheckoutSession') {
      expect(input?.params?.sessionId).toBe('cs_1');
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer instanceof Error) throw answer;
      return { success: true, data: answer };
    }
    if (name === 'getSubscription') return { success: true, data: subscriptionFixture() };
    if (name === 'getProfile') throw new Error('not needed');
    throw new Error(`unexpected call ${name}`);
  }) as never);
}

const verifyCalls = () => call.mock.calls.filter(([name]) => name === 'verifyCheckoutSession').length;
const renderSuccess = (path = '/subscription/success?session_id=cs_1') =>
  renderAt(<SubscriptionSuccessPage pollDelaysMs={[5, 5, 5]} />, path, '/subscription/success');

beforeAll(setupBillingTestI18n);
beforeEach(() => {
  call.mockReset();
});

describe('subscription success', () => {
  it('verifies the session and shows the plan', async () => {
    verifyAnswers(session({ subscription: subscriptionFixture({ plan: 'yearly' }) }));
    renderSuccess();
    expect(screen.getByRole('status')).toHaveTextContent('Confirming your payment…');
    expect(await screen.findByText('Thank you! Your Yearly plan is active.')).toBeInTheDocument();
    expect(verifyCalls()).toBe(1);
  });

  it('waits while the session is open or the webhook has not arrived, then shows the plan', async () => {
    verifyAnswers(
      session({ status: 'open', payment_status: 'unpaid' }),
      session({ subscription: null }),
      session({ subscription: subscriptionFixture() }),
    );
    renderSuccess();
    expect(await screen.findByText('Thank you! Your Monthly plan is active.')).toBeInTheDocument();
    expect(verifyCalls()).toBe(3);
  });

  it('gives up after a few tries with the §8 message', async () => {
    verifyAnswers(session({ status: 'open', payment_status: 'unpaid' }));
    renderSuccess();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to verify subscription. Please contact support.',
    );
    expect(verifyCalls()).toBe(4);
  });

  it('fails at once for a session that is not the user’s', async () => {
    verifyAnswers(new ApiError('Not found', 404, 'billing.session_not_found'));
    renderSuccess();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to verify subscription. Please contact support.',
    );
    expect(verifyCalls()).toBe(1);
  });

  it('fails without a session id', async () => {
    verifyAnswers(session({}));
    renderSuccess('/subscription/success');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to verify subscription');
    expect(verifyCalls()).toBe(0);
  });
});

describe('subscription canceled', () => {
  it('says the payment was cancelled and leads back to the plans', () => {
    renderAt(<SubscriptionCanceledPage />, '/subscription/canceled');
    expect(screen.getByRole('status')).toHaveTextContent('Payment cancelled.');
    expect(screen.getByRole('link', { name: 'Back to plans' })).toHaveAttribute(
      'href',
      '/settings/account/change-plan',
    );
  });
});
