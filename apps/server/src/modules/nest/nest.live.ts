import type { Logger } from '../../platform/logger.js';
import type { LivePull } from '../streams/streams.live-pull.js';
import type { LivePipe, OnDemandAnswer, OnDemandLive } from '../streams/streams.pipe.js';
import { createLiveBackoffs, type LiveBackoff, type LiveBackoffs } from './nest.backoff.js';
import { NestGrantError, type RtspStream } from './nest.google.js';
import { nestLiveNotice } from './nest.notice.js';

/** Extended this long before Google's `expiresAt` (a stream lives 5 minutes unless extended). */
const EXTEND_BEFORE_MS = 60_000;
/** Nobody watching for this long ends the session: a page reload does not restart the stream. */
const LINGER_MS = 20_000;

/** Time and timers of the sessions (tests drive them by hand). `after` answers its cancel. */
export interface LiveClock {
  now(): number;
  after(ms: number, work: () => Promise<void>): () => void;
}

export const realLiveClock: LiveClock = {
  now: () => Date.now(),
  after(ms, work) {
    const timer = setTimeout(() => void work(), ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** A Nest camera as the live view needs it now. */
export interface NestLiveTarget {
  userId: string;
  deviceName: string;
  /** The device offers RTSP (others stream over WebRTC only: not this module's sessions). */
  rtsp: boolean;
  /** Private mode, the camera's or the owner's global one. */
  isPrivate: boolean;
  /** The owner's language, for the notice. */
  language: string;
}

export interface NestLiveDeps {
  /** The camera now; undefined when it is no Nest camera of a linked account (removed, unlinked, link lost). */
  target(cameraId: string): Promise<NestLiveTarget | undefined>;
  /** Google's commands with the owner's token (a refused grant loses the link there). */
  google: {
    generate(userId: string, deviceName: string): Promise<RtspStream>;
    extend(userId: string, deviceName: string, stream: RtspStream): Promise<RtspStream>;
    stop(userId: string, deviceName: string, stream: RtspStream): Promise<void>;
  };
  /** A live-only pull (the streams module's). */
  livePull(): LivePull;
  /** Whether this instance pulls and serves `/api/live/` (STREAMS_ENABLED): sessions run only there. */
  enabled: boolean;
  log: Logger;
  clock?: LiveClock;
  lingerMs?: number;
  /** The cameras' back-off after Google refused a stream (shared with the WebRTC view; its own when absent). */
  backoffs?: LiveBackoffs;
}

interface Session {
  cameraId: string;
  userId: string;
  deviceName: string;
  pull: LivePull;
  /** What the live routes serve: the pull's live side, counting its viewers. */
  live: LivePipe;
  stream: RtspStream | undefined;
  /** The last `GET /live` or HLS request (MSE viewers count while joined). */
  wantedAt: number;
  cancelExtend: () => void;
  cancelLinger: () => void;
  ended: boolean;
}

/**
 * Live view of Nest cameras that offer RTSP (docs/nest.md "Live view"), on demand: Nest streams cost quota,
 * so nothing is pulled until a viewer asks. The first `GET /live` generates a stream (`GenerateRtspStream`)
 * and starts a live-only pull of it; every viewer of the camera (MSE sockets, HLS requests) shares that one
 * session. The stream is extended a minute before it expires, generated again (and the pull switched) when
 * extending fails, and stopped (`StopRtspStream`) once nobody watched for `lingerMs`. Google refusing a
 * stream (429, or another refusal) backs the camera off (nest.backoff.ts): `GET /live` says so and when to
 * ask again; nothing here retries by itself, so no loop of commands can arise.
 */
export function createNestLive(deps: NestLiveDeps) {
  const { log } = deps;
  const clock = deps.clock ?? realLiveClock;
  const lingerMs = deps.lingerMs ?? LINGER_MS;
  const sessions = new Map<string, Session>();
  /** A session being started: concurrent first viewers wait for the same Generate. */
  const starting = new Map<string, Promise<OnDemandAnswer>>();
  const backoffs = deps.backoffs ?? createLiveBackoffs(() => clock.now());

  const answer = (streamStatus: OnDemandAnswer['streamStatus'], live: LivePipe | null = null) =>
    ({ streamStatus, live, notice: null, retryAfterS: null }) satisfies OnDemandAnswer;

  function noticeOf(target: NestLiveTarget, backoff: LiveBackoff): OnDemandAnswer {
    const seconds = backoffs.secondsLeft(backoff);
    return {
      streamStatus: 'stopped',
      live: null,
      notice: nestLiveNotice(target.language, backoff.rateLimited, seconds),
      retryAfterS: seconds,
    };
  }

  function backOff(cameraId: string, err: unknown): LiveBackoff {
    const backoff = backoffs.refused(cameraId, err);
    log.warn(
      { cameraId, err: (err as Error).message, retryInMs: backoff.delayMs },
      'nest: live stream refused; backing off',
    );
    return backoff;
  }

  /** Ends a session: the pull stops (viewers closed) and Google's stream is stopped (best effort). */
  async function end(session: Session, why: string, stopStream = true): Promise<void> {
    if (session.ended) return;
    session.ended = true;
    session.cancelExtend();
    session.cancelLinger();
    if (sessions.get(session.cameraId) === session) sessions.delete(session.cameraId);
    log.info({ cameraId: session.cameraId, why }, 'nest: live session ended');
    await session.pull.stop();
    if (stopStream && session.stream) {
      await deps.google.stop(session.userId, session.deviceName, session.stream).catch((err: unknown) => {
        log.debug({ cameraId: session.cameraId, err: (err as Error).message }, 'nest: StopRtspStream failed');
      });
    }
  }

  function scheduleLinger(session: Session, ms = lingerMs): void {
    session.cancelLinger();
    session.cancelLinger = clock.after(ms, async () => {
      if (session.ended || session.pull.viewers() > 0) return;
      const left = session.wantedAt + lingerMs - clock.now();
      if (left > 0) scheduleLinger(session, left);
      else await end(session, 'no viewer left');
    });
  }

  function scheduleExtension(session: Session): void {
    session.cancelExtend();
    if (!session.stream) return;
    const due = Math.max(0, session.stream.expiresAt.getTime() - EXTEND_BEFORE_MS - clock.now());
    session.cancelExtend = clock.after(due, () => renew(session));
  }

  /** Extends the stream; when Google will not, generates a new one and switches the pull to it. */
  async function renew(session: Session): Promise<void> {
    if (session.ended || !session.stream) return;
    try {
      session.stream = await deps.google.extend(session.userId, session.deviceName, session.stream);
      session.pull.renew({ url: session.stream.rtspUrl });
    } catch (err) {
      if (session.ended) return;
      if (err instanceof NestGrantError) return end(session, 'link lost', false);
      log.info({ cameraId: session.cameraId, err: (err as Error).message }, 'nest: extending failed');
      try {
        // The old stream is left to expire (within the minute): stopping it would spend another command.
        session.stream = await deps.google.generate(session.userId, session.deviceName);
      } catch (again) {
        if (session.ended) return;
        if (!(again instanceof NestGrantError)) backOff(session.cameraId, again);
        return end(session, 'stream not renewed', false);
      }
      if (session.ended) return;
      await session.pull.play({ url: session.stream.rtspUrl });
    }
    scheduleExtension(session);
  }

  /** The first viewer: a stream generated, then a live-only pull of it, its live side at once. */
  async function start(cameraId: string, target: NestLiveTarget): Promise<OnDemandAnswer> {
    const pull = deps.livePull();
    const session: Session = {
      cameraId,
      userId: target.userId,
      deviceName: target.deviceName,
      pull,
      live: pull.live,
      stream: undefined,
      wantedAt: clock.now(),
      cancelExtend: () => undefined,
      cancelLinger: () => undefined,
      ended: false,
    };
    session.live = {
      join(viewer) {
        const leave = pull.live.join(viewer);
        session.cancelLinger();
        return () => {
          leave();
          if (!session.ended && pull.viewers() === 0) scheduleLinger(session);
        };
      },
      mimeType: () => pull.live.mimeType(),
      hls: {
        playlist: (query) => (touch(session), pull.live.hls.playlist(query)),
        init: (map) => (touch(session), pull.live.hls.init(map)),
        segment: (sequence) => (touch(session), pull.live.hls.segment(sequence)),
      },
    };
    try {
      session.stream = await deps.google.generate(target.userId, target.deviceName);
    } catch (err) {
      await pull.stop();
      if (err instanceof NestGrantError) return answer('stopped');
      return noticeOf(target, backOff(cameraId, err));
    }
    backoffs.succeeded(cameraId);
    sessions.set(cameraId, session);
    log.info({ cameraId }, 'nest: live session started');
    // Addresses Google hands back are not user input: CAMERA_NETWORKS does not apply to them.
    await pull.play({ url: session.stream.rtspUrl });
    scheduleExtension(session);
    scheduleLinger(session);
    return answer(pull.status(), session.live);
  }

  function touch(session: Session): void {
    session.wantedAt = clock.now();
    if (session.pull.viewers() === 0) scheduleLinger(session);
  }

  const live: OnDemandLive = {
    async open(camera) {
      if (camera.connection_type !== 'nest' || !deps.enabled) return undefined;
      const cameraId = camera.camera_uuid;
      const target = await deps.target(cameraId);
      if (!target) {
        const gone = sessions.get(cameraId);
        if (gone) await end(gone, 'camera gone');
        return answer('stopped');
      }
      if (!target.rtsp) return undefined;
      if (target.isPrivate) {
        const running = sessions.get(cameraId);
        if (running) await end(running, 'private');
        return answer('private');
      }
      const running = sessions.get(cameraId);
      if (running) {
        touch(running);
        return answer(running.pull.status(), running.live);
      }
      const pending = starting.get(cameraId);
      if (pending) return pending;
      const backoff = backoffs.current(cameraId);
      if (backoff) return noticeOf(target, backoff);
      const started = start(cameraId, target).finally(() => starting.delete(cameraId));
      starting.set(cameraId, started);
      return started;
    },
    live: (cameraId) => sessions.get(cameraId)?.live,
  };

  return {
    live,
    /** After a user's cameras, privacy or link changed: sessions of a camera gone or private end. */
    async recheck(userId: string): Promise<void> {
      for (const session of [...sessions.values()]) {
        if (session.userId !== userId) continue;
        const target = await deps.target(session.cameraId);
        if (!target) await end(session, 'camera gone');
        else if (target.isPrivate) await end(session, 'private');
      }
    },
    /** The MSE viewers of a camera's session (tests). */
    viewers: (cameraId: string) => sessions.get(cameraId)?.pull.viewers() ?? 0,
    /** Sessions running now (tests, benches). */
    sessions: () => sessions.size,
    /** At shutdown: every session ends, Google's streams stopped (best effort). */
    async close(): Promise<void> {
      await Promise.all([...starting.values()].map((p) => p.catch(() => undefined)));
      await Promise.all([...sessions.values()].map((s) => end(s, 'shutdown')));
    },
  };
}
export type NestLive = ReturnType<typeof createNestLive>;
