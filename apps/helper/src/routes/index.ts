// The front door of the local API's routes: one factory per area, composed in helper.ts.
export { authRoutes } from './auth.routes.js';
export { cameraTestRoutes } from './camera-test.routes.js';
export { configureRoutes } from './configure.routes.js';
export { discoverRoutes, type DiscoverCameras, type ScanSettings } from './discover.routes.js';
export { statusRoutes } from './status.routes.js';
