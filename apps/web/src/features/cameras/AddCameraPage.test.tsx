import type { Camera, CameraDetail } from '@homesitter/contract';
import { CAMERA_CONFIGURATION_ERRORS } from '@homesitter/contract/runtime';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { cameraDetailFixture, cameraFixture } from '../../test/cameraFixtures';
import { emitRealtime } from '../../test/fakeRealtime';
import { setupCamerasTestI18n } from '../../test/i18n';
import AddCameraPage from './AddCameraPage';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

const call = vi.mocked(api.call);
/** What the server knows of the camera being added. */
let server: CameraDetail;

function stream(over: Partial<Camera>): Omit<Partial<Camera>, 'settings'> {
  return { connection_type: 'onvif', stream_status: null, ...over };
}

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  server = cameraDetailFixture(stream({ configuration_status: 'configuring' }));
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    switch (name) {
      case 'listCameras':
      case 'listSites':
        return { success: true, data: [] };
      case 'addCamera':
        return { success: true, data: cameraFixture(stream({ configuration_status: 'configuring' })) };
      case 'getCamera':
        return { success: true, data: server };
      case 'configureCamera':
      case 'updateCamera':
        server = { ...server, configuration_status: 'configuring', configuration_error: null };
        return { success: true, data: server };
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});

function renderPage(path = '/cameras/add?type=stream') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/cameras/add" element={<AddCameraPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const streamForm = () => screen.getByRole('form', { name: 'Add an RTSP or ONVIF camera' });
const addCalls = () => call.mock.calls.filter(([name]) => name === 'addCamera');

async function addOnvifCamera() {
  const user = userEvent.setup();
  renderPage();
  const form = streamForm();
  await user.type(within(form).getByLabelText('Camera name'), 'Driveway');
  await user.type(within(form).getByLabelText('Camera address'), '192.168.1.20');
  await user.type(within(form).getByLabelText('Username'), 'admin');
  await user.type(within(form).getByLabelText('Password'), 'secret');
  await user.click(within(form).getByRole('button', { name: 'Add and connect' }));
  return user;
}

