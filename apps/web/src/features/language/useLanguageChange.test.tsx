import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { session } from '../../shared/lib/api';
import { i18n, LANGUAGE_STORAGE_KEY } from '../../shared/lib/i18n';
import { notify } from '../../shared/lib/toast';
import { setupTestI18n } from '../../test/i18n';
import { fakeAuthSession, profileFixture } from '../../test/session';
import { dropdownSide, useLanguageChange, type SaveLanguage } from './useLanguageChange';

vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

beforeAll(setupTestI18n);
afterEach(async () => {
  session.endLocally();
  await i18n.changeLanguage('en');
});

function setup(save: SaveLanguage) {
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useLanguageChange(save), { wrapper }).result;
}

describe('language change (§4)', () => {
  it('previews a choice until confirmed; cancel goes back to the saved language', async () => {
    const save = vi.fn<SaveLanguage>();
    const result = setup(save);
    act(() => void result.current.choose('de'));
    expect(result.current.pending).toBe('de');
    expect(i18n.language).toBe('de');
    await act(async () => result.current.cancel());
    expect(i18n.language).toBe('en');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBeNull();
    expect(save).not.toHaveBeenCalled();
  });

  it('ignores coming-soon languages and the current one', () => {
    const result = setup(vi.fn());
    let changed = true;
    act(() => void (changed = result.current.choose('fr')));
    expect(changed).toBe(false);
    act(() => void (changed = result.current.choose('en')));
    expect(changed).toBe(false);
    expect(result.current.pending).toBeNull();
  });

  it('confirm saves locally and on the server', async () => {
    session.establish(fakeAuthSession(true));
    const save = vi.fn<SaveLanguage>(async () => ({ ...profileFixture, preferred_language: 'de' }));
    const result = setup(save);
    act(() => void result.current.choose('de'));
    await act(async () => result.current.confirm());
    expect(save).toHaveBeenCalledWith('de');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('de');
    expect(i18n.language).toBe('de');
  });

  it('reverts both when the server refuses', async () => {
    session.establish(fakeAuthSession(true));
    const result = setup(
      vi.fn<SaveLanguage>(async () => Promise.reject(new Error('Failed to update preferred language'))),
    );
    act(() => void result.current.choose('de'));
    await act(async () => result.current.confirm());
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(i18n.language).toBe('en');
    expect(notify.error).toHaveBeenCalled();
    expect(result.current.saving).toBe(false);
  });

  it('opens the list upward when 35% of the viewport does not fit below', () => {
    expect(dropdownSide(200, 800, 35)).toBe('bottom');
    expect(dropdownSide(600, 800, 35)).toBe('top');
  });
});
