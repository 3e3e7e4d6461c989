import { randomBytes } from 'node:crypto';
import type { WebRtcSession } from '@homesitter/contract';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { NestCameras } from '../cameras/cameras.module.js';
import { nestErrors } from './nest.errors.js';
import { createLiveBackoffs, type LiveBackoffs } from './nest.backoff.js';
import { NestGrantError, NestProviderError, type WebRtcStream } from './nest.google.js';
import type { NestRepository } from './nest.repository.js';

/**
 * A Nest camera's WebRTC live view (docs/nest.md "WebRTC live view"): the browser's offer is passed to Google
 * (`GenerateWebRtcStream`) and Google's answer back, so the browser plays the camera directly. Google's
 * `mediaSessionId` stays here, bound to the user and the camera; the browser holds only our session id.
 * https://developers.google.com/nest/device-access/traits/device/camera-live-stream
 */

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

interface Session {
  id: string;
  userId: string;
  cameraId: string;
  deviceName: string;
  mediaSessionId: string;
  expiresAt: Date;
}

/** Google's three WebRTC commands of `CameraLiveStream`, with the owner's token (nest.service.ts). */
export interface WebRtcCommands {
  generate(userId: string, deviceName: string, offerSdp: string): Promise<WebRtcStream>;
  extend(
    userId: string,
    deviceName: string,
    mediaSessionId: string,
  ): Promise<Omit<WebRtcStream, 'answerSdp'>>;
  stop(userId: string, deviceName: string, mediaSessionId: string): Promise<void>;
}

export interface NestWebRtcDeps {
  repo: Pick<NestRepository, 'deviceOfCamera'>;
  /** Null when this server is not set up for Nest. A lost grant is handled there and thrown as NestGrantError. */
  commands: WebRtcCommands | null;
  cameras: Pick<NestCameras, 'ofUser'>;
  log: Logger;
  now?: () => Date;
  /** The cameras' back-off after Google refused a stream (shared with the RTSP view; its own when absent). */
  backoffs?: LiveBackoffs;
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
  const backoffs = deps.backoffs ?? createLiveBackoffs(() => now().getTime());
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
    const backoff = backoffs.current(cameraId);
    if (backoff) throw webrtcErrors.rateLimited(backoffs.secondsLeft(backoff));
  }

  /** Google's refusal, as the viewer should hear it; a 429 starts the camera's back-off. */
  function refusal(err: unknown, cameraId: string): Error {
    if (err instanceof NestGrantError) return nestErrors.notLinked();
    if (err instanceof NestProviderError && err.status === 429) {
      const backoff = backoffs.refused(cameraId, err);
      log.warn({ cameraId, retryInMs: backoff.delayMs }, 'nest: WebRTC stream refused (429); backing off');
      return webrtcErrors.rateLimited(backoffs.secondsLeft(backoff));
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
      await commands.stop(session.userId, session.deviceName, session.mediaSessionId);
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
        stream = await google.generate(userId, device.deviceName, offerSdp);
      } catch (err) {
        throw refusal(err, cameraId);
      }
      backoffs.succeeded(cameraId);
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
        const next = await google.extend(userId, session.deviceName, session.mediaSessionId);
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
