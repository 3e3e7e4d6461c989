import { z } from 'zod';
import {
  activitySummariesQuerySchema,
  activitySummarySchema,
  chatMessageSchema,
  conversationHistoryQuerySchema,
  sendMessageRequestSchema,
} from './chat.js';
import { multiLineText, singleLineText } from './common.js';
import { defineEndpoints } from './endpoint.js';
import { okEnvelope, paginationSchema } from './envelope.js';
import { MESSAGES } from './messages.js';
import { realtimeNegotiateQuerySchema, realtimeNegotiateResponseSchema } from './realtime.js';
import { apiRoutes } from './routes.runtime.js';

/** docs/product.md §7 "Chat and highlights", the realtime negotiate call, and the operator's agent message. */
export const chatEndpoints = defineEndpoints({
  getConversationHistory: {
    ...apiRoutes.getConversationHistory,
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
    ...apiRoutes.sendMessage,
    summary: "Store the user's chat message; the home sitter answers over realtime",
    tags: ['chat'],
    body: sendMessageRequestSchema,
    response: okEnvelope(chatMessageSchema),
    successStatus: 201,
    failureMessage: MESSAGES.sendMessageFailed,
  },
  getActivitySummaries: {
    ...apiRoutes.getActivitySummaries,
    summary: "Highlights of one day in the user's time zone: the daily summary first, then hourly ones",
    tags: ['highlights'],
    query: activitySummariesQuerySchema,
    response: okEnvelope(z.array(activitySummarySchema)),
    failureMessage: MESSAGES.fetchActivitySummaryFailed,
  },
  realtimeNegotiate: {
    ...apiRoutes.realtimeNegotiate,
    summary: 'The realtime hub url and a 5-minute access token for this user only (SignalR redirect)',
    tags: ['realtime'],
    query: realtimeNegotiateQuerySchema,
    response: realtimeNegotiateResponseSchema,
  },
  adminPostAgentMessage: {
    ...apiRoutes.adminPostAgentMessage,
    summary: "Post a message from the home sitter into a user's chat (operator announcements, tests)",
    tags: ['admin'],
    body: z.strictObject({
      email: singleLineText('email', z.string().trim().toLowerCase().min(3).max(254)),
      text: multiLineText('text', z.string().trim().min(1).max(4_000)),
    }),
    response: okEnvelope(chatMessageSchema),
    successStatus: 201,
  },
});
