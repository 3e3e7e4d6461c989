/**
 * The assistant's tools, defined once (DESIGN.md "the AI assistant's tools are defined once"): searching
 * activities, searching memories and keeping a note. The built-in composer calls them directly; with an
 * LLM the same functions are offered as function tools. Each search keeps to the property rule (docs/product.md §1):
 * a question about one camera or property stays there, and one about none of several properties is answered
 * property by property.
 */
import type { MemoryCategory, MemoryExpiration } from '@homesitter/contract';
import type { LlmTool } from '../../adapters/llm/llm.js';
import { instantToExpiration } from '../memories/memories.module.js';
import {
  objectMatches,
  pickCited,
  timingReply,
  type FoundActivity,
  type HouseholdFacts,
  understand,
  type HouseholdTopic,
  type Understood,
  parseQuestion,
  type ParsedQuestion,
  type QuestionContext,
  awayNarrowing,
  defaultWindow,
  parseTimeWindow,
  windowPhrase,
  placeAliases,
  type WatchFacts,
  DEFAULT_WATCH_HOURS,
  watchWindow,
  type WatchRequest,
  type WatchTarget,
} from '../conversation/conversation.module.js';
import {
  fold,
  namePattern,
  nameVariants,
  type Language,
  type ObjectKind,
  kindOfLabel,
  OBJECT_KINDS,
  detectionsOf,
  formatClock,
  localDate,
  unusualReason,
} from '../language/language.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { MemoryRow } from '../memories/memories.repository.js';
import type { AssistantRepository } from './assistant.repository.js';
import { TooManyWatchesError, type WatchInput, type WatchRow } from '../watches/watches.module.js';

/** Everything about the user a conversation works with, loaded once per message. */
export interface AssistantScope {
  userId: string;
  subject: string;
  now: Date;
  timezone: string | null;
  language: Language;
  amnesia: boolean;
  cameras: {
    id: string;
    name: string;
    siteId: string | null;
    notes: string | null;
    isPrivate?: boolean;
    isMuted?: boolean;
    connectionType?: string;
    configurationStatus?: string;
    streamStatus?: string | null;
    lastActivityAt?: Date | null;
  }[];
  sites: { id: string; name: string }[];
  memories: (MemoryRow & { siteIds: string[] })[];
  /** The user's previous chat message, for "while I was out" (never kept in amnesia mode). */
  lastUsedAt?: Date;
}

/** The most activities one search reads; the answer says how many matched beyond them. */
export const SEARCH_LIMIT = 200;

export type SearchQuery = ParsedQuestion & { intent: 'search' };

export interface SearchResult {
  query: SearchQuery;
  rows: ActivityRow[];
  found: FoundActivity[];
  total: number;
  /** The user has several properties and asked about none: speak of each on its own. */
  groupByProperty: boolean;
}

/** The names a memory answers to in a question: a person's or pet's name, a vehicle's owner, make and model. */
export function memoryNames(m: MemoryRow): string[] {
  if (m.category === 'people' || m.category === 'animals') return m.name ? [m.name] : [];
  if (m.category === 'vehicles') {
    const names: string[] = [];
    const makeModel = [m.make, m.model].filter(Boolean).join(' ');
    if (makeModel) names.push(makeModel);
    if (m.model) names.push(m.model);
    if (m.owner) names.push(`${m.owner}'s car`, `${m.owner}s Auto`);
    return names;
  }
  return [];
}

/** What `parseQuestion` needs to know about the user. */
export function questionContext(scope: AssistantScope): QuestionContext {
  return {
    now: scope.now,
    timezone: scope.timezone,
    language: scope.language,
    cameras: scope.cameras,
    sites: scope.sites,
    memories: scope.memories.flatMap((m) =>
      memoryNames(m).map((name) => ({ uuid: m.id, name, category: m.category })),
    ),
    ...(scope.lastUsedAt ? { lastUsedAt: scope.lastUsedAt } : {}),
  };
}

