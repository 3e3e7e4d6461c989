import { DndContext } from '@dnd-kit/core';
import type { Camera } from '@homesitter/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { cameraFixture } from '../../test/cameraFixtures';
import { setupCamerasTestI18n } from '../../test/i18n';
import { CameraCard } from './CameraCard';

function renderCard(over: Partial<Camera>) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <DndContext>
          <ul>
            <CameraCard camera={cameraFixture(over)} />
          </ul>
        </DndContext>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeAll(setupCamerasTestI18n);

describe('a camera card', () => {
  it('shows the latest snapshot, lazily, with an alt text, and a fallback when it cannot load', () => {
    renderCard({ snapshot_url: '/media/snap.jpg?sig=1', snapshot_date_time_utc: '2026-11-25T10:00:00Z' });
    const image = screen.getByRole('img', { name: /^Latest snapshot from Driveway, / });
    expect(image).toHaveAttribute('src', '/media/snap.jpg?sig=1');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveClass('aspect-video');

    fireEvent.error(image);
    expect(screen.getByRole('img', { name: /^Latest snapshot from Driveway, / }).tagName).toBe('DIV');
    expect(screen.getByText('Snapshot unavailable')).toBeInTheDocument();
  });

  it('says "No activity yet" and "Waiting for the first event" for a new upload camera, never "Pending"', () => {
    renderCard({ configuration_status: 'pending' });
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getAllByText('No activity yet').length).toBeGreaterThan(0);
    expect(screen.getByTestId('camera-status')).toHaveTextContent('Waiting for the first event');
    expect(screen.queryByText('Pending')).not.toBeInTheDocument();
  });

  it('says an upload camera is receiving events once it has sent one', () => {
    renderCard({ last_activity_date_time_utc: '2026-11-25T10:00:00Z' });
    expect(screen.getByTestId('camera-status')).toHaveTextContent('Receiving events');
  });

  it("tells a stream camera's state, with the stream error as its title", () => {
    renderCard({
      connection_type: 'rtsp',
      configuration_status: 'configured',
      stream_status: 'reconnecting',
      stream_error: 'Connection refused',
    });
    const badge = screen.getByTestId('camera-status');
    expect(badge).toHaveTextContent('Reconnecting…');
    expect(badge).toHaveAttribute('title', 'Connection refused');
  });

  it('shows a failed configuration as such', () => {
    renderCard({
      connection_type: 'onvif',
      configuration_status: 'failed',
      configuration_error: 'The camera refused the username or password.',
    });
    expect(screen.getByTestId('camera-status')).toHaveTextContent('Setup failed');
  });
});
