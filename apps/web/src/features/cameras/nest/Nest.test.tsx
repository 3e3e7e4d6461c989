import type { NestLink } from '@homesitter/contract';
import { NEST_LINK_OUTCOMES } from '@homesitter/contract/runtime';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../shared/lib/api';
import { setupCamerasTestI18n } from '../../../test/i18n';
import enCameras from '../../../../public/locales/en/cameras.json';
import deCameras from '../../../../public/locales/de/cameras.json';
import { NestAccount } from './NestAccount';
import { NestChoice } from './NestChoice';
import { NestOutcome } from './NestOutcome';

vi.mock('../../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

const call = vi.mocked(api.call);
let link: NestLink;
const CONSENT = 'https://nestservices.google.com/partnerconnections/p/auth?state=s';

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  link = { configured: true, status: 'unlinked', linked_at: null, cameras: [] };
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    switch (name) {
      case 'getNestLink':
        return { success: true, data: link };
      case 'linkNest':
        return { success: true, data: { url: CONSENT } };
      case 'unlinkNest':
        link = { ...link, status: 'unlinked', linked_at: null, cameras: [] };
        return { success: true };
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});

function Where() {
  return <p data-testid="where">{useLocation().search}</p>;
}

function renderAt(element: ReactNode, path = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {element}
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Add camera → Google Nest', () => {
  it('says what will happen and opens Google’s consent page', async () => {
    const go = vi.fn();
    renderAt(<NestChoice go={go} />);
    expect(await screen.findByText(/sign in with the Google account/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(CONSENT));
  });

  it('says this server is not set up for Nest and links the operator guide, with no button', async () => {
    link = { ...link, configured: false };
    renderAt(<NestChoice go={vi.fn()} />);
    expect(await screen.findByText(/not set up for Google Nest/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Operator guide' })).toHaveAttribute('href', '/api/nest/guide');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('the outcome of the consent round trip', () => {
  it.each(NEST_LINK_OUTCOMES)(
    'shows %s in its own words, en and de, and can be dismissed',
    async (outcome) => {
      expect(enCameras.nest.outcomes[outcome]).toBeTruthy();
      expect(deCameras.nest.outcomes[outcome]).toBeTruthy();
      expect(deCameras.nest.outcomes[outcome]).not.toBe(enCameras.nest.outcomes[outcome]);
      renderAt(<NestOutcome />, `/cameras?nest=${outcome}`);
      expect(screen.getByTestId('nest-outcome')).toHaveTextContent(enCameras.nest.outcomes[outcome]);
      await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByTestId('nest-outcome')).toBeNull();
      expect(screen.getByTestId('where')).toHaveTextContent(/^$/);
    },
  );

  it('shows nothing for an unknown outcome', () => {
    renderAt(<NestOutcome />, '/cameras?nest=whatever');
    expect(screen.queryByTestId('nest-outcome')).toBeNull();
  });
});

describe('Settings → camera setup: the linked account', () => {
  it('lists its cameras and unlinks only after confirmation', async () => {
    link = {
      configured: true,
      status: 'linked',
      linked_at: '2026-01-01T10:00:00.000Z',
      cameras: [
        {
          camera_uuid: 'c1',
          name: 'Front Door Doorbell',
          kind: 'doorbell',
          protocols: ['WEB_RTC'],
          configuration_status: 'configured',
        },
      ],
    };
    renderAt(<NestAccount go={vi.fn()} />);
    const list = await screen.findByTestId('nest-cameras');
    expect(within(list).getByRole('link', { name: 'Front Door Doorbell' })).toBeInTheDocument();
    expect(within(list).getByText('Doorbell')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Unlink' }));
    expect(call.mock.calls.some(([name]) => name === 'unlinkNest')).toBe(false);
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(call.mock.calls.some(([name]) => name === 'unlinkNest')).toBe(true));
    expect(await screen.findByText('No Google account is linked.')).toBeInTheDocument();
  });

  it('offers Reconnect when Google refused the link', async () => {
    link = { configured: true, status: 'failed', linked_at: '2026-01-01T10:00:00.000Z', cameras: [] };
    const go = vi.fn();
    renderAt(<NestAccount go={go} />);
    expect(await screen.findByText(/Google refused the link/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith(CONSENT));
  });
});