/**
 * The household tool: the user's cameras (private, muted, offline), properties and memories, as facts. A
 * stream camera is offline when its stream is reconnecting or stopped, or its setup failed; cameras that
 * upload are never "offline" as such (their last event says when they last sent something).
 */
export function householdFacts(scope: AssistantScope): HouseholdFacts {
  const siteName = (id: string | null) => (id ? (scope.sites.find((s) => s.id === id)?.name ?? null) : null);
  return {
    cameras: scope.cameras.map((c) => ({
      name: c.name,
      siteName: siteName(c.siteId),
      private: c.isPrivate ?? false,
      muted: c.isMuted ?? false,
      offline:
        c.configurationStatus === 'failed' ||
        (c.connectionType !== 'upload' &&
          (c.streamStatus === 'reconnecting' || c.streamStatus === 'stopped')),
      lastActivityAt: c.lastActivityAt ?? null,
    })),
    sites: scope.sites.map((s) => ({
      name: s.name,
      cameraCount: scope.cameras.filter((c) => c.siteId === s.id).length,
    })),
    memories: scope.memories.map((m) => ({
      category: m.category,
      ...(m.name ? { name: m.name } : {}),
      ...(m.text ? { text: m.text } : {}),
      ...(m.notes ? { notes: m.notes } : {}),
    })),
  };
}

/** The kinds and finer labels a model's tool call asks about; a label brings its kind along. */
function kindsAndLabelsOf(args: Record<string, unknown>): { kinds: ObjectKind[]; labels: string[] } {
  const kinds = Array.isArray(args.kinds)
    ? args.kinds.filter((k): k is ObjectKind => OBJECT_KINDS.includes(k as ObjectKind))
    : [];
  const labels = Array.isArray(args.labels)
    ? args.labels.filter((l): l is string => typeof l === 'string' && kindOfLabel(l) !== undefined)
    : [];
  for (const l of labels) if (!kinds.includes(kindOfLabel(l)!)) kinds.push(kindOfLabel(l)!);
  return { kinds, labels };
}

export function toFound(row: ActivityRow): FoundActivity {
  return {
    id: row.id,
    cameraName: row.cameraName,
    siteId: row.siteId,
    occurredAt: row.occurredAt,
    mediaKind: row.mediaKind,
    objects: detectionsOf(row.objects),
    recognised: row.recognised.map((r) => ({
      category: r.category,
      name: r.name,
      memory_uuid: r.memory_uuid,
    })),
    description: row.description,
    descriptionLocalized: row.descriptionLocalized,
    routine: row.routine,
  };
}

/** Properties that have cameras; cameras without one count as one more. */
function propertyGroups(scope: AssistantScope): Set<string | null> {
  return new Set(scope.cameras.map((c) => c.siteId));
}

export async function searchActivities(
  repo: AssistantRepository,
  scope: AssistantScope,
  query: SearchQuery,
): Promise<SearchResult> {
  // A window that has not begun, or one only the user knows ("while I was out"), has nothing to search.
  if (query.timing === 'ahead' || query.timing === 'ask')
    return { query, rows: [], found: [], total: 0, groupByProperty: false };
  const window = query.from && query.to ? { from: query.from, to: query.to } : defaultWindow(scope);
  const cameraIds = query.cameraNames?.length
    ? scope.cameras.filter((c) => query.cameraNames!.includes(c.name)).map((c) => c.id)
    : undefined;
  const siteIds = !cameraIds && query.siteIds?.length ? query.siteIds : undefined;
  const objects = (query.kinds ?? []).map((kind) => ({
    kind,
    labels: (query.labels ?? []).filter((l) => kindOfLabel(l) === kind),
  }));
  const { rows, total } = await repo.searchActivities(scope.userId, {
    ...window,
    ...(cameraIds ? { cameraIds } : {}),
    ...(siteIds ? { siteIds } : {}),
    ...(objects.length ? { objects } : {}),
    ...(query.memoryIds?.length ? { memoryIds: query.memoryIds } : {}),
    limit: SEARCH_LIMIT,
  });
  const groupByProperty = !cameraIds && !siteIds && !query.allProperties && propertyGroups(scope).size > 1;
  // A colour asked for ("the white car") narrows the vehicles found; the stored objects say each one's colour.
  if (query.colours?.length) {
    const matching = rows.filter((r) => detectionsOf(r.objects).some((o) => objectMatches(query, o)));
    return { query, rows: matching, found: matching.map(toFound), total: matching.length, groupByProperty };
  }
  return { query, rows, found: rows.map(toFound), total, groupByProperty };
}

