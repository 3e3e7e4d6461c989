import { endpoints, type ChatMessage, type ReplyToMessage, type VideoAttachment } from '@homesitter/contract';
import type { Db } from '../../platform/db/client.js';
import { serializeResponse, type SerializedResponse } from '../../platform/http/serialized.js';
import { createReadCache, type ReadCache } from '../../platform/read-cache.js';
import type { RealtimeService } from '../realtime/realtime.service.js';
import { userErrors } from '../users/users.module.js';
import { chatErrors } from './chat.errors.js';
import type { MediaUrlCheck } from './chat.media.js';
import type { ChatMessageRow, ChatRepository } from './chat.repository.js';

/** A page of the history as stored: its messages in ascending time order, and whether older ones exist. */
export interface StoredPage {
  messages: ChatMessage[];
  hasMore: boolean;
}

/** The newest page as kept by the cache. */
export interface NewestPage extends StoredPage {
  /** The whole response, when no message on the page has a clip (clips get fresh links on every read). */
  json?: SerializedResponse;
}

export interface ChatServiceDeps {
  repo: ChatRepository;
  /** The caller's user id by token subject (remembered on the embedded database, platform/read-cache.ts). */
  userIdOf: (subject: string) => Promise<string | undefined>;
  /**
   * Each user's newest history page per page size, until this service writes one of their messages (it
   * is the only writer of chat messages). Without one, every page is read from the database.
   */
  newestPages?: ReadCache<NewestPage>;
  realtime: Pick<RealtimeService, 'publish'>;
  isOwnMediaUrl: MediaUrlCheck;
  /**
   * Runs in the transaction that stores a user's message: the AI's `assistant.answer` job is sent here, so a
   * stored question always gets its answer, even across a crash.
   */
  onUserMessage?: (message: { userId: string; messageId: string }, tx: Db) => Promise<void>;
  /**
   * Fresh signed URLs for the clips of history messages (stored ones expire after MEDIA_URL_TTL); the AI
   * module's, wired in app.ts. Without it, history answers the URLs as they were stored.
   */
  refreshAttachments?: (userId: string, messages: ChatMessage[]) => Promise<ChatMessage[]>;
  now?: () => Date;
}

export function toChatMessage(row: ChatMessageRow): ChatMessage {
  return {
    message_uuid: row.id,
    date_time_utc: row.sentAt.toISOString(),
    role: row.role,
    text: row.text,
    image_urls: row.imageUrls,
    hidden_images: row.hiddenImages,
    videos: row.videos,
    source_activity_uuid_list: row.sourceActivityUuids,
    reply_to_message_uuid: row.replyToMessageId,
    reply_to_message: row.replyToMessage ?? null,
  };
}

export interface UserMessageInput {
  text: string;
  date_time_utc?: string | undefined;
  images: string[];
  videos: VideoAttachment[];
  reply_to_message_uuid?: string | null | undefined;
  reply_to_message?: ReplyToMessage | null | undefined;
}

