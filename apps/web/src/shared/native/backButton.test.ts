import { describe, expect, it, vi } from 'vitest';
import { startBackButton } from './backButton';
import { fakeListeners } from './fakes.test-support';

describe('hardware back button', () => {
  it('goes back while there is history and leaves the app when there is none', async () => {
    const events = fakeListeners();
    const app = { addListener: events.addListener, exitApp: vi.fn(async () => undefined) };
    const back = vi.fn();
    await startBackButton(app, back);

    events.fire('backButton', { canGoBack: true });
    expect(back).toHaveBeenCalledOnce();
    expect(app.exitApp).not.toHaveBeenCalled();

    events.fire('backButton', { canGoBack: false });
    expect(app.exitApp).toHaveBeenCalledOnce();
    expect(back).toHaveBeenCalledOnce();
  });
});