/** Words worth looking up in notes: not the question's own function words, times or kinds. */
const STOP_WORDS = new Set(
  (
    'about after again all also and any anyone anything are around been before being between both but came ' +
    'come could did does doing done each else ever from had has have here how into just know last like made ' +
    'many more most much need night only other over same see seen should since some someone something still ' +
    'such than that the their them then there these they this those through today tomorrow under until very ' +
    'want was were what when where which while who whom why will with would yesterday your you happened ' +
    'happen going week hours minutes morning evening afternoon remember tell please ' +
    'aber alle alles als also andere auch auf aus bei beim bis dann das dass dein deine dem den der des die ' +
    'dies diese dieser doch dort durch ein eine einem einen einer etwas euch gegen gestern gibt hast hat hatte ' +
    'heute hier ich ihr ihre immer jemand jetzt kann kam kommt letzte letzten mal man mehr mein meine mich mir ' +
    'mit morgen nach nacht nicht noch nur oder schon sein seit sich sie sind soll ueber uber und uns unter viel ' +
    'vom von vor war waren warum was weil welche wenn wer wie wieder wird woche wurde zum zur zwischen passiert ' +
    'stunden minuten abend morgens nachmittag'
  ).split(' '),
);

/** The user's notes ("other" memories) that share a word with the question, at most three. */
export function relevantNotes(scope: AssistantScope, text: string): MemoryRow[] {
  const words = [...new Set(fold(text).split(/[\s.:/-]+/))].filter(
    (w) => w.length >= 4 && !STOP_WORDS.has(w),
  );
  if (words.length === 0) return [];
  return scope.memories
    .filter((m) => m.category === 'other' && m.text)
    .filter((m) => {
      const haystack = fold(`${m.text ?? ''} ${m.notes ?? ''}`);
      return words.some((w) => new RegExp(`(?<![a-z0-9])${w}`).test(haystack));
    })
    .slice(0, 3);
}

// The LLM's view of the same tools.

