import type { DiscoveryEvent } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../shared/lib/api';
import { cameraDetailFixture, cameraFixture } from '../../../test/cameraFixtures';
import { device } from '../../../test/fakeHelper';
import { setupDiscoveryTestI18n } from '../../../test/i18n';
import DiscoveryPage from '../DiscoveryPage';
import { NoWifiError } from '../phoneDiscovery';

vi.mock('../../../shared/lib/api', () => ({ api: { call: vi.fn() }, session: {} }));
vi.mock('../../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', user: { email: 'sam@example.com' }, isVerified: true }),
}));
vi.mock('../../../shared/lib/useRealtime', () => import('../../../test/fakeRealtime'));
vi.mock('../../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));
/** The phone's scan, as the plugin would stream it; set per test. */
const scan = vi.hoisted(() => ({
  run: null as null | ((emit: (e: DiscoveryEvent) => void) => Promise<void>),
}));
vi.mock('./phoneClient', () => ({
  phone: {
    discover: (emit: (e: DiscoveryEvent) => void) => scan.run!(emit),
    testCamera: () => Promise.reject(new Error('not used here')),
  },
}));

const call = vi.mocked(api.call);
const CAMERA = device({ address: '192.168.1.20' });
/** Where the server's configuration of the added camera ends. */
let configured: 'configured' | 'failed';

beforeAll(setupDiscoveryTestI18n);
beforeEach(() => {
  // The Android app: Capacitor's global says native.
  vi.stubGlobal('Capacitor', { isNativePlatform: () => true, getPlatform: () => 'android' });
  scan.run = async (emit) => {
    emit({ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60_000 });
    emit({ type: 'device', device: CAMERA });
    emit({ type: 'done', devices: 1, timed_out: false });
  };
  configured = 'failed';
  call.mockReset();
  call.mockImplementation((async (name: string, input?: { body?: unknown; params?: { name: string } }) => {
    switch (name) {
      case 'listCameras':
      case 'listSites':
        return { success: true, data: [] };
      case 'addCamera':
        return {
          success: true,
          data: cameraFixture({ name: 'Camera 192.168.1.20', configuration_status: 'pending' }),
        };
      case 'getCamera':
        return {
          success: true,
          data: cameraDetailFixture({
            name: input!.params!.name,
            configuration_status: configured,
            configuration_error_code: configured === 'failed' ? 'unreachable' : null,
            configuration_error: configured === 'failed' ? 'unreachable' : null,
          }),
        };
      case 'updateCamera':
        return {
          success: true,
          data: cameraFixture({ name: 'Camera 192.168.1.20', connection_type: 'upload' }),
        };
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/cameras/add/network']}>
        <Where />
        <Routes>
          <Route path="/cameras/add/network" element={<DiscoveryPage />} />
          <Route path="/settings/camera-setup" element={<h1>Camera setup</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function scanAndAdd(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Start scan' }));
  await user.click(await screen.findByRole('button', { name: 'Continue and scan' }));
  await user.click(await screen.findByRole('checkbox', { name: /192\.168\.1\.20/ }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  const shared = await screen.findByRole('group', { name: 'Camera login' });
  await user.type(within(shared).getByLabelText('Username'), 'admin');
  await user.type(within(shared).getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.click(await screen.findByRole('button', { name: 'Set up 1 camera' }));
}

describe('the discovery flow in the Android app', () => {
  it('runs on the phone without the helper and adds the camera to the server as stream pull', async () => {
    const user = userEvent.setup();
    configured = 'configured';
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Let this phone find your cameras' })).toBeTruthy();
    expect(screen.queryByText(/helper is not running/)).toBeNull();
    await scanAndAdd(user);

    const row = await screen.findByTestId('phone-camera');
    await within(row).findByText('Ready: Homesitter records this camera.');
    expect(call).toHaveBeenCalledWith('addCamera', {
      body: {
        name: 'Camera 192.168.1.20',
        site_uuid: null,
        connection: { type: 'onvif', host: '192.168.1.20', port: 80, username: 'admin', password: 'secret' },
      },
    });
    expect(within(row).queryByTestId('out-of-reach')).toBeNull();
  });

  it('offers the helper as a bridge or uploads with the name and address for a camera the server cannot reach', async () => {
    const user = userEvent.setup();
    renderPage();
    await scanAndAdd(user);

    const reach = await screen.findByTestId('out-of-reach');
    await user.click(within(reach).getByRole('button', { name: 'Bridge it with the helper on a computer' }));
    expect(within(reach).getByText(/Install the Homesitter helper on a computer at home/)).toBeTruthy();
    await user.click(within(reach).getByRole('button', { name: 'Let the camera upload (FTP or email)' }));

    await screen.findByRole('heading', { name: 'Camera setup' });
    expect(call).toHaveBeenCalledWith('updateCamera', {
      body: { name: 'Camera 192.168.1.20', connection: { type: 'upload' } },
    });
    expect(screen.getByTestId('location').textContent).toBe(
      '/settings/camera-setup?camera=Camera+192.168.1.20&address=192.168.1.20',
    );
  });

  it('says how to join a Wi-Fi, or allow the local network, in Android’s settings', async () => {
    const user = userEvent.setup();
    scan.run = () => Promise.reject(new NoWifiError());
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Start scan' }));
    await user.click(await screen.findByRole('button', { name: 'Continue and scan' }));
    expect(await screen.findByRole('heading', { name: 'This phone is not on a Wi-Fi' })).toBeTruthy();
    expect(screen.getByText(/Settings › Network & internet › Wi-Fi/)).toBeTruthy();

    scan.run = () => Promise.reject(new Error('socket: permission denied'));
    await user.click(screen.getByRole('button', { name: 'Scan again' }));
    expect(
      await screen.findByRole('heading', { name: 'Homesitter may not use the local network' }),
    ).toBeTruthy();
    expect(screen.getByText(/Settings › Apps › Homesitter › Permissions/)).toBeTruthy();
  });

  it('gives the tips for a phone when the scan finds no camera', async () => {
    const user = userEvent.setup();
    scan.run = async (emit) => {
      emit({ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60_000 });
      emit({ type: 'done', devices: 0, timed_out: false });
    };
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Start scan' }));
    await user.click(await screen.findByRole('button', { name: 'Continue and scan' }));
    const empty = await screen.findByTestId('scan-empty');
    expect(within(empty).getByText('Turn off a VPN on this phone while scanning.')).toBeTruthy();
    expect(within(empty).queryByText(/computer/)).toBeNull();
  });
});
