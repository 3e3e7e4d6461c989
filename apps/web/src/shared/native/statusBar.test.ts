import { describe, expect, it, vi } from 'vitest';
import { fakeListeners } from './fakes.test-support';
import { startStatusBar } from './statusBar';
import { computeSafeAreaInsets } from '../lib/safeArea';

function plugins() {
  const events = fakeListeners();
  return {
    statusBar: { setOverlaysWebView: vi.fn(async () => undefined), setStyle: vi.fn(async () => undefined) },
    app: { addListener: events.addListener },
    events,
  };
}

describe('status bar and safe areas', () => {
  it('draws under the Android status bar, light on dark, and measures the safe areas again', async () => {
    const p = plugins();
    const recalc = vi.fn();
    await startStatusBar(p.statusBar, p.app, 'android', recalc);
    expect(p.statusBar.setOverlaysWebView).toHaveBeenCalledWith({ overlay: true });
    expect(p.statusBar.setStyle).toHaveBeenCalledWith({ style: 'DARK' });
    expect(recalc).toHaveBeenCalledOnce();
    p.events.fire('appStateChange', { isActive: false });
    p.events.fire('appStateChange', { isActive: true });
    expect(recalc).toHaveBeenCalledTimes(2);
  });

  it('leaves the overlay to iOS and still measures when the plugin fails', async () => {
    const p = plugins();
    p.statusBar.setStyle.mockRejectedValue(new Error('no bar'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const recalc = vi.fn();
    await startStatusBar(p.statusBar, p.app, 'ios', recalc);
    expect(p.statusBar.setOverlaysWebView).not.toHaveBeenCalled();
    expect(recalc).toHaveBeenCalledOnce();
    warn.mockRestore();
  });

  it('offsets Android by 48 px and iOS by its safe area, 44 px when none is reported', () => {
    expect(computeSafeAreaInsets('android').top).toBe(48);
    // jsdom reports no env(safe-area-inset-top): the fallback.
    expect(computeSafeAreaInsets('ios').top).toBe(44);
    expect(computeSafeAreaInsets('web').top).toBe(0);
  });
});
