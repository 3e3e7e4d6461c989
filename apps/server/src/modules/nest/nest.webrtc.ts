import { randomBytes } from 'node:crypto';
import type { WebRtcSession } from '@homesitter/contract';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { NestCameras } from '../cameras/cameras.module.js';
import { nestErrors } from './nest.errors.js';
import { NestGrantError, NestProviderError } from './nest.google.js';
import type { NestRepository } from './nest.repository.js';

/**
 * A Nest camera's WebRTC live view (docs/nest.md "WebRTC live view"): the browser's offer is passed to Google
 * (`GenerateWebRtcStream`) and Google's answer back, so the browser plays the camera directly. Google's
 * `mediaSessionId` stays here, bound to the user and the camera; the browser holds only our session id.
 * https://developers.google.com/nest/device-access/traits/device/camera-live-stream
 */

/** Without a Retry-After from Google: how long a camera Google limited is left alone (about 5 commands a minute). */
const DEFAULT_BACKOFF_S = 30;
const MAX_BACKOFF_S = 300;
const REQUEST_TIMEOUT_MS = 15_000;
/** How long an ended session is remembered (see sweep). */
const FORGET_AFTER_MS = 10 * 60_000;

export const webrtcErrors = {
  notWebRtc: () =>
    new AppError(
      409,
      'live.not_webrtc',
      'This camera does not stream over WebRTC; its live view is opened the usual way',
    ),
  // The same words as the live player's private mode, so the viewer reads one sentence for one state.
  private: () => new AppError(409, 'live.private', 'Private mode is on: nothing is recorded or shown'),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'live.rate_limited',
      `Google is limiting this camera's live view for a moment; it is tried again in ${retryAfterSeconds} seconds`,
      { retryAfterSeconds },
    ),
  newOffer: () =>
    new AppError(
      409,
      'live.webrtc_new_offer',
      'This stream cannot be extended (a battery camera, or the stream ended); make a new offer',
    ),
  notFound: () =>
    new AppError(404, 'live.webrtc_session_not_found', 'This live stream was not found; it may have ended'),
  provider: (reason: string) =>
    new AppError(502, 'nest.provider_failed', `Google did not start the live view: ${reason}`),
};

/** The three WebRTC commands of `CameraLiveStream`, with the owner's access token. */
export function createWebRtcCommands(config: { apiUrl: string; fetch?: typeof fetch }) {
  const fetchFn = config.fetch ?? fetch;
  const apiUrl = config.apiUrl.replace(/\/+$/, '');

  async function command(token: string, deviceName: string, name: string, params: Record<string, string>) {
    let res: Response;
    try {
      res = await fetchFn(`${apiUrl}/${deviceName}:executeCommand`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ command: `sdm.devices.commands.CameraLiveStream.${name}`, params }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new NestProviderError(`Google not reachable: ${(err as Error).message}`, null);
    }
    if (!res.ok) {
      const retry = Number(res.headers.get('retry-after'));
      throw new NestProviderError(
        `${name} answered ${res.status}`,
        res.status,
        Number.isFinite(retry) && retry > 0 ? retry : null,
      );
    }
    return ((await res.json()) as { results?: Record<string, unknown> }).results ?? {};
  }

  const text = (v: unknown, what: string) => {
    if (typeof v !== 'string' || !v) throw new NestProviderError(`Google answered no ${what}`, null);
    return v;
  };

  return {
    async generate(token: string, deviceName: string, offerSdp: string) {
      const r = await command(token, deviceName, 'GenerateWebRtcStream', { offerSdp });
      return {
        answerSdp: text(r.answerSdp, 'answer'),
        mediaSessionId: text(r.mediaSessionId, 'media session'),
        expiresAt: new Date(text(r.expiresAt, 'expiry')),
      };
    },
    async extend(token: string, deviceName: string, mediaSessionId: string) {
      const r = await command(token, deviceName, 'ExtendWebRtcStream', { mediaSessionId });
      return {
        // Google may hand out a new media session id with the extension; the next call uses that one.
        mediaSessionId:
          typeof r.mediaSessionId === 'string' && r.mediaSessionId ? r.mediaSessionId : mediaSessionId,
        expiresAt: new Date(text(r.expiresAt, 'expiry')),
      };
    },
    async stop(token: string, deviceName: string, mediaSessionId: string): Promise<void> {
      await command(token, deviceName, 'StopWebRtcStream', { mediaSessionId });
    },
  };
}
export type WebRtcCommands = ReturnType<typeof createWebRtcCommands>;

