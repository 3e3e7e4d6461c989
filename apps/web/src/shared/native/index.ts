/**
 * The native shell's front door (issue 19): everything the iOS/Android apps add to the web app, started
 * once from the app root inside the native apps. The web app keeps Web Push and its own players.
 */
import { api, session } from '../lib/api';
import { currentPlatform, isNativeApp } from '../lib/native';
import { setPendingImageUrl } from '../lib/pendingImage';
import { notify } from '../lib/toast';
import { disableWebPush } from '../lib/webPush';
import { startBackButton } from './backButton';
import { startDeepLinks } from './deepLink';
import { startKeyboardScroll } from './keyboard';
import { shareVideo, saveVideoToGallery } from './media';
import { playNative } from './player';
import { createNativePush, disableNativePushToken, type NativePush, type PushTokenApi } from './push';
import { startStatusBar } from './statusBar';
import type * as PluginsModule from './plugins';
import type { Navigate, NativePlatform } from './types';
import type { LanDiscoveryPlugin } from './lanDiscovery';

export { isNativeApp };
export { choosePlayer, type PlayerKind } from './player';
export { VideoDownloadError, type VideoDownloadFailure } from './media';
export { wifiSubnet, type LanDiscoveryPlugin, type WifiInfo } from './lanDiscovery';

type Plugins = typeof PluginsModule;
let plugins: Promise<Plugins> | null = null;

/** The Capacitor plugins, loaded on first use (never in the browser). */
function loadPlugins(): Promise<Plugins> {
  return (plugins ??= import('./plugins'));
}

/** `ios` or `android` inside the apps, null in a browser. */
export function nativePlatform(): NativePlatform | null {
  if (!isNativeApp()) return null;
  const platform = currentPlatform();
  return platform === 'web' ? null : platform;
}

/**
 * The phone's camera transport, inside the apps only. A browser test of the phone flow puts its own on
 * `window.__homesitterLanDiscovery` (e2e/phone-discovery.e2e.ts: the Node transport behind the page);
 * nothing in the app sets it.
 */
export async function lanDiscoveryPlugin(): Promise<LanDiscoveryPlugin> {
  const injected = (window as { __homesitterLanDiscovery?: LanDiscoveryPlugin }).__homesitterLanDiscovery;
  if (injected) return injected;
  return (await loadPlugins()).lanDiscovery;
}

/** The push-token calls of docs/product.md §7. */
export const pushTokenApi: PushTokenApi = {
  register: (token, platform, isSandbox) =>
    api.call('registerPushToken', { body: { token, platform, is_sandbox: isSandbox } }),
  verify: async (token, platform) =>
    (await api.call('verifyPushToken', { body: { token, platform } })).data.isValid,
  disable: (token, platform) => api.call('disablePushToken', { body: { token, platform } }),
};

let push: NativePush | null = null;
let started: Promise<void> | null = null;

/**
 * Starts the shell once: push, the back button, the deep link, the status bar and, on Android, the
 * keyboard scroll. `navigate` is the router's. Nothing happens in a browser.
 */
export function startNativeShell(navigate: Navigate): Promise<void> {
  const platform = nativePlatform();
  if (!platform) return Promise.resolve();
  return (started ??= (async () => {
    const p = await loadPlugins();
    if (platform === 'android') startKeyboardScroll();
    await Promise.all([
      startBackButton(p.app),
      startDeepLinks(p.app, { setPendingImageUrl, navigate }),
      startStatusBar(p.statusBar, p.app, platform),
    ]);
    push = createNativePush({
      plugin: p.push,
      api: pushTokenApi,
      platform,
      navigate,
      toast: notify.info,
      storage: window.localStorage,
      isSignedIn: () => session.getState().status === 'signedIn',
    });
    push.start();
    session.on((event) => {
      if (event === 'loggedIn') push?.onLoggedIn();
      else push?.onLoggedOut();
    });
    // The stored session may have been read before the shell started.
    if (session.getState().status === 'signedIn') push.onLoggedIn();
  })().catch((error: unknown) => {
    console.warn('native shell failed to start', error);
  }));
}

/**
 * Sign-out's first step (docs/product.md §4 "Push state"): the server stops pushing to this device (native token, or
 * the browser's Web Push subscription). Throws when that fails; sign-out then stops with the
 * `updateNotificationSettings` toast.
 */
export async function disablePushForSignOut(): Promise<void> {
  const platform = nativePlatform();
  if (!platform) return disableWebPush();
  push?.onLoggedOut();
  await disableNativePushToken({ api: pushTokenApi, platform, storage: window.localStorage });
}

/** Plays a stream or clip in the native fullscreen player; false when it did not open. */
export async function openNativePlayer(video: {
  url: string;
  title?: string;
  live?: boolean;
}): Promise<boolean> {
  const p = await loadPlugins();
  return playNative(p.videoPlayer, video);
}

/** docs/product.md §6 (mobile only): a clip to the share sheet. Throws `VideoDownloadError`. */
export async function shareNativeVideo(url: string, title?: string): Promise<void> {
  const p = await loadPlugins();
  await shareVideo(p, url, title);
}

/** docs/product.md §6 (mobile only): a clip into the gallery. Throws `VideoDownloadError`. */
export async function saveNativeVideo(url: string): Promise<void> {
  const platform = nativePlatform();
  if (!platform) throw new Error('saving to the gallery needs the mobile app');
  const p = await loadPlugins();
  await saveVideoToGallery(p, url, platform);
}
