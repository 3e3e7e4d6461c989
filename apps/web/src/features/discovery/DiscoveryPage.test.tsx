import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { cameraFixture } from '../../test/cameraFixtures';
import { createFakeHelper, device, helperStatus, testResult, type FakeHelper } from '../../test/fakeHelper';
import { setupDiscoveryTestI18n } from '../../test/i18n';
import { camerasKey } from '../cameras/api';
import DiscoveryPage from './DiscoveryPage';

vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() }, session: {} }));
vi.mock('../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedIn', user: { email: 'sam@example.com' }, isVerified: true }),
}));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

const call = vi.mocked(api.call);
let helper: FakeHelper;
/** What the server says: is this user's helper connected, which builds it offers. */
let server: {
  connected: boolean;
  downloads: { os: string; arch: string; url: string; size: number | null }[];
};

beforeAll(setupDiscoveryTestI18n);
beforeEach(() => {
  helper = createFakeHelper();
  vi.stubGlobal('fetch', helper.fetch);
  server = { connected: false, downloads: [] };
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    switch (name) {
      case 'listCameras':
        return { success: true, data: [cameraFixture({ name: 'Cam 2' })] };
      case 'listSites':
        return { success: true, data: [] };
      case 'getHelperStatus':
        return { success: true, data: { connected: server.connected, version: null, last_seen_at: null } };
      case 'listHelperDownloads':
        return { success: true, data: server.downloads };
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The browser's back button, for a MemoryRouter. */
function BrowserBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <>
      <button onClick={() => void navigate(-1)}>browser back</button>
      <output data-testid="location">{location.pathname + location.search}</output>
    </>
  );
}

let client: QueryClient;

function renderPage(path = '/cameras/add/network') {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/cameras/add', path]} initialIndex={1}>
        <BrowserBack />
        <Routes>
          <Route path="/cameras/add/network" element={<DiscoveryPage />} />
          <Route path="/cameras" element={<h1>Cameras list</h1>} />
          <Route path="/cameras/add" element={<h1>Add camera</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const front = device({ address: '192.168.1.20', name: 'Front door', mac: 'AA:BB:CC:00:11:22' });
const garden = device({
  address: '192.168.1.21',
  manufacturer: 'Acme',
  model: 'Cam 2',
  needs_credentials: false,
});
const printer = device({
  address: '192.168.1.30',
  manufacturer: 'Inkjet',
  supported: false,
  onvif: null,
  rtsp: null,
  unsupported_code: 'not_a_camera',
  unsupported_reason: 'This device is not a camera',
});

async function startScan(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Start scan' }));
  await waitFor(() => expect(helper.scanOpen).toBe(true));
  helper.emit({ type: 'started', subnets: ['192.168.1.0/24'], timeout_ms: 60_000 });
}

/** Scans, ticks Front door and Acme Cam 2, enters one login for both, and lands on the summary. */
async function walkToSummary(user: ReturnType<typeof userEvent.setup>) {
  renderPage();
  await startScan(user);
  for (const d of [front, garden, printer]) helper.emit({ type: 'device', device: d });
  await user.click(await screen.findByRole('checkbox', { name: /Front door/ }));
  await user.click(screen.getByRole('checkbox', { name: /Acme Cam 2/ }));
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  const shared = await screen.findByRole('group', { name: 'Login for all cameras' });
  await user.type(within(shared).getByLabelText('Username'), 'admin');
  await user.type(within(shared).getByLabelText('Password'), 'secret');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Summary' });
}

describe('when the helper cannot be used', () => {
  it('says it is not running, with the server’s downloads', async () => {
    helper.state.running = false;
    server.downloads = [
      {
        os: 'windows',
        arch: 'x64',
        url: '/api/helper/downloads/homesitter-helper-windows-x64.exe',
        size: 48_000_000,
      },
    ];
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'The Homesitter helper is not running' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Windows (x64), 48 MB' })).toHaveAttribute(
      'href',
      '/api/helper/downloads/homesitter-helper-windows-x64.exe',
    );
  });

  it('offers the server’s own build before it is made, and names the systems it does not offer', async () => {
    helper.state.running = false;
    server.downloads = [
      { os: 'linux', arch: 'x64', url: '/api/helper/downloads/homesitter-helper-linux-x64', size: null },
    ];
    renderPage();
    expect(
      await screen.findByRole('link', { name: 'Linux (x64), made when you click (a few seconds)' }),
    ).toHaveAttribute('href', '/api/helper/downloads/homesitter-helper-linux-x64');
    expect(screen.getByText(/^Not on this server: Windows and macOS\./)).toBeInTheDocument();
    expect(screen.queryByText(/npm run helper/)).not.toBeInTheDocument();
  });

  it('says plainly who can help when the server offers no build at all', async () => {
    helper.state.running = false;
    renderPage();
    expect(await screen.findByText(/cannot offer the helper at the moment/)).toBeInTheDocument();
    expect(screen.queryByText(/npm run helper/)).not.toBeInTheDocument();
  });

  it('says the browser blocks it when the server has the helper connected', async () => {
    helper.state.running = false;
    server.connected = true;
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Your browser keeps this page from the helper' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/often block 127\.0\.0\.1:17429/)).toBeInTheDocument();
  });

  it('says the helper is missing or outdated when something else answers', async () => {
    helper.state.status = { app: 'other', version: '2.0' };
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'The helper is missing or out of date' }),
    ).toBeInTheDocument();
  });

  it('moves on by itself once the helper is started', async () => {
    helper.state.running = false;
    renderPage();
    await screen.findByRole('heading', { name: 'The Homesitter helper is not running' });
    helper.state.running = true;
    expect(await screen.findByRole('button', { name: 'Start scan' }, { timeout: 5_000 })).toBeEnabled();
  });
});

