/**
 * The home sitter's chat answers. A user message becomes an `assistant.answer` job (sent with the message); the job
 * shows what it is doing (`ReceiveProgressUpdate`), reads the question, searches activities and memories,
 * posts the answer as an agent message citing what it found (source_activity_uuid_list, videos), pushes it
 * (CHAT_MESSAGE) and clears the progress. With an LLM the model answers through the same tools; when it is
 * slow or fails, the built-in composer answers instead.
 */
import { isUniqueViolation } from '../../platform/db/errors.js';
import { derivedUuid } from '../../platform/ids.js';
import type { ChatMessage, MemoryCategory, MemoryExpiration, VideoAttachment } from '@homesitter/contract';
import { LlmError, type Llm, type LlmMessage } from '../../adapters/llm/llm.js';
import type { Logger } from '../../platform/logger.js';
import type { AgentMessageInput } from '../chat/chat.service.js';
import { instantToExpiration } from '../memories/memories.module.js';
import {
  composeAnswer,
  pickCited,
  type FoundActivity,
  alertQuestionOf,
  awayNarrowing,
  cannotDetectReply,
  composeAlertReply,
  composeCount,
  composeNearMatch,
  composeLast,
  composeNotSeen,
  composeNow,
  composeUnusual,
  correctionWithoutAlertReply,
  liveReply,
  offTopicReply,
  recurringNoteSuffix,
  thanksReply,
  unclearReply,
  yesLead,
  householdReply,
  type SearchQuestion,
  type Understood,
  correctionNote,
  correctionNotedReply,
  detectLanguage,
  type ParsedQuestion,
  amnesiaRememberReply,
  failureReply,
  progressText,
  rememberedReply,
  smalltalkReply,
  watchCancelledReply,
  watchCreatedReply,
  watchLimitReply,
  watchListReply,
  watchNotFoundReply,
  watchPastReply,
  watchWhichReply,
  DEFAULT_WATCH_HOURS,
} from '../conversation/conversation.module.js';
import { fold, namePattern, nameVariants, languageOf } from '../language/language.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { AssistantRepository } from './assistant.repository.js';
import { systemPrompt } from './assistant.prompts.js';
import {
  cancelWatches,
  createWatch,
  householdFacts,
  llmTools,
  memoryNames,
  parse,
  relevantNotes,
  understandIn,
  searchActivities,
  toFound,
  watchFacts,
  type AssistantScope,
  type SearchResult,
  type WatchCalls,
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
  /** Watch requests ("tell me when a car arrives"; the watches module). */
  watches?: WatchCalls | undefined;
  /** The configured language model; absent: the built-in composer answers. */
  llm?: Llm | undefined;
  log: Logger;
  now?: () => Date;
}

/** Earlier messages a follow-up ("and yesterday?") may lean on: this recent, at most this many. */
const CONTEXT_WINDOW_MS = 30 * 60_000;
const CONTEXT_MESSAGES = 10;

/** "The last event" looks this far back when the question names no time. */
const LAST_EVENT_DAYS = 30;
/** A correction sent without replying to an alert is about the newest alert of this long ago at most. */
const CORRECTION_WINDOW_MS = 6 * 3_600_000;

/** The question says a time of its own (not the implicit last 24 hours). */
const saysTime = (q: ParsedQuestion) =>
  q.window !== undefined && !(q.window.type === 'recent' && q.window.implicit);

/** Follow-ups that keep the previous question's subject: "and yesterday?", "und heute?", "what about…". */
/** "And …?", or a question about the people of the last answer ("were any of them Barack?", "war einer davon …"). */
const FOLLOW_UP =
  /^\s*(and|und|what about|how about|und was ist mit|und wie ist es mit|also|auch)\b|\b(any|one|some|either|both) of (them|those|these)\b|\b(einer|eine|jemand|wer) (davon|von ihnen|von denen)\b/i;
/**
 * A bare question about a detail of the last answer ("what time?", "which camera?", "wo?"): it asks the
 * previous question again, whose answer says when and where.
 */
const DETAIL =
  /^(?:and |und |so |also )?(?:what time|at what time|what time was (?:that|it)|when|when was (?:that|it)|which camera|which cam|what camera|which one|where|where was (?:that|it)|wann|wann war das|um wie ?viel uhr|welche kamera|wo|wo war das)$/;

