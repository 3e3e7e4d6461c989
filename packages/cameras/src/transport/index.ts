/**
 * The phone app's camera discovery (docs/mobile.md): discovery and the camera test over a `CameraTransport`,
 * free of Node, so the web app bundles it (`@homesitter/cameras/transport`) and runs it on the native plugin.
 * The Node transport is in the package's main front door (`createNodeTransport`).
 */
export * from './transport.js';
export {
  discoverOverTransport,
  PHONE_HTTP_PORTS,
  PHONE_RTSP_PORTS,
  type TransportDiscoverOptions,
  type TransportDiscoveryResult,
} from './discover.js';
export { checkCameraOverTransport, type CameraCheckOptions } from './camera-check.js';
