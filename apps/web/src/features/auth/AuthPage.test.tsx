import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../shared/lib/api';
import { setupTestI18n } from '../../test/i18n';
import { fakeAuthSession } from '../../test/session';
import AuthPage from './AuthPage';
import { leaveTo } from './redirect';
import type * as Redirect from './redirect';

vi.mock('./redirect', async (original) => ({
  ...(await original<typeof Redirect>()),
  leaveTo: vi.fn(),
}));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

/** The helper's `/sign-in` sends the browser here with a one-time state in its callback. */
const HELPER_CALLBACK = 'http://127.0.0.1:17429/callback?state=one-time';
/** The token the server hands out on refresh: a fresh one for the helper. */
const fresh = fakeAuthSession(true, 'sam@example.com');

beforeAll(setupTestI18n);
beforeEach(() => {
  vi.mocked(leaveTo).mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.endsWith('/api/auth/token')) return Response.json(fresh);
      if (url.endsWith('/api/signup/status'))
        return Response.json({ success: true, data: { enabled: true } });
      return Response.json({}, { status: 404 });
    }),
  );
});
afterEach(() => {
  session.endLocally();
  vi.unstubAllGlobals();
});

function renderAuth(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/auth" element={<AuthPage />} />
          <Route path="/verify-email" element={<p>verify page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('signing the desktop helper in from a signed-in browser', () => {
  const path = `/auth?redirect=${encodeURIComponent(HELPER_CALLBACK)}`;

  it('offers “Continue as” and sends a fresh token to the helper, without the password', async () => {
    session.establish(fakeAuthSession(true, 'sam@example.com'));
    const user = userEvent.setup();
    renderAuth(path);
    expect(screen.getByText(/The Homesitter helper on this computer asks to sign in/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue as sam@example.com' }));
    await waitFor(() => expect(leaveTo).toHaveBeenCalledOnce());
    expect(vi.mocked(leaveTo).mock.calls[0]![0]).toBe(
      `${HELPER_CALLBACK}&token=${encodeURIComponent(fresh.idToken)}`,
    );
  });

  it('lets the user sign in with another account instead', async () => {
    session.establish(fakeAuthSession(true, 'sam@example.com'));
    const user = userEvent.setup();
    renderAuth(path);
    await user.click(screen.getByRole('button', { name: 'Use another account' }));
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });

  it('keeps the usual behaviour without a redirect, or with an untrusted one', async () => {
    session.establish(fakeAuthSession(true, 'sam@example.com'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderAuth(`/auth?redirect=${encodeURIComponent('https://evil.example.com/steal')}`);
    expect(await screen.findByText('verify page')).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('Ignoring an untrusted redirect target');
    warn.mockRestore();
  });

  it('asks a signed-out visitor to sign in as before', async () => {
    await session.init();
    renderAuth(path);
    expect(screen.queryByRole('button', { name: /Continue as/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
  });
});
