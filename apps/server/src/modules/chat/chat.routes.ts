import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { sendSerialized } from '../../platform/http/serialized.js';
import type { ChatService } from './chat.service.js';

/** docs/product.md §7 "Chat and highlights": history and sending; answers arrive over realtime. */
export function registerChatRoutes(
  app: FastifyInstance,
  deps: { chat: ChatService; guards: AccessGuards },
): void {
  const { chat, guards } = deps;

  route(app, guards, endpoints.getConversationHistory, async (req, reply) =>
    sendSerialized(
      endpoints.getConversationHistory,
      req,
      reply,
      await chat.historyJson(callerOf(req).subject, req.query.page, req.query.pageSize),
    ),
  );

  route(app, guards, endpoints.sendMessage, async (req) => ({
    success: true as const,
    data: await chat.sendUserMessage(callerOf(req).subject, req.body),
  }));

  route(app, guards, endpoints.adminPostAgentMessage, async (req) => ({
    success: true as const,
    data: await chat.postAgentMessageTo(req.body.email, req.body.text),
  }));
}
