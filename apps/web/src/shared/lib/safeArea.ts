import { ANDROID_STATUS_BAR_PX, IOS_SAFE_AREA_TOP_FALLBACK_PX } from '@homesitter/contract/runtime';
import { currentPlatform } from './native';

/** Dispatch this on `window` to make the layout measure the safe areas again. */
export const SAFE_AREA_RECALC_EVENT = 'homesitter:safe-area-recalc';

function measureEnvInset(side: 'top' | 'bottom'): number {
  const probe = document.createElement('div');
  probe.style.cssText = `position:fixed;visibility:hidden;height:env(safe-area-inset-${side}, 0px)`;
  document.body.appendChild(probe);
  const px = probe.getBoundingClientRect().height;
  probe.remove();
  return px;
}

/** Top and bottom insets in px: Android's native status bar, iOS' safe area (44 px fallback), none on web. */
export function computeSafeAreaInsets(platform = currentPlatform()): { top: number; bottom: number } {
  if (platform === 'android') return { top: ANDROID_STATUS_BAR_PX, bottom: 0 };
  if (platform === 'ios') {
    const top = measureEnvInset('top');
    return { top: top > 0 ? top : IOS_SAFE_AREA_TOP_FALLBACK_PX, bottom: measureEnvInset('bottom') };
  }
  return { top: 0, bottom: measureEnvInset('bottom') };
}

/** Writes `--safe-top` / `--safe-bottom` and keeps them current; returns the cleanup. */
export function watchSafeAreaInsets(): () => void {
  const apply = () => {
    const { top, bottom } = computeSafeAreaInsets();
    document.documentElement.style.setProperty('--safe-top', `${top}px`);
    document.documentElement.style.setProperty('--safe-bottom', `${bottom}px`);
  };
  apply();
  const events = ['orientationchange', 'resize', SAFE_AREA_RECALC_EVENT];
  events.forEach((e) => window.addEventListener(e, apply));
  return () => events.forEach((e) => window.removeEventListener(e, apply));
}
