import type { CameraLive } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../shared/lib/api';
import { cameraFixture } from '../../../test/cameraFixtures';
import { emitRealtime } from '../../../test/fakeRealtime';
import { setupCamerasTestI18n } from '../../../test/i18n';
import { CameraLiveView } from './CameraLiveView';

vi.mock('../../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../../shared/lib/useRealtime', () => import('../../../test/fakeRealtime'));
vi.mock('../../user/profile', () => ({ useProfile: () => ({ data: { timezone: 'UTC' } }) }));

const call = vi.mocked(api.call);
let live: CameraLive;

const snapshotLive = (url: string | null, time: string | null): CameraLive => ({
  camera_name: 'Porch',
  connection_type: 'upload',
  mode: 'snapshot',
  stream_status: null,
  mse_url: null,
  hls_url: null,
  mime_type: null,
  has_audio: false,
  snapshot_url: url,
  snapshot_date_time_utc: time,
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  notice: null,
  retry_after_s: null,
});

function renderLive(lastActivity: string | null = null, isPrivate = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const camera = cameraFixture({ name: 'Porch', last_activity_date_time_utc: lastActivity });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CameraLiveView
          camera={{ ...camera, settings: { ...camera.settings, is_private_mode_enabled: isPrivate } }}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    if (name !== 'getCameraLive') throw new Error(`unexpected call ${name}`);
    return { success: true, data: live };
  }) as never);
});

describe('the live view of an upload camera', () => {
  it('shows the latest snapshot with its time and explains there is no stream', async () => {
    live = snapshotLive('/media/a.jpg?sig=1', '2026-11-25T10:00:00Z');
    renderLive();
    const image = await screen.findByRole('img', { name: /^Latest snapshot from Porch, / });
    expect(image).toHaveAttribute('src', '/media/a.jpg?sig=1');
    expect(screen.getByText(/^Latest snapshot, /)).toBeInTheDocument();
    expect(
      screen.getByText(/sends events when it notices something, not a continuous stream/),
    ).toBeInTheDocument();
    expect(screen.queryByText('No snapshot yet')).not.toBeInTheDocument();
  });

  it('replaces the snapshot in place when the camera sends a new event', async () => {
    live = snapshotLive('/media/a.jpg?sig=1', '2026-11-25T10:00:00Z');
    renderLive();
    const image = await screen.findByRole('img', { name: /^Latest snapshot from Porch, / });

    live = snapshotLive('/media/b.jpg?sig=2', '2026-11-25T10:05:00Z');
    act(() =>
      emitRealtime('ActivityCreated', {
        activity_uuid: 'a2',
        camera_name: 'Someone else',
        date_time_utc: '2026-11-25T10:05:00Z',
        description: null,
        thumbnail_image_url: null,
      }),
    );
    expect(call).toHaveBeenCalledTimes(1);
    act(() =>
      emitRealtime('ActivityCreated', {
        activity_uuid: 'a3',
        camera_name: 'porch',
        date_time_utc: '2026-11-25T10:05:00Z',
        description: null,
        thumbnail_image_url: null,
      }),
    );
    await vi.waitFor(() => expect(image).toHaveAttribute('src', '/media/b.jpg?sig=2'));
    expect(screen.getByText(/^Latest snapshot, /)).toHaveTextContent('10:05');
  });

  it('says "No activity yet" before the first event, "No snapshot yet" when events came without one', async () => {
    live = snapshotLive(null, null);
    renderLive();
    expect(await screen.findByText('No activity yet')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('says "No snapshot yet" when the camera sent events but no picture', async () => {
    live = snapshotLive(null, null);
    renderLive('2026-11-25T10:00:00Z');
    expect(await screen.findByText('No snapshot yet')).toBeInTheDocument();
  });

  it('says "Private" in private mode, not "No snapshot yet" (issue 31 point 9)', async () => {
    live = snapshotLive(null, null);
    renderLive('2026-11-25T10:00:00Z', true);
    expect(await screen.findByText('Private')).toBeInTheDocument();
    expect(screen.queryByText('No snapshot yet')).not.toBeInTheDocument();
  });
});
