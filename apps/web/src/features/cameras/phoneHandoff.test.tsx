import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../shared/lib/api';
import { setupCamerasTestI18n } from '../../test/i18n';
import AddCameraPage from './AddCameraPage';
import CameraSetupPage from './CameraSetupPage';

/**
 * Where the phone's discovery (issue 33) meets the camera screens: "Find cameras on my network" says the
 * phone does it inside the apps, and camera setup names the camera the phone could not hand to the server.
 */
vi.mock('../../shared/lib/api', () => ({ api: { call: vi.fn() } }));
vi.mock('../../shared/lib/useRealtime', () => import('../../test/fakeRealtime'));
vi.mock('../../shared/lib/toast', () => ({
  notify: { success: vi.fn(), error: vi.fn(), info: vi.fn(), tip: vi.fn() },
}));

const call = vi.mocked(api.call);

beforeAll(setupCamerasTestI18n);
beforeEach(() => {
  call.mockReset();
  call.mockImplementation((async (name: string) => {
    switch (name) {
      case 'listCameras':
      case 'listSites':
        return { success: true, data: [] };
      case 'getCameraUploadCredentials':
        return {
          success: true,
          data: {
            username: 'u-123',
            password: 'p-456',
            email_address: 'cams@example.com',
            smtp_host: 'mail.example.com',
            smtp_port: 587,
            ftp_host: 'ftp.example.com',
            ftp_port: 21,
          },
        };
      default:
        throw new Error(`unexpected call ${name}`);
    }
  }) as never);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/cameras/add" element={<AddCameraPage />} />
          <Route path="/settings/camera-setup" element={<CameraSetupPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the phone discovery hand-off', () => {
  it('says the helper finds the cameras in the browser', async () => {
    renderAt('/cameras/add');
    expect(
      await screen.findByText(
        'The Homesitter helper on your computer finds your cameras and sets them up for you.',
      ),
    ).toBeTruthy();
  });

  it('says the phone finds them in the app', async () => {
    vi.stubGlobal('Capacitor', { isNativePlatform: () => true, getPlatform: () => 'ios' });
    renderAt('/cameras/add');
    expect(
      await screen.findByText('Your phone finds the cameras on its Wi-Fi and sets them up for you.'),
    ).toBeTruthy();
    expect(screen.queryByText(/helper/i)).toBeNull();
  });

  it('names the camera and links to its web page on camera setup', async () => {
    renderAt('/settings/camera-setup?camera=Garage&address=192.168.1.20');
    expect(await screen.findByRole('heading', { name: 'Uploads for Garage' })).toBeTruthy();
    expect(screen.getByText(/with Garage as the upload folder \(FTP\)/)).toBeTruthy();
    const link = screen.getByRole('link', { name: "Open the camera's web page (192.168.1.20)" });
    expect(link.getAttribute('href')).toBe('http://192.168.1.20/');
    expect(await screen.findByText('ftp.example.com')).toBeTruthy();
  });

  it('links no address that is not one', async () => {
    renderAt('/settings/camera-setup?camera=Garage&address=evil.example.com%2Fx');
    expect(await screen.findByRole('heading', { name: 'Uploads for Garage' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /web page/ })).toBeNull();
  });
});
