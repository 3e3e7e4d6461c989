/**
 * The home sitter's chat answers. A user message becomes an `ai.answer` job (sent with the message); the job
 * shows what it is doing (`ReceiveProgressUpdate`), reads the question, searches activities and memories,
 * posts the answer as an agent message citing what it found (source_activity_uuid_list, videos), pushes it
 * (CHAT_MESSAGE) and clears the progress. With an LLM the model answers through the same tools; when it is
 * slow or fails, the built-in composer answers instead.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, MemoryCategory, MemoryExpiration, VideoAttachment } from '@homesitter/contract';
import { LlmError, type Llm, type LlmMessage } from '../../adapters/llm/llm.js';
import type { Logger } from '../../platform/logger.js';
import type { AgentMessageInput } from '../chat/chat.service.js';
import { instantToExpiration } from '../memories/memories.module.js';
import { composeAnswer, pickCited, type FoundActivity } from '../language/answer.js';
import { detectLanguage } from '../language/detect.js';
import { fold, namePattern, nameVariants } from '../language/fold.js';
import { languageOf } from '../language/lexicon.js';
import type { ParsedQuestion } from '../language/question.js';
import {
  amnesiaRememberReply,
  failureReply,
  progressText,
  rememberedReply,
  smalltalkReply,
} from '../language/replies.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { AssistantRepository } from './assistant.repository.js';
import { systemPrompt } from './assistant.prompts.js';
import {
  llmTools,
  memoryNames,
  parse,
  relevantNotes,
  searchActivities,
  type AssistantScope,
  type SearchQuery,
  type SearchResult,
} from './assistant.tools.js';

export interface AssistantDeps {
  repo: AssistantRepository;
  chat: {
    postAgentMessage(userId: string, message: AgentMessageInput): Promise<ChatMessage>;
    findMessage(userId: string, messageId: string): Promise<ChatMessage | undefined>;
    publishProgress(userId: string, text: string): Promise<void>;
  };
  /** Keeps a memory for the user (the memories service's `create`, by the user's token subject). */
  memories: {
    create(
      subject: string,
      category: MemoryCategory,
      body: { text: string; expiration?: MemoryExpiration | null },
    ): Promise<{ memory_uuid: string }>;
  };
  /** Pushes the answer to the user's devices (notifications module). */
  notify(
    userId: string,
    notification: { kind: 'chat_message'; messageUuid: string; title: string; body: string },
  ): Promise<unknown>;
  /** The clip of an activity as a chat attachment, with signed URLs. */
  attachment(activity: ActivityRow): Promise<VideoAttachment>;
  /**
   * Corrections of an alert by a reply to it ("that's Rose", "nicht Rose"; alerts/corrections.service.ts):
   * tried first for every reply, and when it handles one, its answer is the reply.
   */
  corrections?: {
    applyChatCorrection(
      userId: string,
      replyToMessageUuid: string,
      text: string,
    ): Promise<{ handled: false } | { handled: true; reply: string }>;
  };
  /** The configured language model; absent: the built-in composer answers. */
  llm?: Llm | undefined;
  log: Logger;
  now?: () => Date;
}

/** Earlier messages a follow-up ("and yesterday?") may lean on: this recent, at most this many. */
const CONTEXT_WINDOW_MS = 30 * 60_000;
const CONTEXT_MESSAGES = 10;

/** Follow-ups that keep the previous question's subject: "and yesterday?", "und heute?", "what about…". */
const FOLLOW_UP = /^\s*(and|und|what about|how about|und was ist mit|und wie ist es mit|also|auch)\b/i;

