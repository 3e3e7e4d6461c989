import type { CameraLive } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { cameraDetailFixture } from '../../test/cameraFixtures';
import { setupCamerasTestI18n } from '../../test/i18n';
import CameraViewPage from './CameraViewPage';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../user/profile', () => ({ useProfile: () => ({ data: { timezone: 'UTC' } }) }));

const live: CameraLive = {
  camera_name: 'Porch',
  connection_type: 'upload',
  mode: 'snapshot',
  stream_status: null,
  mse_url: null,
  hls_url: null,
  mime_type: null,
  has_audio: false,
  snapshot_url: '/media/a.jpg?sig=1',
  snapshot_date_time_utc: '2026-11-25T10:00:00Z',
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  notice: null,
  retry_after_s: null,
};

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/cameras/:name/view" element={<CameraViewPage />} />
          <Route path="/cameras/:name/fullscreen" element={<CameraViewPage />} />
          <Route path="/camera-preview" element={<CameraViewPage />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  vi.mocked(api.call).mockImplementation((async (name: string) => {
    if (name === 'getCamera') return { success: true, data: cameraDetailFixture({ name: 'Porch' }) };
    if (name === 'getCameraLive') return { success: true, data: live };
    throw new Error(`unexpected call ${name}`);
  }) as never);
});

describe('the camera view screens', () => {
  it("show the live view (here an upload camera's latest snapshot), also as a preview", async () => {
    renderAt('/camera-preview?name=Porch');
    expect(await screen.findByRole('img', { name: /^Latest snapshot from Porch/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Fullscreen' })).toHaveAttribute(
      'href',
      '/cameras/Porch/fullscreen',
    );
  });

  it('fullscreen fills the screen and has a visible way out, and Esc leaves it too', async () => {
    const user = userEvent.setup();
    renderAt('/cameras/Porch/fullscreen');
    expect(await screen.findByRole('dialog', { name: 'Porch, fullscreen' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Leave fullscreen' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/cameras/Porch/view');

    await user.click(screen.getByRole('link', { name: 'Fullscreen' }));
    expect(await screen.findByRole('dialog', { name: 'Porch, fullscreen' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('where')).toHaveTextContent('/cameras/Porch/view');
  });
});
