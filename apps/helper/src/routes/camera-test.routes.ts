import { helperCameraTestRequestSchema } from '@homesitter/contract';
import { testCamera, type CameraAccess } from '../cameras/index.js';
import { readJsonBody, sendJson, type Route } from '../http/index.js';
import type { Logger } from '../logger.js';

export interface CameraTestDeps {
  cameras: CameraAccess;
  timeoutMs: number;
  log: Logger;
}

/** `POST /cameras/test`: works signed out (the public camera test page); sends nothing to the server. */
export function cameraTestRoutes(deps: CameraTestDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/cameras/test',
      handle: async ({ req, res, signal }) => {
        const { connection } = await readJsonBody(req, helperCameraTestRequestSchema);
        const result = await testCamera(deps.cameras, connection, {
          signal,
          log: deps.log,
          timeoutMs: deps.timeoutMs,
        });
        sendJson(res, 200, result);
      },
    },
  ];
}