/** What the model reads about one activity: facts only, in English, with the local time. */
function activityForModel(a: FoundActivity, scope: AssistantScope) {
  const counts = new Map<string, number>();
  for (const o of a.objects) {
    const key = [o.color, o.label].filter(Boolean).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return {
    activity_uuid: a.id,
    local_time: `${localDate(a.occurredAt, scope.timezone)} ${formatClock(a.occurredAt, scope.timezone, 'de')}`,
    camera: a.cameraName,
    detected: [...counts].map(([what, n]) => (n > 1 ? `${n} × ${what}` : what)),
    recognised: a.recognised.map((r) => `${r.name} (${r.category})`),
    description: a.description ?? null,
    // The camera's routine's verdict: why it is unusual; null when it fits; absent when not judged yet.
    ...(a.routine
      ? { unusual: a.routine.unusual ? unusualReason(a.routine.unusual, a.cameraName, 'en') : null }
      : {}),
  };
}

/** The model sees at most this many activities per property; the counts cover the rest. */
const MODEL_ACTIVITIES_PER_PROPERTY = 10;

function resultForModel(result: SearchResult, scope: AssistantScope) {
  const siteName = (id: string | null) =>
    id ? (scope.sites.find((s) => s.id === id)?.name ?? 'Unknown property') : 'No property';
  const groups = new Map<string | null, FoundActivity[]>();
  for (const a of result.found) {
    const key = result.groupByProperty ? a.siteId : 'all';
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const window = result.query.window ? windowPhrase(result.query.window, 'en') : 'in the last 24 hours';
  const { timing } = result.query;
  return {
    window,
    // Said to the model so it never turns a window still ahead into "nothing happened".
    ...(timing === 'so_far'
      ? { so_far: 'The window has not ended yet: events until now. Say "so far".' }
      : {}),
    ...(timing === 'ahead' || timing === 'ask'
      ? { instead_of_searching: timingReply(result.query, scope) }
      : {}),
    // "While I was out" with no time away known: the window is a guess the answer must say and offer to narrow.
    ...(result.query.window?.type === 'away' && result.query.window.guess
      ? {
          window_is_a_guess: `No time away is known, so this is ${window}. Say so, and end with: ${awayNarrowing(scope.language)}`,
        }
      : {}),
    from: result.query.from?.toISOString(),
    to: result.query.to?.toISOString(),
    total_matches: result.total,
    answer_per_property: result.groupByProperty,
    groups: [...groups]
      .sort(([a], [b]) => siteName(a).localeCompare(siteName(b)))
      .map(([key, list]) => ({
        ...(result.groupByProperty ? { property: siteName(key) } : {}),
        count: list.length,
        activities: pickCited(result.query, list, MODEL_ACTIVITIES_PER_PROPERTY).map((a) =>
          activityForModel(a, scope),
        ),
      })),
  };
}

function resolveNames<T>(wanted: unknown, items: T[], nameOf: (item: T) => string[]): T[] {
  if (!Array.isArray(wanted)) return [];
  const out: T[] = [];
  for (const w of wanted) {
    if (typeof w !== 'string' || !w.trim()) continue;
    const target = fold(w);
    const hit = items.find((item) =>
      nameOf(item).some((n) => nameVariants(n).some((v) => namePattern(v).test(target))),
    );
    if (hit && !out.includes(hit)) out.push(hit);
  }
  return out;
}

/** A camera's or property's names for the model's arguments: its own and the other language's ("Haustür"). */
function withAliases<T extends { name: string }>(items: T[]): (item: T) => string[] {
  const aliases = placeAliases(items.map((item) => ({ key: item.name, value: item })));
  return (item) => [item.name, ...aliases.filter((a) => a.value === item).map((a) => a.key)];
}

// Watch requests: the same functions for the composer and the model.

/** The watches module's calls the assistant uses. */
export interface WatchCalls {
  create(userId: string, input: WatchInput): Promise<WatchRow>;
  active(userId: string): Promise<WatchRow[]>;
  cancel(userId: string, ids: string[]): Promise<WatchRow[]>;
}

/** A bare "stop" means the newest watch when it was made this recently (else, with several, it asks which). */
const JUST_MADE_MS = 10 * 60_000;

/** A stored watch in the user's own names, to say it back. */
export function watchFacts(w: WatchRow, scope: AssistantScope): WatchFacts {
  const names = (ids: string[], items: { id: string; name: string }[]) =>
    ids.flatMap((id) => items.find((i) => i.id === id)?.name ?? []);
  return {
    kinds: w.kinds,
    labels: w.labels,
    memoryNames: w.memoryIds.flatMap((id) => {
      const m = scope.memories.find((x) => x.id === id);
      return m ? (memoryNames(m)[0] ?? []) : [];
    }),
    cameraNames: names(w.cameraIds, scope.cameras),
    siteNames: names(w.siteIds, scope.sites),
    from: w.startsAt,
    to: w.endsAt,
    repeat: w.repeat,
    channel: w.channel,
  };
}

export type WatchCreated =
  { kind: 'created'; watch: WatchRow; defaulted: boolean } | { kind: 'too_many'; limit: number };

/** Keeps a watch request, its names turned into the user's camera and property ids. */
export async function createWatch(
  watches: WatchCalls,
  scope: AssistantScope,
  request: Omit<WatchRequest, 'language'> & { language?: Language },
  text: string,
): Promise<WatchCreated> {
  const cameraIds = scope.cameras.filter((c) => request.cameraNames?.includes(c.name)).map((c) => c.id);
  try {
    const watch = await watches.create(scope.userId, {
      kinds: request.kinds ?? [],
      labels: request.labels ?? [],
      memoryIds: request.memoryIds ?? [],
      cameraIds,
      siteIds: cameraIds.length ? [] : (request.siteIds ?? []),
      startsAt: request.from,
      endsAt: request.to,
      repeat: request.repeat,
      channel: request.channel,
      text,
      language: request.language ?? scope.language,
    });
    return { kind: 'created', watch, defaulted: request.defaulted };
  } catch (err) {
    if (err instanceof TooManyWatchesError) return { kind: 'too_many', limit: err.limit };
    throw err;
  }
}

export type WatchesCancelled =
  | { kind: 'cancelled'; ended: WatchRow[] }
  /** Several are running and "stop" does not say which: the answer lists them and asks. */
  | { kind: 'which'; active: WatchRow[] }
  | { kind: 'not_found'; active: WatchRow[] };

/** Ends the watches a "stop" means: the only or just-made one, all, or those naming a place or subject. */
export async function cancelWatches(
  watches: WatchCalls,
  scope: AssistantScope,
  target: WatchTarget,
): Promise<WatchesCancelled> {
  const active = await watches.active(scope.userId);
  let chosen: WatchRow[];
  if (target.type === 'all') chosen = active;
  else if (target.type === 'latest') {
    const newest = active.at(-1);
    if (active.length > 1 && newest && scope.now.getTime() - newest.createdAt.getTime() > JUST_MADE_MS)
      return { kind: 'which', active };
    chosen = newest ? [newest] : [];
  } else {
    const cameraIds = scope.cameras.filter((c) => target.cameraNames?.includes(c.name)).map((c) => c.id);
    const overlaps = (a: string[], b: string[] | undefined) => !b?.length || a.some((x) => b.includes(x));
    chosen = active.filter((w) => {
      const sitesOfWatch = [
        ...w.siteIds,
        ...scope.cameras.filter((c) => w.cameraIds.includes(c.id) && c.siteId).map((c) => c.siteId!),
      ];
      return (
        overlaps(w.cameraIds, cameraIds.length ? cameraIds : undefined) &&
        (target.cameraNames?.length ? true : overlaps(sitesOfWatch, target.siteIds)) &&
        overlaps(w.kinds, target.kinds) &&
        overlaps(w.labels, target.labels) &&
        overlaps(w.memoryIds, target.memoryIds)
      );
    });
  }
  if (chosen.length === 0) return { kind: 'not_found', active };
  const ended = await watches.cancel(
    scope.userId,
    chosen.map((w) => w.id),
  );
  return { kind: 'cancelled', ended };
}

const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

export interface ToolDeps {
  repo: AssistantRepository;
  scope: AssistantScope;
  /** Keeps an "other" memory for the user (the memories service); answers its uuid. */
  createNote(text: string, expiration: MemoryExpiration | null): Promise<string>;
  /** Every search the model ran, so the answer can cite what it found. */
  searches: SearchResult[];
  /** Notes the model kept in this conversation. */
  created: string[];
  /** Watch requests ("tell me when a car arrives"): absent, the model is offered no watch tools. */
  watches?: WatchCalls | undefined;
  /** The user's message, kept with a watch the model creates. */
  text?: string;
}

/** The tools offered to the model; without `create_memory` in amnesia mode (nothing new is kept). */
export function llmTools(deps: ToolDeps): LlmTool[] {
  const { scope } = deps;
  const search: LlmTool = {
    name: 'search_activities',
    description:
      "Search the user's camera events (activities). Give the time as the user said it in time_phrase (English or German, e.g. 'today', 'last night', 'yesterday after 5', 'in den letzten 3 Stunden'); without it the last 24 hours are searched. Results come per property when the user has several and named none.",
    parameters: {
      type: 'object',
      properties: {
        time_phrase: { type: 'string', description: 'The time the question is about, in words.' },
        cameras: stringList('Camera names the question names.'),
        properties: stringList('Property names the question names.'),
        kinds: {
          type: 'array',
          items: { type: 'string', enum: [...OBJECT_KINDS] },
          description: 'What was seen.',
        },
        labels: stringList(
          'More precise than the kind: car, truck, bus, motorcycle, bicycle, dog, cat, bird…',
        ),
        memory_names: stringList('Names of known people, pets or vehicles the question is about.'),
        all_properties: { type: 'boolean', description: 'The user asked about all properties together.' },
      },
      additionalProperties: false,
    },
    async run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const phrase = typeof args.time_phrase === 'string' ? args.time_phrase : '';
      const window = (phrase && parseTimeWindow(fold(phrase), scope)) || defaultWindow(scope);
      const cams = resolveNames(args.cameras, scope.cameras, withAliases(scope.cameras));
      const named = resolveNames(args.properties, scope.sites, withAliases(scope.sites));
      const mems = resolveNames(args.memory_names, scope.memories, memoryNames);
      const { kinds, labels } = kindsAndLabelsOf(args);
      const siteIds = new Set(named.map((s) => s.id));
      for (const c of cams) if (c.siteId) siteIds.add(c.siteId);
      const query: SearchQuery = {
        intent: 'search',
        from: window.from,
        to: window.to,
        window: window.label,
        ...(window.timing ? { timing: window.timing } : {}),
        ...(cams.length ? { cameraNames: cams.map((c) => c.name) } : {}),
        ...(siteIds.size ? { siteIds: [...siteIds] } : {}),
        ...(kinds.length ? { kinds } : {}),
        ...(labels.length ? { labels: labels.map((l) => l.toLowerCase()) } : {}),
        ...(mems.length ? { memoryIds: mems.map((m) => m.id) } : {}),
        allProperties: args.all_properties === true,
      };
      const result = await searchActivities(deps.repo, scope, query);
      deps.searches.push(result);
      return resultForModel(result, scope);
    },
  };

  const searchMemories: LlmTool = {
    name: 'search_memories',
    description:
      'Look up what the user told you to remember: known people, vehicles, animals and notes, with their notes. Without a query, lists them all (at most 30).',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for.' },
        category: { type: 'string', enum: ['people', 'vehicles', 'animals', 'other'] },
      },
      additionalProperties: false,
    },
    async run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const category = typeof args.category === 'string' ? (args.category as MemoryCategory) : undefined;
      const words =
        typeof args.query === 'string'
          ? fold(args.query)
              .split(' ')
              .filter((w) => w.length >= 2)
          : [];
      const siteName = (id: string) => scope.sites.find((s) => s.id === id)?.name;
      return scope.memories
        .filter((m) => !category || m.category === category)
        .filter((m) => {
          if (words.length === 0) return true;
          const text = fold(
            [m.name, m.owner, m.make, m.model, m.color, m.species, m.text, m.notes].filter(Boolean).join(' '),
          );
          return words.some((w) => text.includes(w));
        })
        .slice(0, 30)
        .map((m) => ({
          memory_uuid: m.id,
          category: m.category,
          ...(m.name ? { name: m.name } : {}),
          ...(m.category === 'vehicles'
            ? { owner: m.owner, make: m.make, model: m.model, year: m.year, color: m.color }
            : {}),
          ...(m.species ? { species: m.species } : {}),
          ...(m.text ? { text: m.text } : {}),
          ...(m.notes ? { notes: m.notes } : {}),
          expires_at: m.expiresAt?.toISOString() ?? null,
          properties: m.siteIds.map(siteName).filter(Boolean),
        }));
    },
  };

  const createMemory: LlmTool = {
    name: 'create_memory',
    description:
      "Keep a note the user asked you to remember (an 'other' memory). When it only matters until some time (a visit tomorrow, a delivery today), give expires_at; otherwise leave it out and the note is kept.",
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The note, as a short sentence.' },
        expires_at: {
          type: 'string',
          description: 'ISO 8601 date-time after which the note no longer matters.',
        },
      },
      required: ['text'],
      additionalProperties: false,
    },
    async run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const text = typeof args.text === 'string' ? args.text.trim() : '';
      if (!text) throw new Error('text is required');
      let expiration: MemoryExpiration | null = null;
      if (typeof args.expires_at === 'string' && args.expires_at) {
        const at = new Date(args.expires_at);
        const maxAhead = 366 * 86_400_000;
        if (Number.isNaN(at.getTime())) throw new Error('expires_at is not a date-time');
        if (at.getTime() <= scope.now.getTime() + 60_000) throw new Error('expires_at must be in the future');
        if (at.getTime() - scope.now.getTime() > maxAhead)
          throw new Error('expires_at is more than a year ahead');
        expiration = instantToExpiration(at, scope.timezone);
      }
      const id = await deps.createNote(text, expiration);
      deps.created.push(id);
      return { memory_uuid: id, kept_until: expiration ? args.expires_at : 'kept until deleted' };
    },
  };

  const household: LlmTool = {
    name: 'get_household',
    description:
      "The user's own setup: cameras (with property, private mode, muted, offline, last event), properties with their camera counts, and what you know (people, pets, vehicles, notes). Use it for questions about the cameras, properties or memories themselves.",
    parameters: {
      type: 'object',
      properties: {
        topic: {
          type: 'string',
          enum: ['cameras', 'properties', 'private', 'muted', 'offline', 'memories'],
          description: 'What the user asked about.',
        },
      },
      additionalProperties: false,
    },
    run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const facts = householdFacts(scope);
      const topic = typeof args.topic === 'string' ? (args.topic as HouseholdTopic) : undefined;
      return Promise.resolve({
        ...(topic ? { topic } : {}),
        cameras: facts.cameras.map((c) => ({
          ...c,
          lastActivityAt: c.lastActivityAt ? c.lastActivityAt.toISOString() : null,
        })),
        properties: facts.sites,
        memories: facts.memories,
      });
    },
  };

  const base = scope.amnesia
    ? [search, searchMemories, household]
    : [search, searchMemories, createMemory, household];
  return deps.watches ? [...base, ...watchTools(deps, deps.watches)] : base;
}

