import { endpoints } from '@homesitter/contract';
import type { FastifyInstance } from 'fastify';
import { callerOf, route, type AccessGuards } from '../../platform/http/route.js';
import { sendSerialized } from '../../platform/http/serialized.js';
import type { CamerasService } from './cameras.service.js';
import type { UploadCredentialsService } from './upload-credentials.service.js';

const ok = <T>(data: T) => ({ success: true as const, data });

/** docs/product.md §7 "Cameras": thin handlers, rules in CamerasService and UploadCredentialsService. */
export function registerCameraRoutes(
  app: FastifyInstance,
  deps: { cameras: CamerasService; uploadCredentials: UploadCredentialsService; guards: AccessGuards },
): void {
  const { cameras, uploadCredentials, guards } = deps;

  route(app, guards, endpoints.listCameras, async (req, reply) =>
    sendSerialized(endpoints.listCameras, req, reply, await cameras.listJson(callerOf(req).subject)),
  );

  route(app, guards, endpoints.addCamera, async (req) =>
    ok(await cameras.add(callerOf(req).subject, req.body)),
  );

  route(app, guards, endpoints.getCamera, async (req) =>
    ok(await cameras.get(callerOf(req).subject, req.params.name)),
  );

  route(app, guards, endpoints.configureCamera, async (req) =>
    ok(await cameras.configure(callerOf(req).subject, req.params.name)),
  );

  route(app, guards, endpoints.updateCamera, async (req) => {
    const { name, ...changes } = req.body;
    return ok(await cameras.update(callerOf(req).subject, name, changes));
  });

  route(app, guards, endpoints.updateCameraSettings, async (req) => ({
    success: true as const,
    message: 'Camera settings updated',
    data: await cameras.update(callerOf(req).subject, req.params.name, { settings: req.body }),
  }));

  route(app, guards, endpoints.renameCamera, async (req) =>
    ok(await cameras.rename(callerOf(req).subject, req.body.current_name, req.body.new_name)),
  );

  route(app, guards, endpoints.associateCameraSite, async (req) =>
    ok(await cameras.associateSite(callerOf(req).subject, req.body.camera_name, req.body.site_uuid)),
  );

  route(app, guards, endpoints.getCameraUploadCredentials, async (req) =>
    ok(await uploadCredentials.get(callerOf(req).subject)),
  );

  route(app, guards, endpoints.regenerateCameraUploadCredentials, async (req) =>
    ok(await uploadCredentials.regenerate(callerOf(req).subject)),
  );
}
