import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/lib/i18n';
import { api } from '../../shared/lib/api';
import { cameraDetailFixture } from '../../test/cameraFixtures';
import { setupCamerasTestI18n } from '../../test/i18n';
import { CameraSettingsForm } from './CameraSettingsForm';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../user/profile', () => ({ useProfile: () => ({ data: { is_facial_recognition_enabled: true } }) }));

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const camera = cameraDetailFixture({ name: 'Porch' });
  render(
    <QueryClientProvider client={client}>
      <CameraSettingsForm camera={camera} />
    </QueryClientProvider>,
  );
  return camera;
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  vi.mocked(api.call).mockReset();
  vi.mocked(api.call).mockImplementation((async (name: string) => {
    if (name === 'listSites') return { success: true, data: [] };
    if (name === 'updateCameraSettings') return { success: true, data: cameraDetailFixture() };
    throw new Error(`unexpected call ${name}`);
  }) as never);
});

describe("the camera's alert settings", () => {
  it('turn "only unusual events" on for this camera', async () => {
    renderForm();
    const only = screen.getByRole('switch', { name: /Only unusual events/ });
    expect(only).not.toBeChecked();
    await userEvent.click(only);
    expect(api.call).toHaveBeenCalledWith('updateCameraSettings', {
      params: { name: 'Porch' },
      body: { only_unusual_alerts: true },
    });
  });

  it('say it in German', async () => {
    await i18n.changeLanguage('de');
    renderForm();
    expect(screen.getByRole('switch', { name: /Nur ungewöhnliche Ereignisse/ })).toBeInTheDocument();
    await i18n.changeLanguage('en');
  });
});
