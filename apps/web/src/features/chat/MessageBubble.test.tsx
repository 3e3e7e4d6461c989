import { render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import deChat from '../../../public/locales/de/chat.json';
import enChat from '../../../public/locales/en/chat.json';
import { setupTestI18n } from '../../test/i18n';
import { MessageBubble } from './MessageBubble';
import type { ChatItem } from './chatState';

const item: ChatItem = {
  message_uuid: 'm1',
  date_time_utc: '2025-06-10T01:10:00.000Z',
  role: 'agent',
  text: 'A person walked up to the Door at 3:10 AM.',
  image_urls: [],
  hidden_images: [],
  videos: [],
  source_activity_uuid_list: [],
  reply_to_message_uuid: null,
  reply_to_message: null,
};

// The device runs in UTC; the profile says Europe/Berlin (UTC+2 in June).
const deviceZone = process.env.TZ;
beforeAll(async () => {
  process.env.TZ = 'UTC';
  const i18n = await setupTestI18n();
  i18n.addResourceBundle('en', 'chat', enChat);
  i18n.addResourceBundle('de', 'chat', deChat);
});
afterAll(() => void (process.env.TZ = deviceZone));

describe('a chat bubble', () => {
  it("is stamped on the profile's clock, the one its text is written in", () => {
    render(
      <ol>
        <MessageBubble item={item} timeZone="Europe/Berlin" onReply={() => {}} onRetry={() => {}} />
      </ol>,
    );
    const stamp = screen.getByText(/03:10/);
    expect(stamp.tagName).toBe('TIME');
    expect(stamp).toHaveTextContent(/^Jun 10, 03:10\sAM$/);
    expect(stamp).toHaveAttribute('dateTime', '2025-06-10T01:10:00.000Z');
  });

  it('shows each sentence once: a clip whose sentence the alert text says is captioned with its camera', () => {
    const sentence = 'Two people walked up to the Door at 3:10 AM.';
    const other = 'A car pulled into the Driveway at 3:10 AM.';
    const alert: ChatItem = {
      ...item,
      text: sentence,
      videos: [
        {
          activity_uuid: 'a1',
          camera_name: 'Door',
          activity_description: sentence,
          video_url: null,
          url: null,
          hls_url: null,
          date_time_utc: item.date_time_utc,
          thumbnail_image_url: null,
        },
        {
          activity_uuid: 'a2',
          camera_name: 'Driveway',
          activity_description: other,
          video_url: null,
          url: null,
          hls_url: null,
          date_time_utc: item.date_time_utc,
          thumbnail_image_url: null,
        },
      ],
    };
    render(
      <ol>
        <MessageBubble item={alert} timeZone="Europe/Berlin" onReply={() => {}} onRetry={() => {}} />
      </ol>,
    );
    expect(screen.getAllByText(sentence)).toHaveLength(1);
    expect(screen.getByText('Door', { selector: 'figcaption' })).toBeInTheDocument();
    // A clip the text does not speak of keeps its own sentence.
    expect(screen.getByText(other, { selector: 'figcaption' })).toBeInTheDocument();
  });
});
