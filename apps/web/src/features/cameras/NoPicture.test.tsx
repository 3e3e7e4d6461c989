import type { Activity, VideoAttachment } from '@homesitter/contract';
import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { VideoPlayer } from '../../shared/ui/VideoPlayer';
import { ActivityItem } from './ActivityItem';
import { setupCamerasTestI18n } from '../../test/i18n';

const sentence =
  "Front Door Doorbell reported: the doorbell rang; a person was at the door. No picture: the event reached Homesitter after Google's picture had expired.";

/** A Nest event that reached the server after Google's picture had expired. */
const pictureless: Activity = {
  activity_uuid: 'a1',
  camera_name: 'Front Door Doorbell',
  site_uuid: null,
  date_time_utc: '2026-03-01T08:00:00.000Z',
  media_kind: 'none',
  thumbnail_image_url: null,
  video_url: null,
  hls_url: null,
  image_urls: [],
  width: null,
  height: null,
  aspect_ratio: null,
  focus: { x: 0.5, y: 0.5 },
  duration_seconds: null,
  processing_status: 'processed',
  objects: [],
  recognised_memories: [],
  activity_description: sentence,
  activity_description_in_preferred_language: sentence,
};

const attachment: VideoAttachment = {
  video_url: null,
  url: null,
  hls_url: null,
  activity_uuid: 'a1',
  camera_name: 'Front Door Doorbell',
  date_time_utc: '2026-03-01T08:00:00.000Z',
  activity_description: sentence,
  activity_description_in_preferred_language: sentence,
  aspectRatio: null,
  metaWidth: null,
  metaHeight: null,
  coalesced_activity_uuid: null,
  thumbnail_image_url: null,
};

let i18n: Awaited<ReturnType<typeof setupCamerasTestI18n>>;
beforeAll(async () => {
  i18n = await setupCamerasTestI18n();
});

describe('an event without a picture', () => {
  it('shows a "No picture" tile in the past events, not an image, and opens as an event', async () => {
    render(<ActivityItem activity={pictureless} when="8:00 AM" onOpen={() => {}} />);
    expect(screen.getByRole('img', { name: 'No picture' })).toHaveTextContent('No picture');
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show the event from 8:00 AM' })).toBeInTheDocument();
    expect(screen.getByText(sentence)).toBeInTheDocument();
    expect(screen.queryByText(/snapshots?$/)).not.toBeInTheDocument();
  });

  it('shows the tile in an alert in the chat, with its sentence under it, in German too', async () => {
    await i18n.changeLanguage('de');
    try {
      render(<VideoPlayer video={attachment} />);
      expect(screen.getByRole('img', { name: 'Kein Bild' })).toBeInTheDocument();
      expect(document.querySelector('img, video')).toBeNull();
      expect(screen.getByText(sentence)).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
