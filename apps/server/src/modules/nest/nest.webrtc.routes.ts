import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import type { CamerasApi } from '../cameras/cameras.module.js';
import type { UsersApi } from '../users/users.module.js';
import type { NestWebRtc } from './nest.webrtc.js';

/** `POST|DELETE /api/users/cameras/:name/live/webrtc…`: a Nest camera's WebRTC offer, extension and stop. */
export function registerNestWebRtcRoutes(
  app: FastifyInstance,
  deps: {
    webrtc: NestWebRtc;
    users: Pick<UsersApi, 'requireIdBySubject'>;
    cameras: Pick<CamerasApi, 'get'>;
    guards: AccessGuards;
  },
): void {
  const { webrtc, guards } = deps;
  // The owner's camera by name: another user's camera is a 404 before anything else is looked at.
  const ownCamera = async (req: Parameters<typeof callerOf>[0], name: string) => {
    const { subject } = callerOf(req);
    const camera = await deps.cameras.get(subject, name);
    return { userId: await deps.users.requireIdBySubject(subject), cameraId: camera.camera_uuid };
  };

  route(app, guards, endpoints.startCameraWebRtc, async (req) => {
    const { userId, cameraId } = await ownCamera(req, req.params.name);
    return { success: true as const, data: await webrtc.start(userId, cameraId, req.body.offer_sdp) };
  });

  route(app, guards, endpoints.extendCameraWebRtc, async (req) => {
    const { userId, cameraId } = await ownCamera(req, req.params.name);
    return { success: true as const, data: await webrtc.extend(userId, cameraId, req.params.sessionId) };
  });

  route(app, guards, endpoints.stopCameraWebRtc, async (req) => {
    const { userId, cameraId } = await ownCamera(req, req.params.name);
    await webrtc.stop(userId, cameraId, req.params.sessionId);
    return { success: true as const };
  });
}
