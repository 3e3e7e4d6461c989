import { SAFE_AREA_RECALC_EVENT } from '../lib/safeArea';
import type { NativePlatform } from './types';

/** The slice of `@capacitor/status-bar` used here. */
export interface StatusBarPlugin {
  setOverlaysWebView(options: { overlay: boolean }): Promise<void>;
  setStyle(options: { style: 'DARK' | 'LIGHT' | 'DEFAULT' }): Promise<void>;
}

/** The slice of `@capacitor/app` that reports the app coming back (rotation while away, say). */
export interface AppStatePlugin {
  addListener(
    event: 'appStateChange',
    fn: (state: { isActive: boolean }) => void,
  ): Promise<{ remove: () => Promise<void> }>;
}

/**
 * Status bar and safe areas on the phone (docs/product.md §2): the page draws under a light-on-dark status bar, and
 * `shared/lib/safeArea.ts` offsets it (Android 48 px, iOS the safe-area top or 44 px) and measures again
 * on orientation change, resize and the recalc event, which is sent here once the bar is set up and
 * whenever the app comes back to the foreground.
 */
export async function startStatusBar(
  statusBar: StatusBarPlugin,
  app: AppStatePlugin,
  platform: NativePlatform,
  recalc: () => void = () => window.dispatchEvent(new Event(SAFE_AREA_RECALC_EVENT)),
): Promise<void> {
  try {
    // iOS draws under the bar already; Android does once asked to.
    if (platform === 'android') await statusBar.setOverlaysWebView({ overlay: true });
    await statusBar.setStyle({ style: 'DARK' });
  } catch (error) {
    console.warn('status bar set-up failed', error);
  }
  recalc();
  await app.addListener('appStateChange', ({ isActive }) => {
    if (isActive) recalc();
  });
}
