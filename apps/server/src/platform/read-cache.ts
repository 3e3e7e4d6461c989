/**
 * Per-user read caches for the list screens (cameras, memories, the newest chat page) on the embedded
 * database. PGlite runs every statement synchronously on the server's one JavaScript thread, so a list
 * query of 50 rows costs as much as the rest of the request several times over, and every request waits
 * for it. A list is read far more often than it changes, so its answer is kept per user until a write
 * that changes it, and the module that owns the data invalidates it after every such write.
 *
 * Only on the embedded database, which is one process by construction: with PostgreSQL several instances
 * write, and a per-process cache would serve another instance's stale list (see docs/architecture.md,
 * "Caching"). Disabled caches load every time; callers do not branch.
 *
 * The rules that keep an answer right:
 * - `invalidate(userId)` after the write has committed drops the user's entries, and a load that was
 *   already running for that user is not stored (it may have read the rows before the write);
 * - concurrent readers of the same entry share one load (a cold list under load is read once);
 * - a load may say how long its answer stays right (`until`: the next expiry of something it shows, the
 *   end of its signed URLs' window); no entry lives longer than the cache's `ttlMs` either;
 * - at most `maxUsers` users are kept, and with `weigh`, at most `maxWeight` (bytes, say) in all; the least
 *   recently read user goes first.
 */
import type { EventBus } from './events.js';

export interface Loaded<V> {
  value: V;
  /** Epoch ms from which the value must not be served again; unset: the cache's own `ttlMs`. */
  until?: number;
}

export interface ReadCache<V> {
  readonly enabled: boolean;
  /** The user's value under `key`, cached or from `load`. */
  get(userId: string, key: string, load: () => Promise<Loaded<V>>): Promise<V>;
  /** Forgets the user's values; call after a write that changes what they show has committed. */
  invalidate(userId: string): void;
  /** Users with something cached (tests, metrics). */
  readonly size: number;
}

export interface ReadCacheOptions<V = unknown> {
  enabled: boolean;
  /** Longest an entry is served, whatever its load said. */
  ttlMs: number;
  /** Users kept; the least recently read goes first. */
  maxUsers?: number;
  /** The weight of a value (a response's bytes); with `maxWeight`, what all entries together may weigh. */
  weigh?: (value: V) => number;
  maxWeight?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  until: number;
  weight: number;
}

interface Flight<V> {
  promise: Promise<V>;
  /** `stale` is set when the user's data changed while the load ran: its answer is handed out, not kept. */
  state: { stale: boolean };
}

