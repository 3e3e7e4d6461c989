import type { CameraLive } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../shared/lib/api';
import { cameraFixture } from '../../../test/cameraFixtures';
import { setupCamerasTestI18n } from '../../../test/i18n';
import { CameraLiveView } from './CameraLiveView';

vi.mock('../../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../../shared/lib/useRealtime', () => import('../../../test/fakeRealtime'));
vi.mock('../../user/profile', () => ({ useProfile: () => ({ data: { timezone: 'UTC' } }) }));

const call = vi.mocked(api.call);
let answers: CameraLive[];

const NOTICE = 'Google is limiting live views of this camera right now; trying again in 10 s.';

const nestLive = (over: Partial<CameraLive>): CameraLive => ({
  camera_name: 'Porch',
  connection_type: 'nest',
  mode: 'stream',
  stream_status: 'connecting',
  mse_url: '/api/live/c1/mse?exp=1&sig=x',
  hls_url: '/api/live/c1/index.m3u8?exp=1&sig=x',
  mime_type: null,
  has_audio: false,
  snapshot_url: null,
  snapshot_date_time_utc: null,
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  notice: null,
  retry_after_s: null,
  ...over,
});

function renderNest() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <CameraLiveView
          camera={cameraFixture({
            name: 'Porch',
            connection_type: 'nest',
            configuration_status: 'configured',
            // The list knows nothing of a session started on demand.
            stream_status: 'stopped',
          })}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    if (name !== 'getCameraLive') throw new Error(`unexpected call ${name}`);
    return { success: true, data: answers.length > 1 ? answers.shift()! : answers[0]! };
  }) as never);
});
afterEach(() => vi.useRealTimers());

describe('the live view of a Nest camera', () => {
  it("shows Google's limit in the server's words and asks again after retry_after_s, not sooner", async () => {
    answers = [
      nestLive({ mse_url: null, hls_url: null, stream_status: 'stopped', notice: NOTICE, retry_after_s: 10 }),
      nestLive({}),
    ];
    renderNest();
    expect(await screen.findByTestId('live-notice')).toHaveTextContent('Live view paused');
    expect(screen.getByText(NOTICE)).toBeInTheDocument();
    expect(call).toHaveBeenCalledTimes(1);

    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(call).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(call).toHaveBeenCalledTimes(2);
    expect(await screen.findByTestId('live-player')).toBeInTheDocument();
    expect(screen.queryByTestId('live-notice')).not.toBeInTheDocument();
  });

  it('plays the session the live answer started, whatever the camera list says of its stream', async () => {
    answers = [nestLive({ stream_status: 'connecting' })];
    renderNest();
    expect(await screen.findByTestId('live-player')).toBeInTheDocument();
    expect(
      screen.queryByText("The live view is off: the camera's stream is stopped."),
    ).not.toBeInTheDocument();
  });

  it('shows private mode as the live answer says', async () => {
    answers = [nestLive({ stream_status: 'private', mse_url: null, hls_url: null })];
    renderNest();
    expect(await screen.findByText('Private mode is on: nothing is recorded or shown')).toBeInTheDocument();
  });
});
