import type { HelperStatus } from '@homesitter/contract';
import { sendJson, type Route } from '../http/index.js';
import type { SessionStatus } from '../session/index.js';

export interface StatusDeps {
  version: string;
  serverUrl: string;
  session: { status(): SessionStatus };
  bridgedCameras(): number;
}

/** `GET /status`: whether a helper runs here, which one, and whether it is signed in. */
export function statusRoutes(deps: StatusDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/status',
      handle: ({ res }) => {
        const session = deps.session.status();
        const status: HelperStatus = {
          app: 'homesitter-helper',
          version: deps.version,
          signed_in: session.signedIn,
          email: session.email,
          server_url: deps.serverUrl,
          bridged_cameras: deps.bridgedCameras(),
        };
        sendJson(res, 200, status);
      },
    },
  ];
}
