import type { UserProfile } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { notify } from '../../shared/lib/toast';
import { profileFixture } from '../../test/session';
import { profileKey } from '../user/profile';
import { useProfileToggle } from './useProfileToggle';

vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

function setup(save: (on: boolean) => Promise<UserProfile>) {
  const client = new QueryClient();
  client.setQueryData(profileKey, profileFixture);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(
    () =>
      useProfileToggle<boolean>({
        save,
        apply: (p, on) => ({ ...p, is_amnesia_mode_enabled: on }),
        successText: (on) => (on ? 'Amnesia mode enabled' : 'Amnesia mode disabled'),
        failureText: () => 'Failed to update amnesia mode',
      }),
    { wrapper },
  );
  const amnesia = () => client.getQueryData<UserProfile>(profileKey)?.is_amnesia_mode_enabled;
  return { result, amnesia };
}

describe('optimistic toggles (§4)', () => {
  it('updates at once and reverts with the §8 toast when the server fails', async () => {
    let fail!: (e: Error) => void;
    const { result, amnesia } = setup(() => new Promise((_, reject) => (fail = reject)));
    act(() => result.current.mutate(true));
    await waitFor(() => expect(amnesia()).toBe(true));
    act(() => fail(new Error('Failed to update amnesia mode')));
    await waitFor(() => expect(amnesia()).toBe(false));
    expect(notify.error).toHaveBeenCalledWith('Failed to update amnesia mode');
  });

  it('keeps the server answer and confirms with a toast on success', async () => {
    const { result, amnesia } = setup(async (on) => ({ ...profileFixture, is_amnesia_mode_enabled: on }));
    act(() => result.current.mutate(true));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith('Amnesia mode enabled'));
    expect(amnesia()).toBe(true);
  });
});
