import type { CameraLive } from '@homesitter/contract';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupCamerasTestI18n } from '../../../test/i18n';
import { fakeEnv, FakeMediaSource, FakeSocket, resetLiveFakes } from '../../../test/liveFakes';
import { startHlsSession } from './hlsSession';
import { LivePlayer } from './LivePlayer';

vi.mock('./hlsSession', () => ({ startHlsSession: vi.fn(() => ({ close: vi.fn() })) }));

const live: CameraLive = {
  camera_name: 'Driveway',
  connection_type: 'onvif',
  mode: 'stream',
  stream_status: 'streaming',
  mse_url: '/api/live/abc/mse?exp=1&sig=x',
  hls_url: '/api/live/abc/index.m3u8?exp=1&sig=x',
  mime_type: 'video/mp4; codecs="avc1.64001f"',
  has_audio: false,
  snapshot_url: null,
  snapshot_date_time_utc: null,
  expires_at: new Date(Date.now() + 600_000).toISOString(),
  notice: null,
  retry_after_s: null,
};

function renderPlayer(
  over: Partial<CameraLive> = {},
  streamStatus: CameraLive['stream_status'] = 'streaming',
  refresh: () => Promise<CameraLive | undefined> = async () => undefined,
) {
  return render(
    <LivePlayer
      cameraName="Driveway"
      live={{ ...live, ...over }}
      streamStatus={streamStatus}
      streamError={null}
      refresh={refresh}
      support={{ mse: fakeEnv(), nativeHls: false }}
    />,
  );
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  resetLiveFakes();
  vi.mocked(startHlsSession).mockClear();
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
});

describe('the live player', () => {
  it('plays over the socket (same origin, ws:) and shows "connecting" until the picture runs', async () => {
    const view = renderPlayer();
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    expect(FakeSocket.instances[0]!.url).toBe(`ws://${window.location.host}/api/live/abc/mse?exp=1&sig=x`);
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-engine', 'mse');
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to the camera…');
    expect(screen.getByLabelText('Live view of Driveway')).toHaveProperty('muted', true);
    expect(startHlsSession).not.toHaveBeenCalled();

    view.unmount();
    expect(FakeSocket.instances[0]!.closed).toBe(true);
  });

  it('falls back to HLS when MSE cannot play the stream', () => {
    FakeMediaSource.supported = false;
    renderPlayer();
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-engine', 'hls');
    expect(startHlsSession).toHaveBeenCalledWith(
      expect.objectContaining({ url: live.hls_url, native: false }),
    );
    expect(FakeSocket.instances).toHaveLength(0);
  });

  it('falls back to HLS when the socket fails to open', async () => {
    renderPlayer();
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    act(() => FakeSocket.instances[0]!.drop());
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-engine', 'hls');
    expect(startHlsSession).toHaveBeenCalledTimes(1);
  });

  it('shows a failure with Retry when no way works, and Retry starts again with MSE', async () => {
    const failing = vi.mocked(startHlsSession);
    failing.mockImplementation(({ onEvent }) => {
      queueMicrotask(() => onEvent({ type: 'failed', reason: 'socket' }));
      return { close: vi.fn() };
    });
    renderPlayer();
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    act(() => FakeSocket.instances[0]!.drop());
    expect(await screen.findByRole('alert')).toHaveTextContent('The live view could not be started.');

    failing.mockImplementation(() => ({ close: vi.fn() }));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(2));
  });

  /** The first socket opens, then drops: the player's first reconnect (a second later) opens the next one. */
  async function dropAndReconnect() {
    act(() => FakeSocket.instances[0]!.open());
    vi.useFakeTimers();
    try {
      act(() => FakeSocket.instances[0]!.drop());
      // The first reconnect waits a second.
      await act(() => vi.advanceTimersByTimeAsync(1_000));
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(2));
  }

  it("asks GET /live again when a Nest camera's socket is lost (its session may have ended)", async () => {
    const nest = { ...live, connection_type: 'nest' as const };
    const refresh = vi.fn(async () => nest);
    renderPlayer(nest, 'streaming', refresh);
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    expect(refresh).not.toHaveBeenCalled();
    await dropAndReconnect();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('reconnects a stream camera with the URL it has while it is valid', async () => {
    const refresh = vi.fn(async () => live);
    renderPlayer({}, 'streaming', refresh);
    await vi.waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    await dropAndReconnect();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('opens nothing in private mode and says why', () => {
    renderPlayer({}, 'private');
    expect(screen.getByRole('status')).toHaveTextContent('Private mode is on: nothing is recorded or shown');
    expect(FakeSocket.instances).toHaveLength(0);
    expect(startHlsSession).not.toHaveBeenCalled();
  });

  it('offers sound only when the camera has it', async () => {
    const view = renderPlayer();
    expect(screen.queryByRole('button', { name: 'Turn the sound on' })).not.toBeInTheDocument();
    view.unmount();
    renderPlayer({ has_audio: true });
    await userEvent.click(screen.getByRole('button', { name: 'Turn the sound on' }));
    expect(screen.getByLabelText('Live view of Driveway')).toHaveProperty('muted', false);
    expect(screen.getByRole('button', { name: 'Turn the sound off' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it("plays a WebRTC camera with its own engine, whatever the camera list says, and tells Google's rate limit", async () => {
    const start = vi.fn(async () => {
      throw Object.assign(new Error('limited'), { status: 429, retryAfterSeconds: 30 });
    });
    const made: string[] = [];
    const peer = {
      iceGatheringState: 'complete',
      localDescription: { type: 'offer', sdp: 'v=0' },
      addTransceiver: (kind: string) => made.push(kind),
      createDataChannel: () => made.push('data'),
      createOffer: async () => ({ type: 'offer', sdp: 'v=0' }),
      setLocalDescription: async () => undefined,
      addEventListener: () => undefined,
      close: vi.fn(),
    };
    render(
      <LivePlayer
        cameraName="Garden"
        live={{
          ...live,
          connection_type: 'nest',
          mode: 'webrtc',
          stream_status: null,
          mse_url: null,
          hls_url: null,
          mime_type: null,
        }}
        // What the camera list says of a Nest camera nobody pulls: not this player's concern.
        streamStatus="stopped"
        streamError={null}
        refresh={async () => undefined}
        support={{ mse: fakeEnv(), nativeHls: false, webrtc: true }}
        webrtc={{ start, extend: vi.fn(), stop: vi.fn() }}
        createPeer={() => peer as unknown as RTCPeerConnection}
      />,
    );
    expect(screen.getByTestId('live-player')).toHaveAttribute('data-engine', 'webrtc');
    expect(
      await screen.findByText(
        "Google is limiting this camera's live view for a moment. Trying again in 30 seconds.",
      ),
    ).toBeInTheDocument();
    expect(made).toEqual(['audio', 'video', 'data']);
    expect(start).toHaveBeenCalledTimes(1);
    expect(FakeSocket.instances).toHaveLength(0);
    expect(startHlsSession).not.toHaveBeenCalled();
  });
});
