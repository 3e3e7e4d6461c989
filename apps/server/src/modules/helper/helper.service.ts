import {
  helperToServerMessageSchema,
  HELPER_MESSAGE_MAX_BYTES,
  type HelperLinkStatus,
  type HelperToServerMessage,
  type ServerToHelperMessage,
} from '@homesitter/contract';
import type { LiveViewer } from '@homesitter/cameras';
import type { Logger } from '../../platform/logger.js';
import type { HelperCamera, HelperCameras } from '../cameras/cameras.module.js';
import type { HelperRepository } from './helper.repository.js';
import { createRelay, type Relay, type RelaySocket } from './helper.relay.js';

/** What a camera shows while no helper bridges it (its stream error). */
export const HELPER_NOT_CONNECTED = 'The Homesitter helper on your computer is not connected.';

/** How often each helper's control socket is pinged; one that did not answer the previous ping is dropped. */
const HEARTBEAT_MS = 30_000;
/** A "connected" row not refreshed for this long is stale (its instance went away without saying so). */
const STALE_MS = 3 * HEARTBEAT_MS;

/** The helper's control socket, as the service sees it. */
export interface HelperSocket {
  send(text: string): void;
  close(code: number, reason: string): void;
  ping(): void;
  terminate(): void;
}

/** The live side of a bridged camera (the streams module's `LivePipe`, structurally). */
export interface RelayedLive {
  join(viewer: LiveViewer): () => void;
  mimeType(): string | null;
  hls: {
    playlist(query: string): string | undefined;
    init(map: number): Buffer | undefined;
    segment(sequence: number): Buffer | undefined;
  };
}

export interface HelperServiceDeps {
  cameras: Pick<HelperCameras, 'all' | 'ofUser' | 'report' | 'streamState'>;
  repo: HelperRepository;
  log: Logger;
  /** How long a relay nobody watches goes on before `live-stop` (30 s). */
  lingerMs: number;
  /** How long before a relay that did not come (or broke off) is asked for again. */
  retryMs?: number;
  heartbeatMs?: number;
  now?: () => Date;
}

/** One connected helper. */
interface Link {
  id: number;
  userId: string;
  socket: HelperSocket;
  version: string | null;
  /** The cameras it bridges, each with when it took it on (the latest claim wins). */
  cameras: Map<string, number>;
  /** The last `cameras` message sent, to send only changes. */
  sentList: string | null;
  /** Answered the last ping. */
  alive: boolean;
}

/** A user with at least one helper connected. */
interface UserLinks {
  links: Set<Link>;
  /** Their helper cameras, as last read. */
  cameras: Map<string, HelperCamera>;
}

/**
 * The desktop helper's link to the server (docs/stream-cameras.md, "Cameras bridged by the desktop helper"):
 * who is connected and which cameras each bridges, the list of cameras each helper is sent, what helpers
 * report of their cameras, the cameras' status while no helper bridges them, and the live relays. One user's
 * work runs one step after another, in the order it arrived.
 */
