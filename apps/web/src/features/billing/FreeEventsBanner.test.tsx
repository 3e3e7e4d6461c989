import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { BannerProvider, useActiveBanners } from '../../shared/lib/banners';
import { ApiError } from '../../shared/lib/http';
import { i18n } from '../../shared/lib/i18n';
import { profileFixture } from '../../test/session';
import { FreeEventsBanner } from './FreeEventsBanner';
import { setupBillingTestI18n, subscriptionFixture } from './testKit';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', isVerified: true }),
}));

const call = vi.mocked(api.call);

/** What the banner stack shows: each banner's text, as the layout renders it. */
function Shown() {
  const { t } = useTranslation();
  return (
    <ul aria-label="banners">
      {useActiveBanners().map((b) => (
        <li key={b.id} data-to={b.to}>
          {t(b.textKey, b.textOptions)}
        </li>
      ))}
    </ul>
  );
}

function serve(
  remaining: number,
  subscription: 'none' | 'active' | 'past_due' | 'canceled' | 'notConfigured',
) {
  call.mockImplementation((async (name: string) => {
    if (name === 'getProfile')
      return { success: true, data: { ...profileFixture, remaining_free_events: remaining } };
    if (name === 'getSubscription') {
      if (subscription === 'none') throw new ApiError('No subscription', 404, 'subscription.not_found');
      if (subscription === 'notConfigured')
        throw new ApiError('Payments are not configured on this server', 503, 'billing.not_configured');
      return { success: true, data: subscriptionFixture({ status: subscription }) };
    }
    throw new Error(`unexpected call ${name}`);
  }) as never);
}

function renderBanner() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BannerProvider>
        <FreeEventsBanner />
        <Shown />
      </BannerProvider>
    </QueryClientProvider>,
  );
}

const items = () => screen.getByRole('list', { name: 'banners' }).querySelectorAll('li');

beforeAll(setupBillingTestI18n);
beforeEach(async () => {
  call.mockReset();
  await i18n.changeLanguage('en');
});

describe('free-events banner (docs/product.md §9)', () => {
  it('says no free events are left at 0 and links to change plan', async () => {
    serve(0, 'none');
    renderBanner();
    const banner = await screen.findByText(/No free events left/);
    expect(banner).toHaveAttribute('data-to', '/settings/account/change-plan');
  });

  it('has its own wording for exactly one event', async () => {
    serve(1, 'none');
    renderBanner();
    expect(await screen.findByText('1 free event left. Choose a plan')).toBeInTheDocument();
  });

  it('counts the events left when there are more, up to 50', async () => {
    serve(50, 'canceled');
    renderBanner();
    expect(await screen.findByText('50 free events left. Choose a plan')).toBeInTheDocument();
  });

  it('shows again when a renewal failed: past_due is not an active subscription', async () => {
    serve(0, 'past_due');
    renderBanner();
    expect(await screen.findByText(/No free events left/)).toBeInTheDocument();
  });

  it('speaks German', async () => {
    await i18n.changeLanguage('de');
    serve(1, 'none');
    renderBanner();
    expect(await screen.findByText('Noch 1 kostenloses Ereignis. Tarif wählen')).toBeInTheDocument();
  });

  it('stays hidden above 50 without asking about the subscription', async () => {
    serve(51, 'none');
    renderBanner();
    await waitFor(() => expect(call).toHaveBeenCalledWith('getProfile'));
    expect(items()).toHaveLength(0);
    expect(call.mock.calls.map(([name]) => name)).not.toContain('getSubscription');
  });

  it('stays hidden for an active subscriber', async () => {
    serve(0, 'active');
    renderBanner();
    await waitFor(() => expect(call).toHaveBeenCalledWith('getSubscription'));
    await new Promise((r) => setTimeout(r, 20));
    expect(items()).toHaveLength(0);
  });

  it('stays hidden when the server has no billing (free plan without limits)', async () => {
    serve(0, 'notConfigured');
    renderBanner();
    await waitFor(() => expect(call).toHaveBeenCalledWith('getSubscription'));
    await new Promise((r) => setTimeout(r, 20));
    expect(items()).toHaveLength(0);
  });
});