export function createReadCache<V>(options: ReadCacheOptions<V>): ReadCache<V> {
  const now = options.now ?? Date.now;
  const maxUsers = options.maxUsers ?? 1_000;
  const maxWeight = options.maxWeight ?? Infinity;
  // Map order is insertion order: a read moves the user to the end, so the first key is the coldest.
  const users = new Map<string, Map<string, Entry<V>>>();
  const flights = new Map<string, Map<string, Flight<V>>>();
  let weight = 0;

  function drop(userId: string): void {
    const entries = users.get(userId);
    if (!entries) return;
    for (const entry of entries.values()) weight -= entry.weight;
    users.delete(userId);
  }

  function cached(userId: string, key: string, at: number): Entry<V> | undefined {
    const entries = users.get(userId);
    const entry = entries?.get(key);
    if (!entries || !entry) return undefined;
    if (entry.until <= at) {
      entries.delete(key);
      weight -= entry.weight;
      if (entries.size === 0) users.delete(userId);
      return undefined;
    }
    users.delete(userId);
    users.set(userId, entries);
    return entry;
  }

  function store(userId: string, key: string, entry: Entry<V>): void {
    if (entry.weight > maxWeight) return;
    let entries = users.get(userId);
    if (entries) users.delete(userId);
    else entries = new Map();
    weight += entry.weight - (entries.get(key)?.weight ?? 0);
    entries.set(key, entry);
    users.set(userId, entries);
    while (users.size > maxUsers || weight > maxWeight) drop(users.keys().next().value as string);
  }

  async function run(
    userId: string,
    key: string,
    state: Flight<V>['state'],
    load: () => Promise<Loaded<V>>,
  ): Promise<V> {
    const loaded = await load();
    const until = Math.min(loaded.until ?? Infinity, now() + options.ttlMs);
    if (!state.stale && until > now()) {
      store(userId, key, { value: loaded.value, until, weight: options.weigh?.(loaded.value) ?? 0 });
    }
    return loaded.value;
  }

  function start(userId: string, key: string, load: () => Promise<Loaded<V>>): Promise<V> {
    let mine = flights.get(userId);
    if (!mine) {
      mine = new Map<string, Flight<V>>();
      flights.set(userId, mine);
    }
    const own = mine;
    const state = { stale: false };
    const flight: Flight<V> = {
      state,
      promise: run(userId, key, state, load).finally(() => {
        if (own.get(key) === flight) own.delete(key);
        if (own.size === 0 && flights.get(userId) === own) flights.delete(userId);
      }),
    };
    own.set(key, flight);
    return flight.promise;
  }

  return {
    enabled: options.enabled,
    async get(userId, key, load) {
      if (!options.enabled) return (await load()).value;
      const hit = cached(userId, key, now());
      if (hit) return hit.value;
      return flights.get(userId)?.get(key)?.promise ?? start(userId, key, load);
    },
    invalidate(userId) {
      drop(userId);
      const running = flights.get(userId);
      if (!running) return;
      // Readers that come after the write must not join a load that may have read before it.
      for (const flight of running.values()) flight.state.stale = true;
      flights.delete(userId);
    },
    get size() {
      return users.size;
    },
  };
}

/**
 * The user id behind a token subject, remembered: a user's subject never changes while the profile
 * exists, so after the first lookup a list request needs no query to find whose list it is. Only found
 * profiles are kept (one created later is looked up again), and a deleted user is forgotten
 * (`user.deleted`), so a profile created again for the same subject gets its new id. Embedded only, like
 * the caches: with several instances another one may delete the user.
 */
export interface UserIdIndex {
  userIdOf: (subject: string) => Promise<string | undefined>;
  forget: (subject: string) => void;
}

export function createUserIdIndex(options: {
  enabled: boolean;
  lookup: (subject: string) => Promise<string | undefined>;
  max?: number;
}): UserIdIndex {
  const max = options.max ?? 10_000;
  const ids = new Map<string, string>();
  return {
    async userIdOf(subject) {
      const known = ids.get(subject);
      if (known) return known;
      const id = await options.lookup(subject);
      if (id && options.enabled) {
        if (ids.size >= max) ids.delete(ids.keys().next().value as string);
        ids.set(subject, id);
      }
      return id;
    },
    forget(subject) {
      ids.delete(subject);
    },
  };
}

/** The read caches of one server and the user id index they share; a deleted user leaves all of them. */
export function createReadCaches(options: {
  enabled: boolean;
  events: EventBus;
  lookupUserId: (subject: string) => Promise<string | undefined>;
  now?: () => number;
}) {
  const caches: Pick<ReadCache<unknown>, 'invalidate'>[] = [];
  const userIds = createUserIdIndex({ enabled: options.enabled, lookup: options.lookupUserId });
  options.events.on('user.deleted', ({ userId, subject }) => {
    userIds.forget(subject);
    for (const cache of caches) cache.invalidate(userId);
  });
  return {
    enabled: options.enabled,
    userIds,
    create<V>(opts: Omit<ReadCacheOptions<V>, 'enabled' | 'now'>): ReadCache<V> {
      const cache = createReadCache<V>({
        ...opts,
        enabled: options.enabled,
        ...(options.now ? { now: options.now } : {}),
      });
      caches.push(cache);
      return cache;
    },
  };
}
export type ReadCaches = ReturnType<typeof createReadCaches>;
