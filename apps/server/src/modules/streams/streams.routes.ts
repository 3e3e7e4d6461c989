import { endpoints, LIVE_URL_TTL_S, type CameraLive } from '@homesitter/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roundedExpiry } from '../../adapters/storage/storage.js';
import { AppError } from '../../platform/errors.js';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { MediaApi } from '../media/media.module.js';
import type { LivePipe, OnDemandLive } from './streams.pipe.js';

/** Live-view media paths: signed with the media key, like `/media`, and checked before anything is sent. */
export const LIVE_PATH = '/api/live';

const liveKey = (cameraId: string) => `live/${cameraId}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const liveErrors = {
  invalid: () => new AppError(403, 'live.signature_invalid', 'This live view link is not valid'),
  expired: () =>
    new AppError(403, 'live.signature_expired', 'This live view link has expired; open the camera again'),
  notStreaming: () =>
    new AppError(404, 'live.not_streaming', 'The camera is not streaming right now', { generic: true }),
};

interface LiveParams {
  cameraId: string;
}
interface SignedQuery {
  exp?: string;
  sig?: string;
}

/**
 * `GET /api/users/cameras/:name/live` (the player's URLs) and the media it points at: a WebSocket of fMP4
 * fragments for Media Source Extensions, and an HLS playlist with its init segment and segments. One pull
 * per camera serves every viewer (streams.supervision.ts); a camera the desktop helper bridges is served the
 * same way from what its helper relays.
 */
export function registerStreamRoutes(
  app: FastifyInstance,
  deps: {
    cameras: Pick<CamerasApi, 'get'>;
    /** The live side of a camera being pulled or relayed now, or undefined (offline: snapshot only). */
    live: (cameraId: string) => LivePipe | undefined;
    /** Cameras whose live session starts when a viewer asks (Nest). */
    onDemand?: OnDemandLive;
    signer: MediaApi['signer'];
    guards: AccessGuards;
    /** Whether a camera plays only over WebRTC in the browser (a Nest module's answer): `mode: webrtc`. */
    webrtcOnly?: (cameraId: string) => Promise<boolean>;
  },
): void {
  const { live, signer } = deps;

  route(app, deps.guards, endpoints.getCameraLive, async (req) => {
    const camera = await deps.cameras.get(callerOf(req).subject, req.params.name);
    const exp = roundedExpiry(LIVE_URL_TTL_S);
    const base: CameraLive = {
      camera_name: camera.name,
      connection_type: camera.connection_type,
      mode: camera.connection_type === 'upload' ? 'snapshot' : 'stream',
      stream_status: camera.stream_status,
      mse_url: null,
      hls_url: null,
      mime_type: null,
      has_audio: camera.connection?.has_audio ?? false,
      snapshot_url: camera.snapshot_url,
      snapshot_date_time_utc: camera.snapshot_date_time_utc,
      expires_at: new Date(exp * 1000).toISOString(),
      notice: null,
      retry_after_s: null,
    };
    if (base.mode === 'stream' && (await deps.webrtcOnly?.(camera.camera_uuid))) {
      // The browser sends its offer through POST …/live/webrtc; nothing of the camera passes through here.
      base.mode = 'webrtc';
      base.stream_status = camera.settings.is_private_mode_enabled ? 'private' : null;
    }
    const demand = base.mode === 'stream' ? await deps.onDemand?.open(camera) : undefined;
    if (demand) {
      base.stream_status = demand.streamStatus;
      base.notice = demand.notice;
      base.retry_after_s = demand.retryAfterS;
    }
    const pipe = demand
      ? (demand.live ?? undefined)
      : base.mode === 'stream'
        ? live(camera.camera_uuid)
        : undefined;
    if (pipe) {
      const query = signer.query(liveKey(camera.camera_uuid), exp);
      base.mse_url = `${LIVE_PATH}/${camera.camera_uuid}/mse?${query}`;
      base.hls_url = `${LIVE_PATH}/${camera.camera_uuid}/index.m3u8?${query}`;
      base.mime_type = pipe.mimeType();
    }
    return { success: true as const, data: base };
  });

  /** The signed camera id of a live request; throws 403 before any byte of the stream is sent. */
  function checked(req: FastifyRequest): string {
    const { cameraId } = req.params as LiveParams;
    const { exp, sig } = req.query as SignedQuery;
    if (!UUID.test(cameraId)) throw liveErrors.invalid();
    const verdict = signer.check(liveKey(cameraId), exp, sig);
    if (verdict === 'expired') throw liveErrors.expired();
    if (verdict !== 'valid') throw liveErrors.invalid();
    return cameraId;
  }

  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get(
    `${LIVE_PATH}/:cameraId/mse`,
    {
      websocket: true,
      schema: { hide: true },
      // Before the upgrade: a bad signature is a 403 answer, and no socket is opened.
      preHandler: async (req) => void checked(req),
    },
    (socket, req) => {
      const pipe = live((req.params as LiveParams).cameraId);
      if (!pipe) {
        socket.send(JSON.stringify({ type: 'status', stream_status: 'stopped' }));
        socket.close(1000, 'not streaming');
        return;
      }
      const leave = pipe.join({
        send: (data) => socket.send(data),
        bufferedAmount: () => socket.bufferedAmount,
        close: () => socket.close(1001, 'stream ended'),
      });
      socket.on('close', leave);
      // The player sends nothing; anything it does send is ignored.
      socket.on('message', () => undefined);
    },
  );

  app.get(`${LIVE_PATH}/:cameraId/index.m3u8`, { schema: { hide: true } }, async (req, reply) => {
    const cameraId = checked(req);
    const { exp, sig } = req.query as SignedQuery;
    const playlist = live(cameraId)?.hls.playlist(`exp=${exp}&sig=${sig}`);
    if (!playlist) throw liveErrors.notStreaming();
    noStore(reply).type('application/vnd.apple.mpegurl');
    return playlist;
  });

  // The playlist's files: `init-<map>.mp4` (a new one after each reconnect) and `segment-<n>.m4s`.
  app.get(`${LIVE_PATH}/:cameraId/:file`, { schema: { hide: true } }, async (req, reply) => {
    const cameraId = checked(req);
    const file = (req.params as { file: string }).file;
    const hls = live(cameraId)?.hls;
    const init = /^init-(\d{1,9})\.mp4$/.exec(file);
    const segment = /^segment-(\d{1,12})\.m4s$/.exec(file);
    const bytes = init ? hls?.init(Number(init[1])) : segment ? hls?.segment(Number(segment[1])) : undefined;
    if (!bytes) throw liveErrors.notStreaming();
    // A file's bytes never change: it may be cached for as long as its link lives.
    reply.header('cache-control', 'private, max-age=60').type(init ? 'video/mp4' : 'video/iso.segment');
    return bytes;
  });
}