export function createHelperService(deps: HelperServiceDeps) {
  const { cameras, repo, log, lingerMs } = deps;
  const retryMs = deps.retryMs ?? 2_000;
  const now = deps.now ?? (() => new Date());
  const users = new Map<string, UserLinks>();
  /** The links claiming each camera. */
  const claims = new Map<string, Set<Link>>();
  const relays = new Map<string, { userId: string; relay: Relay }>();
  const queues = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  let nextId = 0;
  let claimSeq = 0;
  let closed = false;

  /** Runs one user's work after what is already queued for them; failures are logged. */
  function serial(userId: string, work: () => Promise<void>): Promise<void> {
    const run = (queues.get(userId) ?? Promise.resolve()).then(work).catch((err: unknown) => {
      log.warn({ err, userId }, 'helper link work failed');
    });
    queues.set(userId, run);
    pending.add(run);
    void run.finally(() => {
      pending.delete(run);
      if (queues.get(userId) === run) queues.delete(userId);
    });
    return run;
  }

  function sendText(link: Link, text: string): void {
    try {
      link.socket.send(text);
    } catch (err) {
      log.debug({ err: String(err), userId: link.userId }, 'helper message not sent');
    }
  }

  const send = (link: Link, message: ServerToHelperMessage) => sendText(link, JSON.stringify(message));

  function bridgeOf(cameraId: string): Link | undefined {
    let best: Link | undefined;
    for (const link of claims.get(cameraId) ?? []) {
      if (!best || link.cameras.get(cameraId)! > best.cameras.get(cameraId)!) best = link;
    }
    return best;
  }

  function claim(link: Link, cameraId: string): boolean {
    const fresh = !link.cameras.has(cameraId);
    link.cameras.set(cameraId, ++claimSeq);
    const set = claims.get(cameraId) ?? new Set<Link>();
    set.add(link);
    claims.set(cameraId, set);
    return fresh;
  }

  function unclaim(link: Link, cameraId: string): void {
    link.cameras.delete(cameraId);
    const set = claims.get(cameraId);
    set?.delete(link);
    if (set?.size === 0) claims.delete(cameraId);
  }

  /** A camera no helper bridges any more: its viewers wait, its card says why. */
  async function unbridged(camera: HelperCamera | undefined, cameraId: string): Promise<void> {
    relays.get(cameraId)?.relay.bridgeLost();
    if (camera && !camera.isPrivate && !closed) {
      await cameras.streamState(camera, 'reconnecting', HELPER_NOT_CONNECTED);
      remember(camera.userId, { ...camera, streamStatus: 'reconnecting', streamError: HELPER_NOT_CONNECTED });
    }
  }

  function remember(userId: string, camera: HelperCamera): void {
    users.get(userId)?.cameras.set(camera.id, camera);
  }

  function listMessage(list: HelperCamera[]): string {
    const message: ServerToHelperMessage = {
      type: 'cameras',
      // In a stable order: an unchanged list is not sent again.
      cameras: [...list]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((c) => ({
          camera_uuid: c.id,
          name: c.name,
          private: c.isPrivate,
          motion_sensitivity: c.motionSensitivity,
        })),
    };
    return JSON.stringify(message);
  }

  function endRelay(cameraId: string, reason: string): void {
    const entry = relays.get(cameraId);
    if (!entry) return;
    relays.delete(cameraId);
    const bridge = bridgeOf(cameraId);
    if (bridge) send(bridge, { type: 'live-stop', camera_uuid: cameraId });
    entry.relay.close(reason);
  }

  /**
   * Brings one user in line with their helper cameras as stored: private ones say so (and relay nothing),
   * ones coming out of private mode wait for their helper, and each connected helper gets the list when it
   * changed.
   */
  async function refresh(userId: string): Promise<void> {
    const list = await cameras.ofUser(userId);
    const byId = new Map(list.map((c) => [c.id, c]));
    for (const [cameraId, entry] of relays) {
      const camera = byId.get(cameraId);
      if (entry.userId === userId && (!camera || camera.isPrivate)) endRelay(cameraId, 'camera not relayed');
    }
    const state = users.get(userId);
    if (state) {
      state.cameras = byId;
      for (const link of state.links) {
        for (const cameraId of [...link.cameras.keys()]) if (!byId.has(cameraId)) unclaim(link, cameraId);
      }
    }
    if (!closed) {
      for (const camera of list) {
        if (camera.isPrivate) {
          if (await cameras.streamState(camera, 'private'))
            remember(userId, { ...camera, streamStatus: 'private' });
        } else if (camera.streamStatus === 'private') {
          const bridged = bridgeOf(camera.id) !== undefined;
          const status = bridged ? 'connecting' : 'reconnecting';
          const error = bridged ? null : HELPER_NOT_CONNECTED;
          if (await cameras.streamState(camera, status, error)) {
            remember(userId, { ...camera, streamStatus: status, streamError: error });
          }
        }
      }
    }
    if (!state) return;
    const message = listMessage(list);
    for (const link of state.links) {
      if (link.sentList === message) continue;
      link.sentList = message;
      sendText(link, message);
    }
  }

  async function hello(
    link: Link,
    message: Extract<HelperToServerMessage, { type: 'hello' }>,
  ): Promise<void> {
    const state = users.get(link.userId);
    if (!state) return;
    link.version = message.version;
    const claimed = new Set(message.cameras.filter((id) => state.cameras.has(id)));
    const dropped = [...link.cameras.keys()].filter((id) => !claimed.has(id));
    for (const cameraId of dropped) unclaim(link, cameraId);
    for (const cameraId of claimed) claim(link, cameraId);
    await repo.connected(link.userId, message.version, now());
    for (const cameraId of dropped) {
      if (!bridgeOf(cameraId)) await unbridged(state.cameras.get(cameraId), cameraId);
    }
    for (const cameraId of claimed) {
      relays.get(cameraId)?.relay.bridged();
      const camera = state.cameras.get(cameraId);
      // Back: it says so until the helper reports the camera itself.
      if (camera && camera.streamStatus === 'reconnecting' && camera.streamError === HELPER_NOT_CONNECTED) {
        if (await cameras.streamState(camera, 'connecting')) {
          remember(link.userId, { ...camera, streamStatus: 'connecting', streamError: null });
        }
      }
    }
  }

  async function cameraState(
    link: Link,
    message: Extract<HelperToServerMessage, { type: 'camera-state' }>,
  ): Promise<void> {
    const camera = users.get(link.userId)?.cameras.get(message.camera_uuid);
    if (!camera) {
      log.debug(
        { userId: link.userId },
        'helper reported a camera that is not one of its user’s helper cameras',
      );
      return;
    }
    // A helper reporting a camera bridges it.
    if (claim(link, camera.id)) relays.get(camera.id)?.relay.bridged();
    const streamStatus = camera.isPrivate ? 'private' : (message.stream_status ?? 'stopped');
    const streamError = streamStatus === 'reconnecting' ? message.stream_error : null;
    await cameras.report(link.userId, camera.id, {
      configurationStatus: message.configuration_status,
      configurationErrorCode: message.configuration_error_code,
      streamStatus,
      streamError,
      details: message.details,
    });
    remember(link.userId, {
      ...camera,
      configurationStatus: message.configuration_status,
      streamStatus,
      streamError,
    });
  }

  async function dropLink(link: Link): Promise<void> {
    const state = users.get(link.userId);
    if (!state?.links.delete(link)) return;
    const bridged = [...link.cameras.keys()];
    for (const cameraId of bridged) unclaim(link, cameraId);
    if (state.links.size === 0) {
      users.delete(link.userId);
      await repo.disconnected(link.userId, now());
    }
    for (const cameraId of bridged) {
      const next = bridgeOf(cameraId);
      if (next) relays.get(cameraId)?.relay.bridged();
      else await unbridged(state.cameras.get(cameraId), cameraId);
    }
  }

  function relayOf(cameraId: string, userId: string): Relay {
    const existing = relays.get(cameraId);
    if (existing) return existing.relay;
    const relay = createRelay({
      cameraId,
      log,
      lingerMs,
      retryMs,
      requestStart: () => {
        const bridge = bridgeOf(cameraId);
        if (!bridge) return false;
        send(bridge, { type: 'live-start', camera_uuid: cameraId });
        return true;
      },
      onIdle: () => {
        if (relays.get(cameraId)?.relay !== relay) return;
        relays.delete(cameraId);
        const bridge = bridgeOf(cameraId);
        if (bridge) send(bridge, { type: 'live-stop', camera_uuid: cameraId });
      },
    });
    relays.set(cameraId, { userId, relay });
    return relay;
  }

  /** The camera if a helper bridges it now and it is not private: then it can be relayed. */
  function relayable(cameraId: string): HelperCamera | undefined {
    const bridge = bridgeOf(cameraId);
    const camera = bridge ? users.get(bridge.userId)?.cameras.get(cameraId) : undefined;
    return camera && !camera.isPrivate ? camera : undefined;
  }

  const heartbeat = setInterval(() => {
    const seen = new Set<string>();
    for (const [userId, state] of users) {
      // Changes made through another instance reach this one's events only here.
      void serial(userId, () => refresh(userId));
      for (const link of state.links) {
        if (!link.alive) {
          link.socket.terminate();
          continue;
        }
        if (link.version !== null) seen.add(link.userId);
        link.alive = false;
        link.socket.ping();
      }
    }
    const work = repo
      .seen([...seen], now())
      .catch((err: unknown) => log.warn({ err }, 'helper links not seen'));
    pending.add(work);
    void work.finally(() => pending.delete(work));
  }, deps.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    /** A helper connected (authenticated as `userId`): it is sent the user's helper cameras. */
    connect(userId: string, socket: HelperSocket) {
      const link: Link = {
        id: ++nextId,
        userId,
        socket,
        version: null,
        cameras: new Map(),
        sentList: null,
        alive: true,
      };
      const state = users.get(userId) ?? { links: new Set<Link>(), cameras: new Map<string, HelperCamera>() };
      state.links.add(link);
      users.set(userId, state);
      void serial(userId, () => refresh(userId));
      return {
        /** One text message of the helper; anything that is not a valid `HelperToServerMessage` is ignored. */
        receive(text: string): void {
          if (Buffer.byteLength(text) > HELPER_MESSAGE_MAX_BYTES) {
            log.debug({ userId }, 'helper message too large, ignored');
            return;
          }
          let parsed: HelperToServerMessage;
          try {
            const result = helperToServerMessageSchema.safeParse(JSON.parse(text));
            if (!result.success) {
              log.debug({ userId, issues: result.error.issues.slice(0, 3) }, 'helper message ignored');
              return;
            }
            parsed = result.data;
          } catch {
            log.debug({ userId }, 'helper message is not JSON, ignored');
            return;
          }
          void serial(userId, () =>
            parsed.type === 'hello' ? hello(link, parsed) : cameraState(link, parsed),
          );
        },
        pong(): void {
          link.alive = true;
        },
        closed(): void {
          void serial(userId, () => dropLink(link));
        },
      };
    },

    /** A user's cameras or privacy changed (or the account went): their helpers and cameras follow. */
    sync(userId: string): Promise<void> {
      return serial(userId, () => refresh(userId));
    },

    /** The account is gone: its helpers are sent away. */
    forget(userId: string): void {
      for (const link of users.get(userId)?.links ?? []) link.socket.close(4401, 'account deleted');
    },

    /** Whether the user's helper may open the live relay of this camera (theirs, bridged, not private). */
    mayRelay(userId: string, cameraId: string): boolean {
      const camera = users.get(userId)?.cameras.get(cameraId);
      return camera !== undefined && !camera.isPrivate;
    },

    /** The helper's live socket for one camera opened: its messages go to the camera's relay. */
    attachRelay(userId: string, cameraId: string, socket: RelaySocket) {
      const relay = relayOf(cameraId, userId);
      relay.attach(socket);
      return {
        receive: (data: Buffer, isBinary: boolean) => relay.receive(socket, data, isBinary),
        closed: () => relay.detach(socket),
      };
    },

    /** The live side of a bridged camera, or undefined when no helper bridges it now (or it is private). */
    live(cameraId: string): RelayedLive | undefined {
      const camera = relayable(cameraId);
      if (!camera) return undefined;
      const current = () => relays.get(cameraId)?.relay;
      return {
        join: (viewer) => relayOf(cameraId, camera.userId).join(viewer),
        mimeType: () => current()?.mimeType() ?? null,
        hls: {
          playlist: (query) => relayOf(cameraId, camera.userId).hls.playlist(query),
          init: (map) => current()?.hls.init(map),
          segment: (sequence) => current()?.hls.segment(sequence),
        },
      };
    },

    /** `GET /api/users/helper`. */
    async status(userId: string): Promise<HelperLinkStatus> {
      const row = await repo.find(userId);
      if (!row) return { connected: false, version: null, last_seen_at: null };
      return {
        connected: row.connected && now().getTime() - row.lastSeenAt.getTime() < STALE_MS,
        version: row.version,
        last_seen_at: row.lastSeenAt.toISOString(),
      };
    },

    /**
     * At start of the instance that holds the helpers' sockets: no helper is connected to it yet, so no
     * camera is bridged.
     */
    async resume(): Promise<void> {
      await repo.disconnectAll();
      for (const camera of await cameras.all()) {
        if (camera.isPrivate || camera.streamStatus === 'stopped') continue;
        await cameras.streamState(camera, 'reconnecting', HELPER_NOT_CONNECTED);
      }
    },

    /** Resolves when the work queued so far is done (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    /** Stops pinging, ends the relays and closes every helper's socket (they reconnect elsewhere or later). */
    close(): void {
      closed = true;
      clearInterval(heartbeat);
      for (const cameraId of [...relays.keys()]) endRelay(cameraId, 'server shutting down');
      for (const state of users.values()) {
        for (const link of state.links) link.socket.close(1001, 'server shutting down');
      }
    },
  };
}
export type HelperService = ReturnType<typeof createHelperService>;
