// Homesitter's service worker: shows Web Push notifications and opens the right screen when one is tapped.
// The server's payload (apps/server/src/adapters/push/webpush.push.ts): { title, body, image?, tag?, lang?,
// data: { notification_type: 'ACTIVITY_ALERT', activity_uuid } | { notification_type: 'CHAT_MESSAGE',
// chat_message_id } }. Title and body arrive in the user's language.

const ICON = '/favicon.svg';

/** Where a tap leads: an alert opens the chat at its activity, a chat answer the chat, anything else home. */
function targetUrl(data) {
  if (data && data.notification_type === 'ACTIVITY_ALERT' && typeof data.activity_uuid === 'string') {
    return `/chat?activity=${encodeURIComponent(data.activity_uuid)}`;
  }
  if (data && data.notification_type === 'CHAT_MESSAGE') return '/chat';
  return '/';
}

function readPayload(event) {
  if (!event.data) return null;
  try {
    const payload = event.data.json();
    return payload && typeof payload.title === 'string' ? payload : null;
  } catch {
    return null;
  }
}

self.addEventListener('install', () => {
  // A new version takes over at once: it only shows notifications, there is no cache to keep consistent.
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  // Browsers require every push to show something (userVisibleOnly); one we cannot read still says who.
  const title = payload ? payload.title : 'Homesitter';
  const options = {
    body: payload && typeof payload.body === 'string' ? payload.body : '',
    icon: ICON,
    badge: ICON,
    data: { url: targetUrl(payload && payload.data) },
  };
  if (payload && typeof payload.image === 'string') options.image = payload.image;
  if (payload && typeof payload.tag === 'string') {
    options.tag = payload.tag;
    // A newer alert for the same activity replaces the old one and is announced again.
    options.renotify = true;
  }
  if (payload && typeof payload.lang === 'string') options.lang = payload.lang;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin)
    .href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        try {
          await open.focus();
          await open.navigate(url);
          return;
        } catch {
          // A window this worker does not control cannot be navigated: open the screen in a new one.
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