/** A watch for the model: ids to cancel by, names and local times to say. */
function watchForModel(w: WatchRow, scope: AssistantScope) {
  const f = watchFacts(w, scope);
  const local = (at: Date) => `${localDate(at, scope.timezone)} ${formatClock(at, scope.timezone, 'de')}`;
  return {
    watch_id: w.id,
    kinds: f.kinds,
    labels: f.labels,
    memories: f.memoryNames,
    cameras: f.cameraNames,
    properties: f.siteNames,
    from_local: local(f.from),
    until_local: local(f.to),
    every_time: f.repeat === 'every_time',
    text_me: f.channel === 'sms',
  };
}

function watchTools(deps: ToolDeps, watches: WatchCalls): LlmTool[] {
  const { scope } = deps;
  const create: LlmTool = {
    name: 'create_watch',
    description: `Watch for something from now on and alert the user when a camera sees it ("tell me when a car arrives in the driveway tonight"). Give the time as the user said it in time_phrase ("tonight", "in the next two hours", "until 6", "heute Nacht"); without one the watch lasts ${DEFAULT_WATCH_HOURS} hours. Say back what you are watching for and until when.`,
    parameters: {
      type: 'object',
      properties: {
        time_phrase: { type: 'string', description: 'How long or when to watch, in words.' },
        cameras: stringList('Camera names to watch (none: all cameras of the properties named, or all).'),
        properties: stringList('Property names to watch.'),
        kinds: { type: 'array', items: { type: 'string', enum: [...OBJECT_KINDS] } },
        labels: stringList('More precise than the kind: car, truck, dog, cat…'),
        memory_names: stringList('Known people, pets or vehicles to watch for.'),
        every_time: {
          type: 'boolean',
          description: 'Alert on every match until it ends, not only the first.',
        },
        text_me: { type: 'boolean', description: 'The user asked for a text message (SMS).' },
      },
      additionalProperties: false,
    },
    async run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const phrase = typeof args.time_phrase === 'string' ? fold(args.time_phrase) : '';
      const window = phrase ? watchWindow(phrase, questionContext(scope)) : undefined;
      if (window && 'past' in window) return { error: 'That time is over already; watches only look ahead.' };
      const cams = resolveNames(args.cameras, scope.cameras, withAliases(scope.cameras));
      const sites = resolveNames(args.properties, scope.sites, withAliases(scope.sites));
      const mems = resolveNames(args.memory_names, scope.memories, memoryNames);
      const { kinds, labels } = kindsAndLabelsOf(args);
      const outcome = await createWatch(
        watches,
        scope,
        {
          kinds,
          labels: labels.map((l) => l.toLowerCase()),
          memoryIds: mems.map((m) => m.id),
          cameraNames: cams.map((c) => c.name),
          siteIds: sites.map((s) => s.id),
          from: window?.from ?? scope.now,
          to: window?.to ?? new Date(scope.now.getTime() + DEFAULT_WATCH_HOURS * 3_600_000),
          defaulted: window === undefined,
          repeat: args.every_time === true ? 'every_time' : 'once',
          channel: args.text_me === true ? 'sms' : 'usual',
        },
        deps.text ?? '',
      );
      if (outcome.kind === 'too_many')
        return {
          error: `The user has ${outcome.limit} watches running, the most allowed; one must end first.`,
        };
      return { created: watchForModel(outcome.watch, scope), default_duration: outcome.defaulted };
    },
  };
  const list: LlmTool = {
    name: 'list_watches',
    description: 'The watches that are running (what, where, until when), for "what are you watching for?".',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    async run() {
      return { watches: (await watches.active(scope.userId)).map((w) => watchForModel(w, scope)) };
    },
  };
  const cancel: LlmTool = {
    name: 'cancel_watch',
    description:
      'Stop watches: give watch_ids from list_watches, or all: true. Without either, the only or the just-made watch is stopped.',
    parameters: {
      type: 'object',
      properties: { watch_ids: stringList('Watches to stop.'), all: { type: 'boolean' } },
      additionalProperties: false,
    },
    async run(raw) {
      const args = (raw ?? {}) as Record<string, unknown>;
      const ids = Array.isArray(args.watch_ids)
        ? args.watch_ids.filter((id): id is string => typeof id === 'string')
        : [];
      if (ids.length > 0) {
        const mine = (await watches.active(scope.userId)).filter((w) => ids.includes(w.id));
        const ended = await watches.cancel(
          scope.userId,
          mine.map((w) => w.id),
        );
        return { stopped: ended.map((w) => watchForModel(w, scope)) };
      }
      const outcome = await cancelWatches(
        watches,
        scope,
        args.all === true ? { type: 'all' } : { type: 'latest' },
      );
      if (outcome.kind === 'cancelled') return { stopped: outcome.ended.map((w) => watchForModel(w, scope)) };
      return {
        stopped: [],
        ask_which_of: outcome.active.map((w) => watchForModel(w, scope)),
      };
    },
  };
  return [create, list, cancel];
}

/** The intent step (`understand`) against the user's own names: what the message asks for. */
export function understandIn(scope: AssistantScope, text: string): Understood {
  return understand(text, questionContext(scope));
}

/** A question parsed against the user's own names (cameras, properties, memories). */
export function parse(scope: AssistantScope, text: string): ParsedQuestion {
  return parseQuestion(text, questionContext(scope));
}
