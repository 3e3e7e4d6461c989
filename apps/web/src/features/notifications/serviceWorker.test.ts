import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

// Runs public/sw.js against a fake service worker global: what a push shows and where a tap leads.

type Handler = (event: Record<string, unknown>) => void;

function loadWorker(
  windows: { url: string; focus: () => Promise<void>; navigate: (u: string) => Promise<void> }[] = [],
) {
  const handlers = new Map<string, Handler>();
  const self = {
    location: { origin: 'https://home.example.com' },
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    skipWaiting: vi.fn(async () => undefined),
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: {
      claim: vi.fn(async () => undefined),
      matchAll: vi.fn(async () => windows),
      openWindow: vi.fn(async () => null),
    },
  };
  const source = readFileSync(path.resolve(__dirname, '../../../public/sw.js'), 'utf8');
  runInNewContext(source, { self, URL, console });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let waited: Promise<unknown> = Promise.resolve();
    handlers.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => (waited = p) });
    await waited;
  };
  return { self, dispatch };
}

const pushEvent = (payload: unknown) => ({
  data: {
    json: (): unknown => (typeof payload === 'string' ? (JSON.parse(payload) as unknown) : payload),
  },
});

describe('the service worker', () => {
  it('shows an alert with its title, body, snapshot and tag, and remembers where it leads', async () => {
    const { self, dispatch } = loadWorker();
    await dispatch(
      'push',
      pushEvent({
        title: 'Front Door',
        body: 'Rose walked up to the Front Door at 3:12 PM.',
        image: 'https://home.example.com/media/t.jpg',
        tag: 'act-1',
        lang: 'en',
        data: { notification_type: 'ACTIVITY_ALERT', activity_uuid: 'act-1' },
      }),
    );
    expect(self.registration.showNotification).toHaveBeenCalledWith('Front Door', {
      body: 'Rose walked up to the Front Door at 3:12 PM.',
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      image: 'https://home.example.com/media/t.jpg',
      tag: 'act-1',
      renotify: true,
      lang: 'en',
      data: { url: '/chat?activity=act-1' },
    });
  });

  it('still shows something for a push it cannot read', async () => {
    const { self, dispatch } = loadWorker();
    await dispatch('push', pushEvent('not json {'));
    expect(self.registration.showNotification).toHaveBeenCalledWith(
      'Homesitter',
      expect.objectContaining({ body: '', data: { url: '/' } }),
    );
  });

  it('opens the chat at the activity when an alert is tapped and no window is open', async () => {
    const { self, dispatch } = loadWorker();
    const close = vi.fn();
    await dispatch('notificationclick', { notification: { close, data: { url: '/chat?activity=act-1' } } });
    expect(close).toHaveBeenCalled();
    expect(self.clients.openWindow).toHaveBeenCalledWith('https://home.example.com/chat?activity=act-1');
  });

  it('focuses an open window and takes it to the chat for a chat answer', async () => {
    const window = {
      url: 'https://home.example.com/highlights',
      focus: vi.fn(async () => undefined),
      navigate: vi.fn(async () => undefined),
    };
    const { self, dispatch } = loadWorker([window]);
    await dispatch(
      'push',
      pushEvent({
        title: 'Homesitter',
        body: 'Nobody came by.',
        data: { notification_type: 'CHAT_MESSAGE', chat_message_id: 'm1' },
      }),
    );
    const [, options] = self.registration.showNotification.mock.calls[0] as unknown as [
      string,
      { data: { url: string } },
    ];
    await dispatch('notificationclick', { notification: { close: vi.fn(), data: options.data } });
    expect(window.focus).toHaveBeenCalled();
    expect(window.navigate).toHaveBeenCalledWith('https://home.example.com/chat');
    expect(self.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a new window when the open one cannot be navigated', async () => {
    const window = {
      url: 'https://home.example.com/',
      focus: vi.fn(async () => undefined),
      navigate: vi.fn(async () => {
        throw new TypeError('not controlled');
      }),
    };
    const { self, dispatch } = loadWorker([window]);
    await dispatch('notificationclick', { notification: { close: vi.fn(), data: { url: '/chat' } } });
    expect(self.clients.openWindow).toHaveBeenCalledWith('https://home.example.com/chat');
  });
});