describe('the welcome step', () => {
  it('has a signed-out helper signed in in a new tab, and waits for it', async () => {
    helper.state.status = helperStatus({ signed_in: false, email: null });
    const user = userEvent.setup();
    renderPage();
    const signIn = await screen.findByRole('link', { name: /Sign the helper in/ });
    expect(signIn).toHaveAttribute('href', 'http://127.0.0.1:17429/sign-in');
    expect(signIn).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('button', { name: 'Start scan' })).toBeDisabled();
    await user.click(signIn);
    expect(screen.getByText('Waiting for the helper to be signed in…')).toBeInTheDocument();
    helper.state.status = helperStatus();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start scan' })).toBeEnabled(), {
      timeout: 5_000,
    });
    expect(screen.getByText(/It is signed in as sam@example.com/)).toBeInTheDocument();
  });
});

describe('the discovery flow', () => {
  it('lists devices as they stream in: locks, unsupported ones greyed with the reason', async () => {
    const user = userEvent.setup();
    renderPage();
    await startScan(user);
    expect(screen.getByRole('progressbar', { name: 'Scan progress' })).toBeInTheDocument();
    helper.emit({ type: 'device', device: { ...front, name: null, model: 'P1' } });
    helper.emit({ type: 'device', device: printer });
    // The same device again, with more known: replaced in place.
    helper.emit({ type: 'device', device: front });
    const list = await screen.findByRole('list', { name: 'Devices found' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    const first = within(list).getAllByRole('listitem')[0]!;
    expect(first).toHaveTextContent('Front door');
    expect(first).toHaveTextContent('MAC AA:BB:CC:00:11:22');
    expect(within(first).getByText('Needs a username and password')).toBeInTheDocument();
    const printerBox = screen.getByRole('checkbox', { name: /Inkjet/ });
    expect(printerBox).toBeDisabled();
    expect(printerBox).toHaveAccessibleDescription('Not supported: This device is not a camera.');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    helper.emit({ type: 'done', devices: 2, timed_out: false });
    helper.endScan();
    expect(await screen.findByText('Scan finished. 2 devices found.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows tips and the manual way when the scan finds no camera', async () => {
    const user = userEvent.setup();
    renderPage();
    await startScan(user);
    helper.emit({ type: 'device', device: printer });
    helper.emit({ type: 'done', devices: 1, timed_out: true });
    helper.endScan();
    expect(await screen.findByRole('heading', { name: 'No cameras found' })).toBeInTheDocument();
    expect(screen.getByText(/Turn on ONVIF or RTSP/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a camera manually' })).toHaveAttribute(
      'href',
      '/cameras/add?type=stream',
    );
    // The helper may still be winding the last scan down: asked again until it starts.
    helper.state.busyScans = 1;
    await user.click(screen.getAllByRole('button', { name: 'Scan again' })[0]!);
    await waitFor(() => expect(helper.callsTo('/discover')).toHaveLength(3));
    await waitFor(() => expect(helper.scanOpen).toBe(true));
    expect(screen.getByTestId('scan-status')).toHaveAttribute('data-status', 'scanning');
  });

  it('tests a camera with the login for all, and lets one camera have its own', async () => {
    const user = userEvent.setup();
    renderPage();
    await startScan(user);
    helper.emit({ type: 'device', device: front });
    helper.emit({ type: 'device', device: garden });
    await user.click(await screen.findByRole('checkbox', { name: /Front door/ }));
    await user.click(screen.getByRole('checkbox', { name: /Acme Cam 2/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const shared = await screen.findByRole('group', { name: 'Login for all cameras' });
    await user.type(within(shared).getByLabelText('Username'), 'admin');
    await user.type(within(shared).getByLabelText('Password'), 'secret');

    helper.state.testResult = () =>
      testResult({ verdict: 'failed', error_code: 'wrong_credentials', snapshot: null, video: null });
    await user.click(screen.getByRole('button', { name: 'Test Acme Cam 2' }));
    const gardenCard = screen.getByRole('group', { name: 'Acme Cam 2 at 192.168.1.21' });
    expect(await within(gardenCard).findByText(/refused the username or password/)).toBeInTheDocument();
    expect(helper.callsTo('/cameras/test')[0]!.body).toEqual({
      connection: { type: 'onvif', host: '192.168.1.21', port: 80, username: 'admin', password: 'secret' },
    });

    await user.click(within(gardenCard).getByRole('button', { name: 'This camera has another login' }));
    // It starts from the login for all.
    expect(within(gardenCard).getByLabelText('Username')).toHaveValue('admin');
    await user.clear(within(gardenCard).getByLabelText('Username'));
    await user.type(within(gardenCard).getByLabelText('Username'), 'viewer');
    await user.clear(within(gardenCard).getByLabelText('Password'));
    await user.type(within(gardenCard).getByLabelText('Password'), 'other');
    helper.state.testResult = () => ({
      verdict: 'works',
      error_code: null,
      message: 'ok',
      snapshot: 'data:image/jpeg;base64,AAAA',
      video: { codec: 'h264', width: 1280, height: 720, fps: 20 },
      sub_video: null,
      audio_codec: null,
      device: null,
      motion_source: 'frames',
      elapsed_ms: 1000,
    });
    await user.click(within(gardenCard).getByRole('button', { name: 'Test Acme Cam 2' }));
    expect(await within(gardenCard).findByText('Works with Homesitter')).toBeInTheDocument();
    expect(within(gardenCard).getByRole('img', { name: 'Picture from Acme Cam 2' })).toBeInTheDocument();
    expect(within(gardenCard).getByText('H264 · 1280×720 · 20 fps')).toBeInTheDocument();
    expect(helper.callsTo('/cameras/test')[1]!.body).toMatchObject({
      connection: { username: 'viewer', password: 'other' },
    });
  });

  it('names the cameras uniquely, configures them and follows each to the end, fixing a refused login inline', async () => {
    const user = userEvent.setup();
    await walkToSummary(user);
    expect(screen.getByLabelText('Name of the camera at 192.168.1.20')).toHaveValue('Front door');
    // "Cam 2" is taken by a camera already in the account.
    const gardenName = screen.getByLabelText('Name of the camera at 192.168.1.21');
    expect(gardenName).toHaveValue('Cam 2 2');
    await user.clear(gardenName);
    await user.type(gardenName, 'front door');
    await user.click(screen.getByRole('button', { name: 'Set up 2 cameras' }));
    expect(
      screen.getAllByText('A camera with this name already exists. Please choose a different name.').length,
    ).toBeGreaterThan(0);
    expect(helper.callsTo('/cameras/configure')).toHaveLength(0);
    await user.clear(gardenName);
    await user.type(gardenName, 'Garden');
    await user.click(screen.getByRole('button', { name: 'Set up 2 cameras' }));

    await screen.findByRole('heading', { name: 'Setting up' });
    expect(helper.callsTo('/cameras/configure')[0]!.body).toEqual({
      cameras: [
        {
          device_id: '192.168.1.20',
          name: 'Front door',
          site_uuid: null,
          connection: {
            type: 'onvif',
            host: '192.168.1.20',
            port: 80,
            username: 'admin',
            password: 'secret',
          },
        },
        {
          device_id: '192.168.1.21',
          name: 'Garden',
          site_uuid: null,
          connection: {
            type: 'onvif',
            host: '192.168.1.21',
            port: 80,
            username: 'admin',
            password: 'secret',
          },
        },
      ],
    });
    const row = (name: string) => screen.getAllByTestId('job').find((el) => el.dataset.camera === name)!;
    expect(within(row('Front door')).getByTestId('job-status')).toHaveAttribute('data-status', 'pending');

    helper.setJob('job-1', { status: 'configured', mode: 'server', camera_uuid: 'c-1' });
    helper.setJob('job-2', {
      status: 'failed',
      error_code: 'wrong_credentials',
      message: 'The camera refused the username or password.',
    });
    const refused = await within(row('Garden')).findByText(/Enter the right login and try again/, undefined, {
      timeout: 3_000,
    });
    expect(refused).toBeInTheDocument();
    expect(within(row('Front door')).getByTestId('job-status')).toHaveAttribute('data-status', 'configured');
    // The cameras list is read again when shown next.
    await waitFor(() => expect(client.getQueryState(camerasKey)?.isInvalidated).toBe(true));

    const fix = within(row('Garden')).getByRole('form', { name: 'New login for Garden' });
    await user.type(within(fix).getByLabelText('Password'), 'right');
    await user.click(within(fix).getByRole('button', { name: 'Try again with this login' }));
    await waitFor(() => expect(helper.callsTo('/jobs/job-2/retry')).toHaveLength(1));
    expect(helper.callsTo('/jobs/job-2/retry')[0]!.body).toEqual({
      connection: { type: 'onvif', host: '192.168.1.21', port: 80, username: 'admin', password: 'right' },
    });
    helper.setJob('job-2', { status: 'configured', mode: 'bridge' });
    expect(
      await screen.findByText('2 of 2 cameras ready.', undefined, { timeout: 3_000 }),
    ).toBeInTheDocument();
    expect(within(row('Garden')).getByText(/The helper on this computer records it/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { name: 'Cameras list' })).toBeInTheDocument();
  });

  it('keeps what was entered while the helper is started again', async () => {
    const user = userEvent.setup();
    await walkToSummary(user);
    await user.clear(screen.getByLabelText('Name of the camera at 192.168.1.21'));
    await user.type(screen.getByLabelText('Name of the camera at 192.168.1.21'), 'Garden');
    helper.state.running = false;
    await user.click(screen.getByRole('button', { name: 'Set up 2 cameras' }));
    expect(await screen.findByRole('heading', { name: 'The helper stopped' })).toBeInTheDocument();

    helper.state.running = true;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Name of the camera at 192.168.1.21')).toHaveValue('Garden');
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeInTheDocument();
  });

  it('shows the stopped screen when the helper quits mid-scan, keeping what it found', async () => {
    const user = userEvent.setup();
    renderPage();
    await startScan(user);
    helper.emit({ type: 'device', device: front });
    await screen.findByRole('checkbox', { name: /Front door/ });
    helper.state.running = false;
    helper.failScan();
    expect(await screen.findByRole('heading', { name: 'The helper stopped' })).toBeInTheDocument();
    helper.state.running = true;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('checkbox', { name: /Front door/ })).toBeInTheDocument();
  });

  it('moves between steps with the browser’s back button, keeping the entries', async () => {
    const user = userEvent.setup();
    await walkToSummary(user);
    expect(screen.getByTestId('location')).toHaveTextContent('/cameras/add/network?step=summary');
    await user.click(screen.getByRole('button', { name: 'browser back' }));
    const shared = await screen.findByRole('group', { name: 'Login for all cameras' });
    expect(within(shared).getByLabelText('Username')).toHaveValue('admin');
    await user.click(screen.getByRole('button', { name: 'browser back' }));
    expect(await screen.findByRole('checkbox', { name: /Front door/ })).toBeChecked();
    expect(screen.getByTestId('location')).toHaveTextContent('/cameras/add/network?step=scan');
  });

  it('sends a step that needs a selection back to the start when opened directly', async () => {
    renderPage('/cameras/add/network?step=summary');
    expect(await screen.findByRole('button', { name: 'Start scan' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/cameras\/add\/network$/);
  });
});