/** The answer's message id is derived from the question's, so a retried job finds the answer it already posted. */
export function answerIdFor(messageId: string): string {
  const h = createHash('sha256').update(`homesitter:answer:${messageId}`).digest('hex');
  const variant = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/** Postgres' unique_violation, from the driver or as the cause of Drizzle's query error. */
function isDuplicate(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}

interface Answer {
  text: string;
  cited: FoundActivity[];
  rows: ActivityRow[];
}

/**
 * A person's or pet's name the model's answer uses although neither the question nor any search result
 * contains it: the answer would be made up. (After a memory lookup every name may come up.)
 */
function inventedName(
  scope: AssistantScope,
  answer: string,
  question: string,
  searches: SearchResult[],
  toolCalls: { name: string }[],
): string | undefined {
  if (toolCalls.some((c) => c.name === 'search_memories')) return undefined;
  const shown = fold(
    [question, ...searches.flatMap((s) => s.found.flatMap((f) => f.recognised.map((r) => r.name)))].join(' '),
  );
  const said = fold(answer);
  const mentions = (name: string) => nameVariants(name).some((v) => namePattern(v).test(said));
  const appears = (name: string) => nameVariants(name).some((v) => namePattern(v).test(shown));
  return scope.memories
    .filter((m) => m.category === 'people' || m.category === 'animals')
    .map((m) => m.name?.trim() ?? '')
    .find((name) => name && mentions(name) && !appears(name));
}

export function createAssistantService(deps: AssistantDeps) {
  const { repo, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function scopeFor(userId: string, text: string): Promise<AssistantScope | undefined> {
    const owner = await repo.owner(userId);
    if (!owner) return undefined;
    const at = now();
    const [cameras, sites, memories] = await Promise.all([
      repo.cameras(userId),
      repo.sites(userId),
      repo.memories(userId, at),
    ]);
    return {
      userId,
      subject: owner.subject,
      now: at,
      timezone: owner.timezone,
      language: detectLanguage(text) ?? languageOf(owner.preferredLanguage),
      amnesia: owner.isAmnesiaModeEnabled,
      cameras,
      sites,
      memories,
    };
  }

  /**
   * "And yesterday?" keeps what the previous question was about, and so does a bare time ("between 2 and 5
   * PM") answering "When were you out?" (not in amnesia mode: no context kept).
   */
  async function withFollowUp(scope: AssistantScope, q: ParsedQuestion, text: string, sentAt: Date) {
    if (scope.amnesia || q.intent !== 'search') return q;
    const followUp = FOLLOW_UP.test(text);
    const saysTime = q.window !== undefined && !(q.window.type === 'recent' && q.window.implicit);
    if (!followUp && !saysTime) return q;
    if (q.cameraNames || q.siteIds || q.kinds || q.memoryIds || q.allProperties) return q;
    const earlier = await repo.messagesBefore(
      scope.userId,
      sentAt,
      new Date(sentAt.getTime() - CONTEXT_WINDOW_MS),
      4,
    );
    const previous = earlier.filter((m) => m.role === 'user').at(-1);
    if (!previous) return q;
    const before = parse(scope, previous.text);
    if (before.intent !== 'search' || (!followUp && before.timing !== 'ask')) return q;
    return {
      ...q,
      ...(before.cameraNames ? { cameraNames: before.cameraNames } : {}),
      ...(before.siteIds ? { siteIds: before.siteIds } : {}),
      ...(before.kinds ? { kinds: before.kinds } : {}),
      ...(before.labels ? { labels: before.labels } : {}),
      ...(before.memoryIds ? { memoryIds: before.memoryIds } : {}),
      allProperties: before.allProperties,
    };
  }

  function answerContext(scope: AssistantScope, result: SearchResult, notes: string[]) {
    return {
      language: scope.language,
      timezone: scope.timezone,
      now: scope.now,
      siteNames: Object.fromEntries(scope.sites.map((s) => [s.id, s.name])),
      memoryNames: Object.fromEntries(scope.memories.map((m) => [m.id, memoryNames(m)[0] ?? m.text ?? ''])),
      groupByProperty: result.groupByProperty,
      total: result.total,
      notes,
    };
  }

  /** Keeps a note, once: the same live note is not stored twice (a retried job, a user repeating it). */
  async function keepNote(
    scope: AssistantScope,
    text: string,
    expiration: MemoryExpiration | null,
  ): Promise<string> {
    const same = scope.memories.find((m) => m.category === 'other' && m.text?.trim() === text.trim());
    if (same) return same.id;
    const created = await deps.memories.create(scope.subject, 'other', { text, expiration });
    return created.memory_uuid;
  }

  async function deterministic(scope: AssistantScope, q: ParsedQuestion, text: string): Promise<Answer> {
    if (q.intent === 'smalltalk')
      return { text: smalltalkReply(q.smalltalk ?? 'help', scope.language), cited: [], rows: [] };
    if (q.intent === 'remember') {
      if (scope.amnesia) return { text: amnesiaRememberReply(scope.language), cited: [], rows: [] };
      const note = q.rememberText!;
      const expiration = q.rememberUntil ? instantToExpiration(q.rememberUntil, scope.timezone) : null;
      await keepNote(scope, note, expiration);
      return { text: rememberedReply(note, q.rememberUntil, scope, scope.language), cited: [], rows: [] };
    }
    const result = await searchActivities(repo, scope, q as SearchQuery);
    const notes = relevantNotes(scope, text).map((m) => m.text!);
    const composed = composeAnswer(result.query, result.found, answerContext(scope, result, notes));
    return { text: composed.text, cited: composed.cited, rows: result.rows };
  }

  async function withLlm(
    llm: Llm,
    scope: AssistantScope,
    q: ParsedQuestion,
    text: string,
    sentAt: Date,
  ): Promise<Answer> {
    const searches: SearchResult[] = [];
    const created: string[] = [];
    const tools = llmTools({
      repo,
      scope,
      searches,
      created,
      createNote: (note, expiration) => keepNote(scope, note, expiration),
    });
    // Amnesia mode: no chat context beyond the current question.
    const history = scope.amnesia
      ? []
      : await repo.messagesBefore(
          scope.userId,
          sentAt,
          new Date(sentAt.getTime() - CONTEXT_WINDOW_MS),
          CONTEXT_MESSAGES,
        );
    const messages: LlmMessage[] = [
      { role: 'system', content: systemPrompt(scope) },
      ...history.map((m): LlmMessage =>
        m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text },
      ),
      { role: 'user', content: text },
    ];
    const result = await llm.chat({ messages, tools, temperature: 0.2 });
    log.info(
      { model: llm.model, rounds: result.rounds, tools: result.toolCalls.map((c) => c.name) },
      'llm answered',
    );
    // A note the user asked for is kept even when the model did not call the tool for it.
    if (q.intent === 'remember' && created.length === 0) return deterministic(scope, q, text);
    const invented = inventedName(scope, result.text, text, searches, result.toolCalls);
    if (invented) {
      log.warn(
        { model: llm.model },
        'llm answer named someone nothing showed; the built-in composer answers',
      );
      return deterministic(scope, q, text);
    }
    const last = searches.at(-1);
    if (!last) return { text: result.text, cited: [], rows: [] };
    const byId = new Map<string, { found: FoundActivity; row: ActivityRow }>();
    for (const s of searches) s.found.forEach((f, i) => byId.set(f.id, { found: f, row: s.rows[i]! }));
    const cited = pickCited(
      last.query,
      [...byId.values()].map((v) => v.found),
    );
    return { text: result.text, cited, rows: [...byId.values()].map((v) => v.row) };
  }

  async function compose(
    scope: AssistantScope,
    q: ParsedQuestion,
    text: string,
    sentAt: Date,
  ): Promise<Answer> {
    const llm = deps.llm;
    // Small talk and notes in amnesia mode need no model; everything else goes to it first when there is one.
    const needsModel = q.intent === 'search' || (q.intent === 'remember' && !scope.amnesia);
    if (llm && needsModel) {
      try {
        return await withLlm(llm, scope, q, text, sentAt);
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        log.warn(
          { model: llm.model, reason: err.reason, err: err.message },
          'llm failed; the built-in composer answers',
        );
      }
    }
    return deterministic(scope, q, text);
  }

  /** Answers one user message; idempotent (a retried job posts nothing twice). */
  async function answer(userId: string, messageId: string): Promise<void> {
    const message = await repo.message(userId, messageId);
    if (!message || message.role !== 'user') return;
    const answerId = answerIdFor(messageId);
    if (await deps.chat.findMessage(userId, answerId)) return;
    // A reply to an alert may be a correction of who is in it; then that is the whole answer.
    if (message.replyToMessageId && deps.corrections) {
      const correction = await deps.corrections.applyChatCorrection(
        userId,
        message.replyToMessageId,
        message.text,
      );
      if (correction.handled) {
        await deps.chat
          .postAgentMessage(userId, {
            message_uuid: answerId,
            text: correction.reply,
            reply_to_message_uuid: messageId,
          })
          .catch((err: unknown) => {
            if (!isDuplicate(err)) throw err;
          });
        return;
      }
    }
    const scope = await scopeFor(userId, message.text);
    if (!scope) return;

    const parsed = parse(scope, message.text);
    const q = await withFollowUp(scope, parsed, message.text, message.sentAt);
    await deps.chat.publishProgress(userId, progressText(q, scope.language));
    let posted: ChatMessage | undefined;
    try {
      let result: Answer;
      try {
        result = await compose(scope, q, message.text, message.sentAt);
      } catch (err) {
        log.error({ err, userId, messageId }, 'answering failed');
        result = { text: failureReply(scope.language), cited: [], rows: [] };
      }
      const rows = new Map(result.rows.map((r) => [r.id, r]));
      const videos = await Promise.all(
        result.cited
          .map((c) => rows.get(c.id))
          .filter((r): r is ActivityRow => Boolean(r))
          .map((row) => deps.attachment(row)),
      );
      try {
        posted = await deps.chat.postAgentMessage(userId, {
          message_uuid: answerId,
          text: result.text,
          videos,
          source_activity_uuid_list: result.cited.map((c) => c.id),
        });
      } catch (err) {
        if (!isDuplicate(err)) throw err;
      }
    } finally {
      await deps.chat.publishProgress(userId, '');
    }
    if (posted)
      await deps
        .notify(userId, {
          kind: 'chat_message',
          messageUuid: posted.message_uuid,
          title: 'Home Sitter',
          body: posted.text,
        })
        .catch((err: unknown) => log.error({ err, userId }, 'pushing the answer failed'));
  }

  return { answer };
}
export type AssistantService = ReturnType<typeof createAssistantService>;
