import type { ChatMessage } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import { chatReducer, type ChatItem } from './chatState';

function message(id: string, text = `text ${id}`, role: ChatMessage['role'] = 'agent'): ChatMessage {
  return {
    message_uuid: id,
    date_time_utc: `2025-01-01T10:00:0${id.length % 10}Z`,
    role,
    text,
    image_urls: [],
    hidden_images: [],
    videos: [],
    source_activity_uuid_list: [],
    reply_to_message_uuid: null,
    reply_to_message: null,
  };
}

const pending: ChatItem = {
  ...message('tmp-1', 'Is the door locked?', 'user'),
  date_time_utc: '2025-01-01T12:00:00.000Z',
  image_urls: ['/media/users/u/p.jpg'],
  localId: 'tmp-1',
  isPending: true,
};

describe('chat state (docs/product.md §4)', () => {
  it('page 1 replaces the list and older pages are prepended without duplicates', () => {
    let items = chatReducer([message('x')], { type: 'replace', messages: [message('c'), message('d')] });
    expect(items.map((i) => i.message_uuid)).toEqual(['c', 'd']);
    items = chatReducer(items, { type: 'prepend', messages: [message('a'), message('b'), message('c')] });
    expect(items.map((i) => i.message_uuid)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('page 1 keeps what came live after its newest message, and our unsent ones at the end', () => {
    const at = (id: string, time: string) => ({ ...message(id), date_time_utc: time });
    const current: ChatItem[] = [
      at('a', '2025-01-01T10:00:00Z'),
      at('b', '2025-01-01T10:05:00Z'),
      at('live', '2025-01-01T10:20:00Z'),
      pending,
    ];
    const items = chatReducer(current, {
      type: 'replace',
      messages: [at('b', '2025-01-01T10:05:00Z'), at('c', '2025-01-01T10:10:00Z')],
    });
    expect(items.map((i) => i.message_uuid)).toEqual(['b', 'c', 'live', 'tmp-1']);
    // The live message the fetch already has is not kept twice.
    const again = chatReducer(items, {
      type: 'replace',
      messages: [at('c', '2025-01-01T10:10:00Z'), at('live', '2025-01-01T10:20:00Z')],
    });
    expect(again.map((i) => i.message_uuid)).toEqual(['c', 'live', 'tmp-1']);
  });

  it('appends a realtime message once, by id, or by text and time without one', () => {
    let items = chatReducer([message('a')], { type: 'append', message: message('a') });
    expect(items).toHaveLength(1);
    items = chatReducer(items, { type: 'append', message: message('b') });
    const noId = { ...message('c'), message_uuid: '' };
    items = chatReducer(items, { type: 'append', message: noId });
    items = chatReducer(items, { type: 'append', message: { ...noId } });
    expect(items.map((i) => i.text)).toEqual(['text a', 'text b', 'text c']);
  });

  it('replaces the optimistic message with the server one, keeping local time, images and reply', () => {
    const reply = { message_uuid: 'a', text: 'Someone is at the door', role: 'agent' as const };
    let items = chatReducer([message('a')], {
      type: 'pending',
      item: { ...pending, reply_to_message_uuid: 'a', reply_to_message: reply },
    });
    const server = {
      ...message('srv-1', 'Is the door locked?', 'user'),
      date_time_utc: '2025-01-01T12:00:01.000Z',
    };
    items = chatReducer(items, { type: 'confirm', localId: 'tmp-1', message: server });
    expect(items[1]).toMatchObject({
      message_uuid: 'srv-1',
      date_time_utc: '2025-01-01T12:00:00.000Z',
      image_urls: ['/media/users/u/p.jpg'],
      reply_to_message: reply,
      isPending: false,
      error: false,
    });
    expect(items[1]?.localId).toBeUndefined();
  });

  it('keeps one copy when the realtime echo arrives before the answer to the send', () => {
    let items = chatReducer([], { type: 'pending', item: pending });
    const server = message('srv-1', 'Is the door locked?', 'user');
    items = chatReducer(items, { type: 'append', message: server });
    expect(items.map((i) => i.message_uuid)).toEqual(['tmp-1']);
    items = chatReducer(items, { type: 'confirm', localId: 'tmp-1', message: server });
    expect(items.map((i) => i.message_uuid)).toEqual(['srv-1']);
    items = chatReducer(items, { type: 'append', message: server });
    expect(items.map((i) => i.message_uuid)).toEqual(['srv-1']);
  });

  it('replaces an updated message in place (ReceiveMessageUpdate), and ignores one it does not show', () => {
    let items = chatReducer([message('a'), message('b')], {
      type: 'update',
      message: { ...message('a', 'Rose and a car at the Front Door'), source_activity_uuid_list: ['x', 'y'] },
    });
    expect(items.map((i) => [i.message_uuid, i.text])).toEqual([
      ['a', 'Rose and a car at the Front Door'],
      ['b', 'text b'],
    ]);
    expect(items[0]?.source_activity_uuid_list).toEqual(['x', 'y']);
    items = chatReducer(items, { type: 'update', message: message('zz') });
    expect(items.map((i) => i.message_uuid)).toEqual(['a', 'b']);
  });

  it('moves an updated message that took a later time (an alert a newer event joined) to where that time puts it', () => {
    const at = (id: string, time: string) => ({ ...message(id), date_time_utc: time });
    const current: ChatItem[] = [
      at('alert', '2025-01-01T10:00:00Z'),
      at('question', '2025-01-01T10:00:20Z'),
      at('answer', '2025-01-01T10:00:21Z'),
      pending,
    ];
    const items = chatReducer(current, {
      type: 'update',
      message: { ...at('alert', '2025-01-01T10:00:45Z'), text: 'A person and a car at the Front Door' },
    });
    expect(items.map((i) => i.message_uuid)).toEqual(['question', 'answer', 'alert', 'tmp-1']);
    expect(items[2]).toMatchObject({
      text: 'A person and a car at the Front Door',
      date_time_utc: '2025-01-01T10:00:45Z',
    });
  });

  it('marks a failed send, and a retry pends it again', () => {
    let items = chatReducer([], { type: 'pending', item: pending });
    items = chatReducer(items, { type: 'fail', localId: 'tmp-1' });
    expect(items[0]).toMatchObject({ isPending: false, error: true });
    items = chatReducer(items, { type: 'retry', localId: 'tmp-1' });
    expect(items[0]).toMatchObject({ isPending: true, error: false });
    // A page-1 refresh keeps the unsent message.
    items = chatReducer(items, { type: 'replace', messages: [message('z')] });
    expect(items.map((i) => i.message_uuid)).toEqual(['z', 'tmp-1']);
  });
});
