/**
 * Chat and realtime values the browser needs at run time (no zod): limits, the hub's paths and the names of
 * the events it sends. The schemas of their payloads are in chat.ts and realtime.ts.
 */

/** The longest chat message a user may send. */
export const CHAT_MESSAGE_MAX_LENGTH = 4_000;
/** Images and videos one message may carry. */
export const CHAT_MESSAGE_MAX_ATTACHMENTS = 10;

/** Where a client negotiates (bearer ID token) for the hub's url and a short-lived access token. */
export const REALTIME_NEGOTIATE_PATH = '/api/realtime/negotiate';
/** The SignalR hub itself (JSON hub protocol over WebSockets). */
export const REALTIME_HUB_PATH = '/api/realtime/hub';
/** Lifetime of the hub access token negotiate hands out. */
export const REALTIME_TOKEN_TTL_S = 300;

/** Server-to-client events of the hub (docs/product.md §7 "Chat and highlights", issue 8). */
export const REALTIME_EVENTS = {
  receiveMessage: 'ReceiveMessage',
  /** A message already delivered changed: replace the one with the same message_uuid. */
  receiveMessageUpdate: 'ReceiveMessageUpdate',
  receiveProgressUpdate: 'ReceiveProgressUpdate',
  activityCreated: 'ActivityCreated',
  camerasChanged: 'CamerasChanged',
  /** Highlights of a day were written or rewritten: refetch that day's summaries. */
  summariesUpdated: 'SummariesUpdated',
} as const;
export type RealtimeEventName = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];

/** The period an activity summary covers. */
export const ACTIVITY_SUMMARY_PERIODS = ['daily', 'hourly'] as const;