/** The answer's message id is derived from the question's, so a retried job finds the answer it already posted. */
export function answerIdFor(messageId: string): string {
  return derivedUuid(`homesitter:answer:${messageId}`);
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
   * PM") answering "When were you out?" (not in amnesia mode: no context kept). "And at the cabin?" changes
   * the place and keeps the subject and the time; a yes/no or a count stays one ("did a bear come by?" →
   * "and at the cabin?").
   */
  async function withFollowUp(
    scope: AssistantScope,
    u: Understood,
    text: string,
    sentAt: Date,
  ): Promise<Understood> {
    if (scope.amnesia) return u;
    if (DETAIL.test(fold(text))) {
      const [previous] = (
        await repo.messagesBefore(scope.userId, sentAt, new Date(sentAt.getTime() - CONTEXT_WINDOW_MS), 4)
      )
        .filter((m) => m.role === 'user')
        .slice(-1);
      const before = previous ? understandIn(scope, previous.text) : undefined;
      if (before && (before.intent === 'events' || before.intent === 'count' || before.intent === 'not_seen'))
        return before;
      return u;
    }
    const followUp = FOLLOW_UP.test(text);
    const asked =
      u.intent === 'events' || u.intent === 'count' || u.intent === 'not_seen'
        ? u.query
        : u.intent === 'unclear' && followUp
          ? (parse(scope, text) as SearchQuestion)
          : undefined;
    if (!asked || (!followUp && !saysTime(asked))) return u;
    const earlier = await repo.messagesBefore(
      scope.userId,
      sentAt,
      new Date(sentAt.getTime() - CONTEXT_WINDOW_MS),
      4,
    );
    const previous = earlier.filter((m) => m.role === 'user').at(-1);
    if (!previous) return u;
    const before = understandIn(scope, previous.text);
    if (before.intent !== 'events' && before.intent !== 'count' && before.intent !== 'not_seen') return u;
    // A bare time narrows "while I was out" (the answer offered that), whether it asked when or guessed.
    if (!followUp && before.query.timing !== 'ask' && before.query.window?.type !== 'away') return u;
    const prev = before.query;
    const namesPlace = Boolean(asked.cameraNames || asked.siteIds || asked.allProperties);
    const namesSubject = Boolean(asked.kinds || asked.memoryIds);
    const query: SearchQuestion = { ...asked };
    if (!namesPlace) {
      delete query.cameraNames;
      delete query.siteIds;
      if (prev.cameraNames) query.cameraNames = prev.cameraNames;
      if (prev.siteIds) query.siteIds = prev.siteIds;
      query.allProperties = prev.allProperties;
    }
    if (!namesSubject) {
      if (prev.kinds) query.kinds = prev.kinds;
      if (prev.labels) query.labels = prev.labels;
      if (prev.memoryIds) query.memoryIds = prev.memoryIds;
    }
    // A follow-up that names no time keeps the previous one ("what came this morning?" → "and at the cabin?").
    if (followUp && !saysTime(asked) && saysTime(prev)) {
      query.from = prev.from!;
      query.to = prev.to!;
      if (prev.window) query.window = prev.window;
      if (prev.timing) query.timing = prev.timing;
      else delete query.timing;
    }
    if (namesSubject || u.intent === 'count' || u.intent === 'not_seen') return { ...u, query } as Understood;
    if (before.intent === 'not_seen' || before.intent === 'count') return { ...before, query };
    return { intent: 'events', query, ...(u.intent === 'events' && u.focus ? { focus: u.focus } : {}) };
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

  const noSearch = (text: string): Answer => ({ text, cited: [], rows: [] });

  /** Searches and answers with the composer; `compose` picks how the found events are said. */
  async function searched(
    scope: AssistantScope,
    query: SearchQuestion,
    compose: (
      found: FoundActivity[],
      ctx: ReturnType<typeof answerContext>,
    ) => { text: string; cited: FoundActivity[] },
    notesFor?: string,
  ): Promise<Answer> {
    const result = await searchActivities(repo, scope, query);
    const notes = notesFor ? relevantNotes(scope, notesFor).map((m) => m.text!) : [];
    const composed = compose(result.found, answerContext(scope, result, notes));
    return { text: composed.text, cited: composed.cited, rows: result.rows };
  }

  /** The last `days` days, for "the last event" when the question names no time. */
  function lookBack(query: SearchQuestion, scope: AssistantScope, days: number): SearchQuestion {
    if (saysTime(query)) return query;
    const from = new Date(scope.now.getTime() - days * 86_400_000);
    const q: SearchQuestion = {
      ...query,
      from,
      to: scope.now,
      window: { type: 'recent', amount: days, unit: 'day' },
    };
    delete q.timing;
    return q;
  }

  /** "Tell me when …", "what are you watching for?", "stop": the watch tools, said back in the question's language. */
  async function watchReply(
    scope: AssistantScope,
    u: Extract<Understood, { intent: 'watch' }>,
    text: string,
  ): Promise<string> {
    const language = u.action === 'create' ? u.request.language : u.language;
    const talk = { language, timezone: scope.timezone, now: scope.now };
    const watches = deps.watches;
    if (!watches || u.action === 'refuse_past') return watchPastReply(language);
    const facts = (rows: Parameters<typeof watchFacts>[0][]) => rows.map((w) => watchFacts(w, scope));
    switch (u.action) {
      case 'create': {
        const outcome = await createWatch(watches, scope, u.request, text);
        if (outcome.kind === 'too_many') return watchLimitReply(outcome.limit, language);
        return watchCreatedReply(
          watchFacts(outcome.watch, scope),
          outcome.defaulted,
          DEFAULT_WATCH_HOURS,
          talk,
        );
      }
      case 'list':
        return watchListReply(facts(await watches.active(scope.userId)), talk);
      case 'cancel': {
        const outcome = await cancelWatches(watches, scope, u.target);
        if (outcome.kind === 'cancelled') return watchCancelledReply(facts(outcome.ended), talk);
        if (outcome.kind === 'which') return watchWhichReply(facts(outcome.active), talk);
        return watchNotFoundReply(facts(outcome.active), talk);
      }
    }
  }

  async function deterministic(
    scope: AssistantScope,
    u: Understood,
    text: string,
    sentAt: Date = scope.now,
  ): Promise<Answer> {
    const language = scope.language;
    switch (u.intent) {
      case 'watch':
        return noSearch(await watchReply(scope, u, text));
      case 'small_talk':
        return noSearch(smalltalkReply(u.kind, language));
      case 'thanks':
        return noSearch(thanksReply(u.closing, language));
      case 'off_topic':
        return noSearch(offTopicReply(u.topic, language));
      case 'cannot_detect':
        return noSearch(cannotDetectReply(u.what, language));
      case 'unclear':
        return noSearch(unclearReply(language, scope.cameras[0]?.name));
      case 'correction':
        return noSearch(
          (await correctionNoted(scope, u, sentAt)) ?? correctionWithoutAlertReply(u.name, language),
        );
      case 'household':
        return noSearch(
          householdReply(u.topic, householdFacts(scope), scope, {
            ...(u.query.cameraNames ? { cameraNames: u.query.cameraNames } : {}),
            ...(u.query.siteIds
              ? {
                  siteNames: scope.sites.filter((s) => u.query.siteIds!.includes(s.id)).map((s) => s.name),
                }
              : {}),
            ...(u.query.memoryIds
              ? {
                  memoryNames: scope.memories
                    .filter((m) => u.query.memoryIds!.includes(m.id) && m.name)
                    .map((m) => m.name!),
                }
              : {}),
          }),
        );
      case 'remember': {
        if (scope.amnesia) return noSearch(amnesiaRememberReply(language));
        const note = u.query.rememberText!;
        const expiration = u.query.rememberUntil
          ? instantToExpiration(u.query.rememberUntil, scope.timezone)
          : null;
        await keepNote(scope, note, expiration);
        const said = rememberedReply(note, u.query.rememberUntil, scope, language);
        return noSearch(u.recurring ? `${said} ${recurringNoteSuffix(language)}` : said);
      }
      case 'count':
        return searched(scope, u.query, (found, ctx) => composeCount(u.query, found, ctx), text);
      case 'not_seen': {
        // Everything in the window and places asked about: what was seen instead, or who came.
        const everything: SearchQuestion = { ...u.query };
        delete everything.kinds;
        delete everything.labels;
        delete everything.memoryIds;
        return searched(scope, everything, (found, ctx) =>
          composeNotSeen(u.query, found, ctx, {
            ...(u.thing ? { thing: u.thing } : {}),
            ...(u.name ? { name: u.name } : {}),
          }),
        );
      }
      case 'events':
        break;
    }
    const q = u.query;
    if (u.focus === 'last') {
      const query = lookBack(q, scope, LAST_EVENT_DAYS);
      return searched(scope, query, (found, ctx) => composeLast(found, ctx, LAST_EVENT_DAYS));
    }
    if (u.focus === 'now' && !saysTime(q)) {
      const from = new Date(scope.now.getTime() - 15 * 60_000);
      const query: SearchQuestion = {
        ...q,
        from,
        to: scope.now,
        window: { type: 'recent', amount: 15, unit: 'minute' },
      };
      delete query.timing;
      const before = await searchActivities(repo, scope, lookBack(q, scope, LAST_EVENT_DAYS));
      const recorded = await searched(scope, query, (found, ctx) =>
        composeNow(query, found, found.length ? undefined : before.found[0], ctx),
      );
      // It cannot see live: said first, with the way to the live view, then what was recorded just now.
      const camera = q.cameraNames?.length === 1 ? q.cameraNames[0] : undefined;
      return {
        ...recorded,
        text: `${liveReply(camera, language)}\n${recorded.text}`,
        rows: [...recorded.rows, ...before.rows],
      };
    }
    if (u.focus === 'unusual') return searched(scope, q, (found, ctx) => composeUnusual(q, found, ctx));
    const answered = await searched(scope, q, (found, ctx) => composeAnswer(q, found, ctx), text);
    const away = q.window?.type === 'away' && q.window.guess ? `\n${awayNarrowing(language)}` : '';
    // "Anyone at the door right now?" with its own window ("in the last minutes"): it cannot see live either.
    const live =
      u.focus === 'now'
        ? `${liveReply(q.cameraNames?.length === 1 ? q.cameraNames[0] : undefined, language)}\n`
        : '';
    if (answered.cited.length) {
      // "Did Barack come by?": a yes before the evidence when someone the user named was seen.
      const yes = !live && q.memoryIds?.length ? yesLead(fold(text), language) : undefined;
      return { ...answered, text: `${live}${yes ? `${yes} ` : ''}${answered.text}${away}` };
    }
    // Nothing of what was asked: what the cameras saw that comes close, rather than a flat no.
    if (q.kinds?.length && !q.memoryIds?.length && q.timing !== 'ask' && q.timing !== 'ahead') {
      const everything: SearchQuestion = { ...q };
      delete everything.kinds;
      delete everything.labels;
      const near = await searched(scope, everything, (found, ctx) => {
        return composeNearMatch(q, answered.text, found, ctx) ?? { text: answered.text, cited: [] };
      });
      if (near.cited.length) return { ...near, text: `${live}${near.text}` };
    }
    return { ...answered, text: `${live}${answered.text}${away}` };
  }

  /**
   * A question replied to an alert ("who is this person?", "what car is that?"): answered from that alert's
   * activities (issue 31 point 8). Undefined when the message replies to no alert or asks something else.
   */
  async function aboutAlert(
    scope: AssistantScope,
    replyTo: string,
    text: string,
  ): Promise<Answer | undefined> {
    const rows = await repo.alertActivities(scope.userId, replyTo);
    if (rows.length === 0) return undefined;
    const names = scope.memories.filter((m) => m.category === 'people').flatMap((m) => memoryNames(m));
    const question = alertQuestionOf(text, names);
    if (!question) return undefined;
    const found = rows.map(toFound);
    const composed = composeAlertReply(question, found, {
      language: scope.language,
      timezone: scope.timezone,
    });
    return { text: composed.text, cited: composed.cited, rows };
  }

  async function withLlm(
    llm: Llm,
    scope: AssistantScope,
    u: Understood,
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
      watches: deps.watches,
      text,
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
      { role: 'system', content: systemPrompt(scope, u) },
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
    if (u.intent === 'remember' && created.length === 0) return deterministic(scope, u, text);
    const invented = inventedName(scope, result.text, text, searches, result.toolCalls);
    if (invented) {
      log.warn(
        { model: llm.model },
        'llm answer named someone nothing showed; the built-in composer answers',
      );
      return deterministic(scope, u, text);
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

  async function compose(scope: AssistantScope, u: Understood, text: string, sentAt: Date): Promise<Answer> {
    const llm = deps.llm;
    // Fixed lines need no model; questions about events or the household, and notes, go to it first.
    const needsModel =
      u.intent === 'events' ||
      u.intent === 'count' ||
      u.intent === 'not_seen' ||
      u.intent === 'household' ||
      (u.intent === 'remember' && !scope.amnesia);
    if (llm && needsModel) {
      try {
        return await withLlm(llm, scope, u, text, sentAt);
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        log.warn(
          { model: llm.model, reason: err.reason, err: err.message },
          'llm failed; the built-in composer answers',
        );
      }
    }
    return deterministic(scope, u, text, sentAt);
  }

  /**
   * The newest alert of the last six hours that shows what a correction speaks of: "not Barack" one where
   * Barack was recognised, "that's Tom" one with a person, "it was a fox, not a cat" one with a cat.
   */
  async function matchingAlert(
    userId: string,
    u: Extract<Understood, { intent: 'correction' }>,
  ): Promise<string | undefined> {
    const alerts = await repo.recentAlerts(userId, new Date(now().getTime() - CORRECTION_WINDOW_MS));
    const name = fold(u.name);
    const shows = (a: (typeof alerts)[number]) => {
      if (u.relabel) return a.objects.some((o) => fold(o.label ?? '') === fold(u.relabel!.was));
      if (!u.isCorrect) return a.recognised.some((r) => fold(r.name ?? '') === name);
      return a.objects.some((o) => o.kind === 'person');
    };
    return alerts.find(shows)?.messageId;
  }

  /**
   * A correction no alert took, right after an answer in the chat: kept as a note with the question it is
   * about (not in amnesia mode), and said so. Undefined when there was no such question.
   */
  async function correctionNoted(
    scope: AssistantScope,
    u: Extract<Understood, { intent: 'correction' }>,
    sentAt: Date,
  ): Promise<string | undefined> {
    if (scope.amnesia) return undefined;
    const earlier = await repo.messagesBefore(
      scope.userId,
      sentAt,
      new Date(sentAt.getTime() - CONTEXT_WINDOW_MS),
      4,
    );
    const previous = earlier.filter((m) => m.role === 'user').at(-1);
    if (!previous || !earlier.some((m) => m.role !== 'user' && m.sentAt >= previous.sentAt)) return undefined;
    const before = understandIn(scope, previous.text);
    if (before.intent !== 'events' && before.intent !== 'count' && before.intent !== 'not_seen')
      return undefined;
    // A known person is spoken of as their memory spells them ("not barack" → "not Barack").
    const memory = scope.memories.find(
      (m) => m.category === 'people' && m.name && fold(m.name) === fold(u.name),
    );
    const said = memory?.name ? { ...u, name: memory.name, text: u.text.replace(u.name, memory.name) } : u;
    await keepNote(scope, correctionNote(said.text, previous.text, scope.language), null);
    return correctionNotedReply(said, previous.text, Boolean(memory), scope.language);
  }

  /** A correction ("that's Tom, my neighbour") applied to the alert replied to, else the newest recent one. */
  async function correct(
    userId: string,
    message: { replyToMessageId: string | null; text: string },
    u: Understood | undefined,
  ) {
    if (!deps.corrections) return undefined;
    const corrections = deps.corrections;
    const target =
      message.replyToMessageId ?? (u?.intent === 'correction' ? await matchingAlert(userId, u) : undefined);
    if (!target) return undefined;
    const tries = [message.text, ...(u?.intent === 'correction' && u.text !== message.text ? [u.text] : [])];
    for (const said of tries) {
      const outcome = await corrections.applyChatCorrection(userId, target, said);
      if (outcome.handled) return outcome.reply;
    }
    return undefined;
  }

  /** Answers one user message; idempotent (a retried job posts nothing twice). */
  async function answer(userId: string, messageId: string): Promise<void> {
    const message = await repo.message(userId, messageId);
    if (!message || message.role !== 'user') return;
    const answerId = answerIdFor(messageId);
    if (await deps.chat.findMessage(userId, answerId)) return;
    const scope = await scopeFor(userId, message.text);
    // A reply to an alert may be a correction of who is in it; then that is the whole answer.
    const first = scope ? understandIn(scope, message.text) : undefined;
    const corrected = await correct(userId, message, first);
    if (corrected !== undefined) {
      await deps.chat
        .postAgentMessage(userId, {
          message_uuid: answerId,
          text: corrected,
          reply_to_message_uuid: messageId,
        })
        .catch((err: unknown) => {
          if (!isUniqueViolation(err)) throw err;
        });
      return;
    }
    if (!scope || !first) return;

    if (!scope.amnesia) {
      const last = await repo.lastUserMessageAt(userId, message.sentAt);
      if (last) scope.lastUsedAt = last;
    }
    const u = await withFollowUp(scope, understandIn(scope, message.text), message.text, message.sentAt);
    const aboutTheAlert = message.replyToMessageId
      ? await aboutAlert(scope, message.replyToMessageId, message.text)
      : undefined;
    const q: ParsedQuestion =
      u.intent === 'events' || u.intent === 'count' || u.intent === 'not_seen' || u.intent === 'remember'
        ? u.query
        : { intent: 'smalltalk', allProperties: false };
    await deps.chat.publishProgress(userId, progressText(q, scope.language));
    let posted: ChatMessage | undefined;
    try {
      let result: Answer;
      try {
        result = aboutTheAlert ?? (await compose(scope, u, message.text, message.sentAt));
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
        if (!isUniqueViolation(err)) throw err;
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
