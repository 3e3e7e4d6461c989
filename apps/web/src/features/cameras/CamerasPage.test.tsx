import type { Camera } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { cameraFixture } from '../../test/cameraFixtures';
import { emitRealtime } from '../../test/fakeRealtime';
import { setupCamerasTestI18n } from '../../test/i18n';
import CamerasPage from './CamerasPage';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../../shared/lib/useMediaQuery', () => ({ useMediaQuery: () => true }));
vi.mock('../user/profile', () => ({ useProfile: () => ({ data: { timezone: 'UTC' } }) }));

let cameras: Camera[];

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  cameras = [];
  vi.mocked(api.call).mockImplementation((async (name: string) => {
    if (name === 'listCameras') return { success: true, data: cameras };
    return { success: true, data: [] };
  }) as never);
});

describe('the cameras list', () => {
  it('shows a camera added elsewhere (the phone, the helper, a Nest sync) without a reload', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/cameras']}>
          <CamerasPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await vi.waitFor(() => expect(screen.queryByRole('status', { name: 'Loading…' })).toBeNull());
    expect(screen.queryByText('Driveway')).not.toBeInTheDocument();

    cameras = [cameraFixture({ name: 'Driveway' })];
    act(() =>
      emitRealtime('CamerasChanged', { camera_name: 'Driveway', configuration_status: 'configured' }),
    );
    expect(await screen.findByText('Driveway')).toBeInTheDocument();
  });
});
