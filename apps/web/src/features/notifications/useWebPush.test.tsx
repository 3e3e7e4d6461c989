import type { UserProfile } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { ApiError } from '../../shared/lib/http';
import { applicationServerKey, disableWebPush } from '../../shared/lib/webPush';
import { installPushBrowser, uninstallPushBrowser } from '../../shared/lib/webPush.test-support';
import { setupTestI18n } from '../../test/i18n';
import { profileFixture } from '../../test/session';
import { profileKey } from '../user/profile';
import { BrowserNotificationsSetting } from './BrowserNotificationsSetting';
import { registerThisBrowser, useWebPush } from './useWebPush';

const signedIn = { status: 'signedIn', user: { uid: 'u1', email: 'sam@example.com', emailVerified: true } };
vi.mock('../../shared/lib/api', () => ({
  api: { call: vi.fn() },
  session: {
    subscribe: () => () => undefined,
    getState: () => signedIn,
    isVerified: () => true,
  },
}));

const VAPID = `B${'E'.repeat(86)}`;
const call = vi.mocked(api.call);

beforeAll(async () => {
  await setupTestI18n();
});

beforeEach(() => {
  call.mockReset();
  call.mockImplementation(async (name: string) => {
    if (name === 'getVapidPublicKey') return { success: true, data: { public_key: VAPID } };
    return { success: true, data: {} };
  });
});
afterEach(() => uninstallPushBrowser());

function withProfile(profile: Partial<UserProfile> = {}) {
  // The cached profile stays fresh: the test is about push, not about refetching the profile.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(profileKey, { ...profileFixture, ...profile });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

const registrations = () => call.mock.calls.filter(([name]) => name === 'registerPushToken');

describe('useWebPush', () => {
  it('subscribes with the server key and registers the subscription as a web token', async () => {
    const browser = installPushBrowser('granted');
    renderHook(() => useWebPush(0), { wrapper: withProfile() });
    await waitFor(() => expect(registrations()).toHaveLength(1));
    expect(browser.serviceWorker.register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
    const [options] = browser.pushManager.subscribe.mock.calls[0]!;
    expect(options.userVisibleOnly).toBe(true);
    expect([...options.applicationServerKey]).toEqual([...applicationServerKey(VAPID)]);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(registrations()[0]![1]).toEqual({
      body: {
        token: JSON.stringify(browser.subscription()!.toJSON()),
        platform: 'web',
        is_sandbox: false,
      },
    });
  });

  it('keeps a subscription made with the same key, and replaces one made with another', async () => {
    const browser = installPushBrowser('granted');
    browser.existing(applicationServerKey(VAPID));
    const first = renderHook(() => useWebPush(0), { wrapper: withProfile() });
    await waitFor(() => expect(registrations()).toHaveLength(1));
    expect(browser.pushManager.subscribe).not.toHaveBeenCalled();
    first.unmount();

    const stale = browser.existing(applicationServerKey(`B${'Z'.repeat(86)}`));
    renderHook(() => useWebPush(0), { wrapper: withProfile() });
    await waitFor(() => expect(registrations()).toHaveLength(2));
    expect(stale.unsubscribe).toHaveBeenCalled();
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['push is off', { notification_preferences: { push_enabled: false, sms_mms_enabled: true } }, 'granted'],
    ['notifications are off', { notifications_status: 'ALL_DISABLED' as const }, 'granted'],
    ['permission was not given', {}, 'default'],
    ['permission was refused', {}, 'denied'],
  ] as const)('does nothing when %s', async (_why, profile, permission) => {
    const browser = installPushBrowser(permission);
    renderHook(() => useWebPush(0), { wrapper: withProfile(profile) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(browser.serviceWorker.register).not.toHaveBeenCalled();
    expect(call).not.toHaveBeenCalled();
  });

  it('does nothing, without errors, in a browser without Web Push', async () => {
    uninstallPushBrowser();
    const errors = vi.spyOn(console, 'error');
    renderHook(() => useWebPush(0), { wrapper: withProfile() });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(call).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });

  it('only logs a failed registration', async () => {
    installPushBrowser('granted');
    call.mockRejectedValue(new ApiError('Network error', 0, 'network_error'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderHook(() => useWebPush(0), { wrapper: withProfile() });
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('web push registration failed', expect.any(ApiError)),
    );
    warn.mockRestore();
  });
});

describe('disableWebPush at sign-out', () => {
  it('tells the server to stop, then unsubscribes the browser', async () => {
    const browser = installPushBrowser('granted');
    const subscription = browser.existing(applicationServerKey(VAPID));
    await disableWebPush();
    expect(call).toHaveBeenCalledWith('disablePushToken', {
      body: { token: JSON.stringify(subscription.toJSON()), platform: 'web' },
    });
    expect(subscription.unsubscribed).toBe(true);
  });

  it('unsubscribes a subscription the server does not know (404)', async () => {
    const browser = installPushBrowser('granted');
    const subscription = browser.existing(applicationServerKey(VAPID));
    call.mockRejectedValue(new ApiError('Push token not found', 404, 'push_token.not_found'));
    await disableWebPush();
    expect(subscription.unsubscribed).toBe(true);
  });

  it('throws and keeps the subscription when the server cannot be reached', async () => {
    const browser = installPushBrowser('granted');
    const subscription = browser.existing(applicationServerKey(VAPID));
    call.mockRejectedValue(new ApiError('Network error', 0, 'network_error'));
    await expect(disableWebPush()).rejects.toBeInstanceOf(ApiError);
    expect(subscription.unsubscribed).toBe(false);
  });

  it('has nothing to do without a subscription or without Web Push', async () => {
    installPushBrowser('granted');
    await disableWebPush();
    uninstallPushBrowser();
    await disableWebPush();
    expect(call).not.toHaveBeenCalled();
  });
});

describe('BrowserNotificationsSetting', () => {
  it('asks for permission on a click, and says alerts appear here once the subscription went through', async () => {
    const browser = installPushBrowser('default');
    render(<BrowserNotificationsSetting pushOn />);
    expect(screen.getByText('Show alerts in this browser, even when Homesitter is not open.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Allow' }));
    expect(browser.notification.requestPermission).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull());
    await act(() => registerThisBrowser());
    expect(screen.getByRole('status')).toHaveTextContent('Alerts appear in this browser.');
  });

  it('says when the subscription failed, and tries again on a click', async () => {
    installPushBrowser('granted');
    call.mockRejectedValueOnce(new ApiError('Service unavailable', 503, 'unavailable'));
    render(<BrowserNotificationsSetting pushOn />);
    await act(() => registerThisBrowser());
    expect(screen.getByRole('status')).toHaveTextContent(
      'Alerts could not be set up in this browser, so none appear here.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Alerts appear in this browser.')).toBeVisible();
    expect(registrations()).toHaveLength(1);
  });

  it('explains a refusal', () => {
    installPushBrowser('denied');
    render(<BrowserNotificationsSetting pushOn />);
    expect(screen.getByRole('status')).toHaveTextContent(/blocks notifications/);
  });

  it('shows nothing when push is off, and says so when the browser has no Web Push', () => {
    installPushBrowser('default');
    const { container, rerender } = render(<BrowserNotificationsSetting pushOn={false} />);
    expect(container).toBeEmptyDOMElement();
    uninstallPushBrowser();
    rerender(<BrowserNotificationsSetting pushOn />);
    expect(screen.getByRole('status')).toHaveTextContent('This browser cannot show push alerts.');
  });
});
