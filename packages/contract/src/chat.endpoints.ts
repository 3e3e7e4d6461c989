import { z } from 'zod';
import {
  activitySummariesQuerySchema,
  activitySummarySchema,
  chatMessageSchema,
  conversationHistoryQuerySchema,
  sendMessageRequestSchema,
} from './chat.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope, paginationSchema } from './envelope.js';
import { MESSAGES } from './messages.js';
import { realtimeNegotiateQuerySchema, realtimeNegotiateResponseSchema } from './realtime.js';

/** Spec §7 "Chat and highlights", the realtime negotiate call, and the operator's agent message. */
export const chatEndpoints = defineEndpoints({
  getConversationHistory: {
    method: 'GET',
    path: '/api/users/conversation-history',
    access: 'verified',
    summary: 'Chat history: page 1 is the newest messages, each page in ascending time order',
    tags: ['chat'],
    query: conversationHistoryQuerySchema,
    response: z.object({
      success: z.literal(true),
      data: z.array(chatMessageSchema),
      pagination: paginationSchema,
    }),
    failureMessage: MESSAGES.loadConversationHistoryFailed,
  },
  sendMessage: {
    method: 'POST',
    path: '/api/users/messages',
    access: 'verified',
    summary: "Store the user's chat message; the home sitter answers over realtime",
    tags: ['chat'],
    body: sendMessageRequestSchema,
    response: okEnvelope(chatMessageSchema),
    successStatus: 201,
    failureMessage: MESSAGES.sendMessageFailed,
  },
  getActivitySummaries: {
    method: 'GET',
    path: '/api/users/activity-summaries',
    access: 'verified',
    summary: "Highlights of one day in the user's time zone: the daily summary first, then hourly ones",
    tags: ['highlights'],
    query: activitySummariesQuerySchema,
    response: okEnvelope(z.array(activitySummarySchema)),
    failureMessage: MESSAGES.fetchActivitySummaryFailed,
  },
  realtimeNegotiate: {
    method: 'POST',
    path: '/api/realtime/negotiate',
    access: 'verified',
    summary: 'The realtime hub url and a 5-minute access token for this user only (SignalR redirect)',
    tags: ['realtime'],
    query: realtimeNegotiateQuerySchema,
    response: realtimeNegotiateResponseSchema,
  },
  adminPostAgentMessage: {
    method: 'POST',
    path: '/api/admin/chat/agent-message',
    access: 'admin',
    summary: "Post a message from the home sitter into a user's chat (operator announcements, tests)",
    tags: ['admin'],
    body: z.strictObject({
      email: z.string().trim().toLowerCase().min(3).max(254),
      text: z.string().trim().min(1).max(4_000),
    }),
    response: okEnvelope(chatMessageSchema),
    successStatus: 201,
  },
});
