import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../shared/lib/api';
import { createFakeHelper, device, testResult, type FakeHelper } from '../../../test/fakeHelper';
import { setupDiscoveryTestI18n } from '../../../test/i18n';
import CameraTestPage from './CameraTestPage';

vi.mock('../../../shared/lib/api', () => ({ api: { call: vi.fn() }, session: {} }));
vi.mock('../../../shared/lib/useSession', () => ({
  useSession: () => ({ status: 'signedOut', user: null, isVerified: false }),
}));

const call = vi.mocked(api.call);
let helper: FakeHelper;

beforeAll(setupDiscoveryTestI18n);
beforeEach(() => {
  helper = createFakeHelper();
  vi.stubGlobal('fetch', helper.fetch);
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    if (name === 'listHelperDownloads') return { success: true, data: [] };
    throw new Error(`unexpected call ${name}`);
  }) as never);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/camera-test']}>
        <CameraTestPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Scans, picks the camera at 192.168.1.20, enters its login and runs the test. */
async function testFrontDoor(user: ReturnType<typeof userEvent.setup>) {
  renderPage();
  await user.click(await screen.findByRole('button', { name: 'Scan my network' }));
  await waitFor(() => expect(helper.scanOpen).toBe(true));
  helper.emit({ type: 'device', device: device({ address: '192.168.1.20', name: 'Front door' }) });
  await user.click(await screen.findByRole('radio', { name: /Front door/ }));
  expect(screen.getByRole('radio', { name: /Front door/ })).toBeChecked();
  await user.click(screen.getByRole('button', { name: 'Continue with this camera' }));
  const form = await screen.findByRole('form', { name: 'Camera to test' });
  expect(within(form).getByLabelText('Camera address')).toHaveValue('192.168.1.20');
  await user.type(within(form).getByLabelText('Username'), 'admin');
  await user.type(within(form).getByLabelText('Password'), 'secret');
  await user.click(within(form).getByRole('button', { name: 'Test the camera' }));
  return screen.findByTestId('camera-test-result');
}

describe('the public camera test', () => {
  it('without the helper, explains how to get it and how upload cameras connect instead, asking the server nothing about the user', async () => {
    helper.state.running = false;
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'The Homesitter helper is not running' }),
    ).toBeInTheDocument();
    const upload = screen.getByTestId('without-helper');
    expect(within(upload).getByText(/over FTP or email/)).toBeInTheDocument();
    expect(within(upload).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth');
    expect(within(upload).getByRole('link', { name: 'How camera setup works' })).toHaveAttribute(
      'href',
      '/settings/camera-setup',
    );
    expect(await screen.findByText(/cannot offer the helper at the moment/)).toBeInTheDocument();
    expect(screen.queryByText(/npm run helper/)).not.toBeInTheDocument();
    expect(call.mock.calls.map(([name]) => name)).not.toContain('getHelperStatus');
  });

  it('tells a blocked helper from a missing one without the server', async () => {
    helper.state.corsBlocked = true;
    renderPage();
    expect(
      await screen.findByRole('heading', { name: 'Your browser keeps this page from the helper' }),
    ).toBeInTheDocument();
    expect(call.mock.calls.map(([name]) => name)).not.toContain('getHelperStatus');
  });

  it('finds a camera, tests it and shows the picture, the streams and “Works with Homesitter”', async () => {
    const user = userEvent.setup();
    const result = await testFrontDoor(user);
    expect(helper.callsTo('/cameras/test')[0]!.body).toEqual({
      connection: { type: 'onvif', host: '192.168.1.20', port: 80, username: 'admin', password: 'secret' },
    });
    expect(result).toHaveAttribute('data-verdict', 'works');
    expect(within(result).getByText('Works with Homesitter')).toBeInTheDocument();
    expect(within(result).getByRole('img', { name: 'Picture from Front door' })).toHaveAttribute(
      'src',
      'data:image/jpeg;base64,AAAA',
    );
    expect(within(result).getByText('H264 · 1920×1080 · 25 fps')).toBeInTheDocument();
    expect(within(result).getByText('H264 · 640×360 · 15 fps')).toBeInTheDocument();
    expect(within(result).getByText('AAC')).toBeInTheDocument();
    expect(within(result).getByText('Acme Cam 2 (firmware 1.2.3)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up to add it' })).toHaveAttribute('href', '/auth');
  });

  it.each([
    [
      testResult({
        verdict: 'unsupported',
        error_code: 'no_supported_stream',
        video: { codec: 'h265', width: 2560, height: 1440, fps: 20 },
      }),
      /streams H\.265 only\. Switch its video to H\.264/,
    ],
    [
      testResult({ verdict: 'failed', error_code: 'wrong_credentials', snapshot: null }),
      /refused the username or password/,
    ],
    [
      testResult({ verdict: 'failed', error_code: 'unreachable', snapshot: null, video: null }),
      /could not be reached/,
    ],
    [
      testResult({ verdict: 'failed', error_code: 'timed_out', snapshot: null, video: null }),
      /did not answer in time/,
    ],
  ])('says what to change: %#', async (answer, advice) => {
    helper.state.testResult = () => answer;
    const user = userEvent.setup();
    const result = await testFrontDoor(user);
    expect(result).toHaveAttribute('data-verdict', answer.verdict);
    expect(within(result).queryByText('Works with Homesitter')).not.toBeInTheDocument();
    expect(within(result).getByText(advice)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign up to add it' })).not.toBeInTheDocument();
  });

  it('tests a camera typed in by address', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Type its address instead' }));
    const form = screen.getByRole('form', { name: 'Camera to test' });
    await user.click(within(form).getByRole('radio', { name: /RTSP address/ }));
    await user.type(within(form).getByLabelText('Stream address (RTSP)'), 'rtsp://192.168.1.50:554/live');
    await user.click(within(form).getByRole('button', { name: 'Test the camera' }));
    await screen.findByTestId('camera-test-result');
    expect(helper.callsTo('/cameras/test')[0]!.body).toEqual({
      connection: { type: 'rtsp', url: 'rtsp://192.168.1.50:554/live' },
    });
  });
});
