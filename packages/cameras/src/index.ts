// The front door of the stream-camera code (DESIGN.md: packages/cameras), for the server and the helper.
export * from './types.js';
export {
  createNetworkPolicy,
  parseCameraNetworks,
  hostAddresses,
  DEFAULT_CAMERA_NETWORKS,
  DEFAULT_SERVER_CAMERA_NETWORKS,
} from './networks.js';
export { configureCamera } from './configure.js';
export { addressWithoutLogin } from './address.js';
export { createCameraSupervisor, type CameraSupervisor } from './supervisor.js';
export { createOnvifMotionEvents } from './onvif.js';
export { createMp4Reader, inspectFragment, parseInit, Mp4Error, type InitSegment } from './mp4.js';
export { createFragmentBuffer, type FragmentBuffer } from './fragment-buffer.js';
export { createLiveHub, type LiveHub, type LiveViewer } from './live-hub.js';
export { createHls, type Hls } from './hls.js';
export { createStreamPull, type StreamPull } from './stream-pull.js';
export {
  discoverCameras,
  NOT_A_CAMERA_REASON,
  NO_VIDEO_SERVICE_REASON,
  type DiscoverOptions,
  type DiscoveryResult,
} from './discovery/discover.js';
export { localSubnets } from './discovery/subnets.js';
export { createNodeTransport } from './transport/node-transport.js';