describe('adding an RTSP or ONVIF camera', () => {
  it('offers the stream option beside the upload instructions', async () => {
    renderPage('/cameras/add');
    expect(screen.getByRole('form', { name: 'Add a camera that uploads events' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: /RTSP or ONVIF camera/ }));
    expect(streamForm()).toBeInTheDocument();
  });

  it('checks the fields as the contract does before anything is sent', async () => {
    const user = userEvent.setup();
    renderPage();
    const form = streamForm();
    await user.type(within(form).getByLabelText('Camera name'), 'Gate');
    await user.clear(within(form).getByLabelText('Port'));
    await user.type(within(form).getByLabelText('Port'), '70000');
    await user.click(within(form).getByRole('button', { name: 'Add and connect' }));
    expect(within(form).getByText("Enter the camera's address")).toBeInTheDocument();
    expect(within(form).getByText('The port is a number from 1 to 65535')).toBeInTheDocument();

    await user.click(within(form).getByRole('radio', { name: /RTSP address/ }));
    await user.type(within(form).getByLabelText('Stream address (RTSP)'), 'http://192.168.1.20/live');
    expect(within(form).getByText(/must start with rtsp:\/\/ or rtsps:\/\//)).toBeInTheDocument();
    expect(within(form).getByLabelText('Username (optional)')).toBeInTheDocument();
    expect(addCalls()).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Stream address (RTSP)'));
    await user.type(within(form).getByLabelText('Stream address (RTSP)'), 'rtsp://192.168.1.20:554/stream1');
    await user.click(within(form).getByRole('button', { name: 'Add and connect' }));
    await waitFor(() => expect(addCalls()).toHaveLength(1));
    expect(addCalls()[0]![1]).toEqual({
      body: {
        name: 'Gate',
        site_uuid: null,
        connection: { type: 'rtsp', url: 'rtsp://192.168.1.20:554/stream1' },
      },
    });
  });

  it('follows the configuration, shows why it failed, and tries again', async () => {
    const user = await addOnvifCamera();
    expect(addCalls()[0]![1]).toEqual({
      body: {
        name: 'Driveway',
        site_uuid: null,
        connection: { type: 'onvif', host: '192.168.1.20', port: 80, username: 'admin', password: 'secret' },
      },
    });
    expect(
      await screen.findByText('Connecting to your camera… This takes up to 30 seconds.'),
    ).toBeInTheDocument();

    server = {
      ...server,
      configuration_status: 'failed',
      configuration_error: CAMERA_CONFIGURATION_ERRORS.wrong_credentials,
      configuration_error_code: 'wrong_credentials',
    };
    act(() =>
      emitRealtime('CamerasChanged', {
        camera_name: 'Driveway',
        configuration_status: 'failed',
        configuration_error: CAMERA_CONFIGURATION_ERRORS.wrong_credentials,
        stream_status: null,
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The camera refused the username or password.',
    );

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(call).toHaveBeenCalledWith('configureCamera', { params: { name: 'Driveway' } });
    expect(
      await screen.findByText('Connecting to your camera… This takes up to 30 seconds.'),
    ).toBeInTheDocument();

    server = {
      ...server,
      configuration_status: 'configured',
      stream_status: 'streaming',
      snapshot_url: '/media/first.jpg?sig=1',
      snapshot_date_time_utc: '2026-11-25T10:00:00Z',
    };
    act(() =>
      emitRealtime('CamerasChanged', {
        camera_name: 'Driveway',
        configuration_status: 'configured',
        configuration_error: null,
        stream_status: 'streaming',
      }),
    );
    expect(await screen.findByText('Driveway is connected.')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'First picture from Driveway' })).toHaveAttribute(
      'src',
      '/media/first.jpg?sig=1',
    );
    expect(screen.getByRole('link', { name: 'Open the camera' })).toHaveAttribute(
      'href',
      '/cameras/Driveway',
    );
  });

  it('"Edit" keeps the details entered; unchanged ones are tried again, corrected ones are stored', async () => {
    server = {
      ...server,
      configuration_status: 'failed',
      configuration_error: 'The camera could not be reached.',
    };
    const user = await addOnvifCamera();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: "The camera's connection details" });
    expect(within(form).getByLabelText('Camera address')).toHaveValue('192.168.1.20');
    expect(within(form).getByLabelText('Password')).toHaveValue('secret');
    await user.type(within(form).getByLabelText('Password'), '2');
    await user.click(within(form).getByRole('button', { name: 'Try again' }));
    expect(call).toHaveBeenCalledWith('updateCamera', {
      body: {
        name: 'Driveway',
        connection: expect.objectContaining({ type: 'onvif', host: '192.168.1.20', password: 'secret2' }),
      },
    });
    expect(
      await screen.findByText('Connecting to your camera… This takes up to 30 seconds.'),
    ).toBeInTheDocument();
  });

  it('"Edit" with nothing changed configures the camera again with what it has', async () => {
    server = {
      ...server,
      configuration_status: 'failed',
      configuration_error: 'The camera could not be reached.',
    };
    const user = await addOnvifCamera();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: "The camera's connection details" });
    await user.click(within(form).getByRole('button', { name: 'Try again' }));
    expect(call).toHaveBeenCalledWith('configureCamera', { params: { name: 'Driveway' } });
  });

  it('reads the camera every few seconds while it configures, in case a realtime message is missed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPage('/cameras/add?type=stream&camera=Driveway');
      expect(
        await screen.findByText('Connecting to your camera… This takes up to 30 seconds.'),
      ).toBeInTheDocument();
      server = { ...server, configuration_status: 'failed', configuration_error_code: 'unreachable' };
      await act(() => vi.advanceTimersByTimeAsync(3_000));
      expect(await screen.findByRole('alert')).toHaveTextContent(CAMERA_CONFIGURATION_ERRORS.unreachable);
    } finally {
      vi.useRealTimers();
    }
  });
});
