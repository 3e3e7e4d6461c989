import type { Price, Subscription } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import deBilling from '../../../public/locales/de/billing.json';
import enBilling from '../../../public/locales/en/billing.json';
import { setupTestI18n } from '../../test/i18n';

/** Test support for the billing screens (not part of the app bundle). */

export async function setupBillingTestI18n() {
  const i18n = await setupTestI18n();
  i18n.addResourceBundle('en', 'billing', enBilling);
  i18n.addResourceBundle('de', 'billing', deBilling);
  return i18n;
}

export const monthly: Price = {
  id: 'price_monthly',
  plan: 'monthly',
  amount: 999,
  currency: 'usd',
  interval: 'month',
};
export const yearly: Price = {
  id: 'price_yearly',
  plan: 'yearly',
  amount: 9900,
  currency: 'usd',
  interval: 'year',
};

export function subscriptionFixture(over: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_1',
    status: 'active',
    plan: 'monthly',
    price: monthly,
    next_billing_date: '2030-07-01T12:00:00Z',
    end_date: null,
    cancel_at_period_end: false,
    canceled_at: null,
    refund: null,
    remaining_free_events: 0,
    ...over,
  };
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

/** Renders `element` at `path` (matched by `route`) with a fresh query client. */
export function renderAt(element: ReactNode, path: string, route = path.split('?')[0]!) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