interface Session {
  id: string;
  userId: string;
  cameraId: string;
  deviceName: string;
  mediaSessionId: string;
  expiresAt: Date;
}

export interface NestWebRtcDeps {
  repo: Pick<NestRepository, 'deviceOfCamera'>;
  /** Null when this server is not set up for Nest. */
  commands: WebRtcCommands | null;
  cameras: Pick<NestCameras, 'ofUser'>;
  /** The owner's SDM access token (a lost grant is handled there and thrown as NestGrantError). */
  token: (userId: string) => Promise<string>;
  log: Logger;
  now?: () => Date;
}

/**
 * The WebRTC streams being watched, per user and camera, and the cameras Google is limiting now. A session
 * the browser does not extend simply expires (a closing page cannot always say DELETE); the rest are stopped
 * at Google when the browser leaves and, best effort, when the server shuts down.
 */
export function createNestWebRtc(deps: NestWebRtcDeps) {
  const { repo, commands, cameras, log } = deps;
  const now = deps.now ?? (() => new Date());
  const sessions = new Map<string, Session>();
  /** Per camera: until when Google's rate limit is respected without asking it again. */
  const backoff = new Map<string, number>();
  /** Cameras that refused an extension (battery ones): their streams are generated again instead. */
  const cannotExtend = new Set<string>();

  /**
   * Sessions long past their end are forgotten (Google ended them itself); a recently ended one is kept a
   * while so that its late extension is told to make a new offer rather than that it never existed.
   */
  function sweep(): void {
    const before = now().getTime() - FORGET_AFTER_MS;
    for (const [id, s] of sessions) if (s.expiresAt.getTime() <= before) sessions.delete(id);
  }
  const ended = (session: Session) => session.expiresAt.getTime() <= now().getTime();

  function checkBackoff(cameraId: string): void {
    const until = backoff.get(cameraId);
    if (until === undefined) return;
    const left = Math.ceil((until - now().getTime()) / 1000);
    if (left > 0) throw webrtcErrors.rateLimited(left);
    backoff.delete(cameraId);
  }

  /** Google's refusal, as the viewer should hear it; a 429 starts the camera's back-off. */
  function refusal(err: unknown, cameraId: string): Error {
    if (err instanceof NestGrantError) return nestErrors.notLinked();
    if (err instanceof NestProviderError && err.status === 429) {
      const said = err.retryAfterS;
      const seconds = Math.min(MAX_BACKOFF_S, said ?? DEFAULT_BACKOFF_S);
      backoff.set(cameraId, now().getTime() + seconds * 1000);
      return webrtcErrors.rateLimited(seconds);
    }
    if (err instanceof AppError) return err;
    return webrtcErrors.provider((err as Error).message);
  }

  /** The caller's Nest camera that streams over WebRTC (the camera id comes from the owner's own lookup). */
  async function webrtcDevice(userId: string, cameraId: string) {
    const device = await repo.deviceOfCamera(cameraId);
    if (!device || device.userId !== userId || !device.protocols.includes('WEB_RTC'))
      throw webrtcErrors.notWebRtc();
    // A Nest camera left from when this server was set up for Nest (NEST_* since removed).
    if (!commands) throw nestErrors.notConfigured();
    return { device, commands };
  }

  function ownSession(userId: string, cameraId: string, sessionId: string): Session {
    sweep();
    const session = sessions.get(sessionId);
    if (!session || session.userId !== userId || session.cameraId !== cameraId) throw webrtcErrors.notFound();
    return session;
  }

  async function stopAtGoogle(session: Session): Promise<void> {
    if (!commands) return;
    try {
      await commands.stop(await deps.token(session.userId), session.deviceName, session.mediaSessionId);
    } catch (err) {
      log.warn(
        { cameraId: session.cameraId, err: (err as Error).message },
        'nest: stopping a WebRTC stream failed',
      );
    }
  }

  return {
    /** Whether a camera plays only over WebRTC (GET /live answers `mode: webrtc` for it). */
    async webrtcOnly(cameraId: string): Promise<boolean> {
      const device = await repo.deviceOfCamera(cameraId);
      return (
        device !== undefined && device.protocols.includes('WEB_RTC') && !device.protocols.includes('RTSP')
      );
    },

    async start(userId: string, cameraId: string, offerSdp: string): Promise<WebRtcSession> {
      const { device, commands: google } = await webrtcDevice(userId, cameraId);
      const camera = (await cameras.ofUser(userId)).find((c) => c.id === cameraId);
      if (!camera) throw webrtcErrors.notWebRtc();
      if (camera.isPrivate) throw webrtcErrors.private();
      checkBackoff(cameraId);
      let stream;
      try {
        stream = await google.generate(await deps.token(userId), device.deviceName, offerSdp);
      } catch (err) {
        throw refusal(err, cameraId);
      }
      sweep();
      const session: Session = {
        id: randomBytes(16).toString('base64url'),
        userId,
        cameraId,
        deviceName: device.deviceName,
        mediaSessionId: stream.mediaSessionId,
        expiresAt: stream.expiresAt,
      };
      sessions.set(session.id, session);
      return {
        session_id: session.id,
        answer_sdp: stream.answerSdp,
        expires_at: stream.expiresAt.toISOString(),
        extendable: !cannotExtend.has(cameraId),
      };
    },

    /** Another 5 minutes, or 409: a battery camera, or a stream that ended; the player makes a new offer. */
    async extend(userId: string, cameraId: string, sessionId: string): Promise<{ expires_at: string }> {
      const { commands: google } = await webrtcDevice(userId, cameraId);
      const session = ownSession(userId, cameraId, sessionId);
      if (ended(session)) {
        sessions.delete(sessionId);
        throw webrtcErrors.newOffer();
      }
      if (cannotExtend.has(cameraId)) throw webrtcErrors.newOffer();
      checkBackoff(cameraId);
      try {
        const next = await google.extend(
          await deps.token(userId),
          session.deviceName,
          session.mediaSessionId,
        );
        session.mediaSessionId = next.mediaSessionId;
        session.expiresAt = next.expiresAt;
        return { expires_at: next.expiresAt.toISOString() };
      } catch (err) {
        if (
          err instanceof NestProviderError &&
          err.status !== null &&
          err.status >= 400 &&
          err.status < 500
        ) {
          if (err.status !== 429) {
            // Google refuses to extend a battery camera's stream: remembered, so its next streams say so.
            cannotExtend.add(cameraId);
            sessions.delete(sessionId);
            throw webrtcErrors.newOffer();
          }
        }
        throw refusal(err, cameraId);
      }
    },

    async stop(userId: string, cameraId: string, sessionId: string): Promise<void> {
      const session = ownSession(userId, cameraId, sessionId);
      sessions.delete(session.id);
      if (!ended(session)) await stopAtGoogle(session);
    },

    /** Shutdown: every stream still open is stopped at Google (best effort, in parallel). */
    async close(): Promise<void> {
      const open = [...sessions.values()].filter((s) => !ended(s));
      sessions.clear();
      await Promise.all(open.map(stopAtGoogle));
    },

    /** How many streams are open now (tests). */
    openSessions: () => [...sessions.values()].filter((s) => !ended(s)).length,
  };
}
export type NestWebRtc = ReturnType<typeof createNestWebRtc>;
