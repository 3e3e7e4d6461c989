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
});
