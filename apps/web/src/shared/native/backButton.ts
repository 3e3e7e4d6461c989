import type { ListenerHandle } from './types';

/** The slice of `@capacitor/app` the back button uses. */
export interface BackButtonPlugin {
  addListener(event: 'backButton', fn: (e: { canGoBack: boolean }) => void): Promise<ListenerHandle>;
  exitApp(): Promise<void>;
}

/**
 * Android's hardware back button (docs/product.md §2): back through the app's history when there is any, otherwise
 * leave the app. Returns the listener's handle.
 */
export function startBackButton(
  app: BackButtonPlugin,
  back: () => void = () => window.history.back(),
): Promise<ListenerHandle> {
  return app.addListener('backButton', ({ canGoBack }) => {
    if (canGoBack) back();
    else void app.exitApp();
  });
}
