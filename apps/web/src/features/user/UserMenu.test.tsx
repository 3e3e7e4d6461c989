import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../shared/lib/http';
import { notify } from '../../shared/lib/toast';
import { disableWebPush } from '../../shared/lib/webPush';
import { setupTestI18n } from '../../test/i18n';
import { profileFixture } from '../../test/session';
import { profileKey } from './profile';
import { UserMenu } from './UserMenu';

const mocks = vi.hoisted(() => ({ signOut: vi.fn(async () => undefined) }));
vi.mock('../../shared/lib/api', () => {
  // One state object: useSyncExternalStore needs the same snapshot until it changes.
  const signedIn = { status: 'signedIn', user: { uid: 'u1', email: 'sam@example.com', emailVerified: true } };
  return {
    api: { call: vi.fn() },
    session: {
      subscribe: () => () => undefined,
      getState: () => signedIn,
      isVerified: () => true,
      signOut: mocks.signOut,
    },
  };
});
vi.mock('../../shared/lib/webPush', () => ({ disableWebPush: vi.fn() }));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

beforeAll(setupTestI18n);
beforeEach(() => vi.clearAllMocks());

async function signOutThroughTheMenu() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(profileKey, profileFixture);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UserMenu />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByTestId('user-menu'));
  await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
}

describe('signing out (docs/product.md §4 "Push state")', () => {
  it("stops this browser's pushes first, then ends the session", async () => {
    vi.mocked(disableWebPush).mockResolvedValue();
    await signOutThroughTheMenu();
    await waitFor(() => expect(mocks.signOut).toHaveBeenCalled());
    expect(vi.mocked(disableWebPush).mock.invocationCallOrder[0]).toBeLessThan(
      mocks.signOut.mock.invocationCallOrder[0]!,
    );
    expect(notify.success).toHaveBeenCalledWith('Signed out');
  });

  it('is aborted with an error when the push token cannot be disabled', async () => {
    vi.mocked(disableWebPush).mockRejectedValue(new ApiError('Network error', 0, 'network_error'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await signOutThroughTheMenu();
    await waitFor(() =>
      expect(notify.error).toHaveBeenCalledWith('Could not turn off notifications for this device.'),
    );
    expect(mocks.signOut).not.toHaveBeenCalled();
  });
});