/** What the home sitter says: text, and optionally images, clips and the activities it speaks about. */
export interface AgentMessageInput {
  /** An id chosen by the caller: an alert records it on its activities first, so a retried job finds it. */
  message_uuid?: string;
  text: string;
  image_urls?: string[];
  hidden_images?: string[];
  videos?: VideoAttachment[];
  source_activity_uuid_list?: string[];
  reply_to_message_uuid?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How far ahead of the server's clock a client's own time is believed (clocks drift; beyond that, now). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** The chat's rules: history, a user's messages, and the entry points the AI uses to answer. */
export function createChatService(deps: ChatServiceDeps) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());
  const newestPages = deps.newestPages ?? createReadCache<NewestPage>({ enabled: false, ttlMs: 0 });

  async function userIdOf(subject: string): Promise<string> {
    const userId = await deps.userIdOf(subject);
    if (!userId) throw userErrors.notFound();
    return userId;
  }

  /** Runs a write of the user's messages; their cached history goes once it is done (or failed midway). */
  async function writing<T>(userId: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      newestPages.invalidate(userId);
    }
  }

  async function readPage(userId: string, page: number, pageSize: number): Promise<StoredPage> {
    const { rows, hasMore } = await repo.pageNewestFirst(userId, page, pageSize);
    return { messages: rows.reverse().map(toChatMessage), hasMore };
  }

  /** The response for a page: its clips with fresh links, serialised. */
  async function respond(userId: string, stored: StoredPage, page: number, pageSize: number) {
    const { refreshAttachments } = deps;
    const data = refreshAttachments ? await refreshAttachments(userId, stored.messages) : stored.messages;
    return serializeResponse(endpoints.getConversationHistory, {
      success: true,
      data,
      pagination: { page, pageSize, hasMore: stored.hasMore },
    });
  }

  /**
   * Page 1 for the cache: whole, unless a clip on it needs fresh links on each read (alerts/attachments.ts).
   */
  async function newestPage(userId: string, pageSize: number): Promise<NewestPage> {
    const stored = await readPage(userId, 1, pageSize);
    const clips = stored.messages.some((m) => m.videos.some((v) => v.activity_uuid));
    if (clips && deps.refreshAttachments) return stored;
    return { ...stored, json: await respond(userId, stored, 1, pageSize) };
  }

  /** The quoted message, from the database when it is the user's; a reply to nothing of theirs is refused. */
  async function replyFor(userId: string, input: UserMessageInput): Promise<ReplyToMessage | null> {
    const id = input.reply_to_message_uuid ?? input.reply_to_message?.message_uuid;
    if (!id) return null;
    const row = UUID.test(id) ? await repo.findById(userId, id) : undefined;
    if (!row) throw chatErrors.replyNotFound();
    return { message_uuid: row.id, text: row.text, role: row.role };
  }

  async function postAgentMessage(userId: string, message: AgentMessageInput): Promise<ChatMessage> {
    const row = await writing(userId, () =>
      repo.insert({
        ...(message.message_uuid ? { id: message.message_uuid } : {}),
        userId,
        role: 'agent',
        text: message.text,
        sentAt: now(),
        imageUrls: message.image_urls ?? [],
        hiddenImages: message.hidden_images ?? [],
        videos: message.videos ?? [],
        sourceActivityUuids: message.source_activity_uuid_list ?? [],
        replyToMessageId: null,
        replyToMessage: null,
      }),
    );
    const replyId = message.reply_to_message_uuid;
    const reply = replyId && UUID.test(replyId) ? await repo.findById(userId, replyId) : undefined;
    const stored = reply
      ? {
          ...toChatMessage(row),
          reply_to_message_uuid: reply.id,
          reply_to_message: { message_uuid: reply.id, text: reply.text, role: reply.role },
        }
      : toChatMessage(row);
    await deps.realtime.publish(userId, 'ReceiveMessage', stored);
    return stored;
  }

  return {
    /**
     * A page of the history as its response's JSON bytes. Page 1 is the newest messages; every page is in
     * ascending time order.
     */
    async historyJson(subject: string, page: number, pageSize: number): Promise<SerializedResponse> {
      const userId = await userIdOf(subject);
      if (page !== 1) return respond(userId, await readPage(userId, page, pageSize), page, pageSize);
      // Page 1 is what the chat screen opens with, again and again: kept until the next message.
      const newest = await newestPages.get(userId, String(pageSize), async () => ({
        value: await newestPage(userId, pageSize),
      }));
      return newest.json ?? respond(userId, newest, page, pageSize);
    },

    /**
     * Stores the user's message and tells their other open apps (ReceiveMessage). The home sitter's answer
     * comes later over realtime, from the AI.
     */
    async sendUserMessage(subject: string, input: UserMessageInput): Promise<ChatMessage> {
      const userId = await userIdOf(subject);
      for (const url of input.images)
        if (!deps.isOwnMediaUrl(userId, url)) throw chatErrors.imageNotAllowed(url);
      // A clip's links are shown and played by the user's apps: only their own media, like images.
      for (const video of input.videos)
        for (const url of [video.video_url, video.url, video.hls_url, video.thumbnail_image_url])
          if (url && !deps.isOwnMediaUrl(userId, url)) throw chatErrors.videoNotAllowed(url);
      const reply = await replyFor(userId, input);
      const current = now();
      const claimed = input.date_time_utc ? new Date(input.date_time_utc) : current;
      const sentAt = claimed.getTime() - current.getTime() > MAX_CLOCK_SKEW_MS ? current : claimed;
      const values = {
        userId,
        role: 'user' as const,
        text: input.text,
        sentAt,
        imageUrls: input.images,
        hiddenImages: [],
        videos: input.videos,
        sourceActivityUuids: [],
        replyToMessageId: reply?.message_uuid ?? null,
        replyToMessage: reply,
      };
      const { onUserMessage } = deps;
      const row = await writing(userId, () =>
        onUserMessage
          ? repo.insertThen(values, (r, tx) => onUserMessage({ userId, messageId: r.id }, tx))
          : repo.insert(values),
      );
      const message = toChatMessage(row);
      await deps.realtime.publish(userId, 'ReceiveMessage', message);
      return message;
    },

    /** The operator posts as the home sitter to a user named by email. */
    async postAgentMessageTo(email: string, text: string): Promise<ChatMessage> {
      const userId = await repo.findUserIdByEmail(email);
      if (!userId) throw chatErrors.userNotFound();
      return postAgentMessage(userId, { text });
    },

    /** For the AI: stores the home sitter's message and pushes it to the user's open apps. */
    postAgentMessage,

    /** The home sitter's message with this id, if the user has it. */
    async findMessage(userId: string, messageId: string): Promise<ChatMessage | undefined> {
      const row = UUID.test(messageId) ? await repo.findById(userId, messageId) : undefined;
      return row && toChatMessage(row);
    },

    /**
     * For the AI: changes a message it already sent (an alert that gained an activity, a correction, a
     * richer text) and tells open apps with `ReceiveMessageUpdate`, which replaces the message of the same
     * id (a second `ReceiveMessage` would be dropped as a duplicate). Undefined when there is no such message.
     * `resend` gives it the time of now, so it moves to the bottom of the chat (an alert that gained a newer
     * event speaks of now, not of its first event); a correction or a richer text leaves the time alone.
     */
    async updateAgentMessage(
      userId: string,
      messageId: string,
      patch: Pick<AgentMessageInput, 'text' | 'image_urls' | 'videos' | 'source_activity_uuid_list'>,
      options: { resend?: boolean } = {},
    ): Promise<ChatMessage | undefined> {
      if (!UUID.test(messageId)) return undefined;
      const row = await writing(userId, () =>
        repo.updateAgentMessage(userId, messageId, {
          ...(options.resend ? { sentAt: now() } : {}),
          ...(patch.text !== undefined ? { text: patch.text } : {}),
          ...(patch.image_urls ? { imageUrls: patch.image_urls } : {}),
          ...(patch.videos ? { videos: patch.videos } : {}),
          ...(patch.source_activity_uuid_list
            ? { sourceActivityUuids: patch.source_activity_uuid_list }
            : {}),
        }),
      );
      if (!row) return undefined;
      const message = toChatMessage(row);
      await deps.realtime.publish(userId, 'ReceiveMessageUpdate', message);
      return message;
    },

    /** Removes a message of the home sitter (an amnesia-mode alert once its activity is purged). */
    deleteAgentMessage: (userId: string, messageId: string) =>
      UUID.test(messageId)
        ? writing(userId, () => repo.deleteAgentMessage(userId, messageId))
        : Promise.resolve(),

    /** For the AI: what it is doing right now (the typing indicator); an empty text clears it. */
    publishProgress: (userId: string, text: string) =>
      deps.realtime.publish(userId, 'ReceiveProgressUpdate', { in_progress_text: text }),
  };
}
export type ChatService = ReturnType<typeof createChatService>;
