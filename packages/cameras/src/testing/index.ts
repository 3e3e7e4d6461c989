/**
 * Test peers for stream-camera code: an RTSP server, an ffmpeg scene publisher, an ONVIF device simulator, a
 * WS-Discovery responder, and a network of simulated cameras made of them (discovery tests and bench).
 * Only tests import this (`@homesitter/cameras/testing`).
 */
export {
  startRtspServer,
  type RtspServerOptions,
  type RtspServerStats,
  type RtspTestServer,
} from './rtsp-server.js';
export {
  decodeClock,
  mainAndSub,
  publishScene,
  type PublishOptions,
  type Publication,
  type Scene,
} from './publisher.js';
export { testMedia, testMediaDir } from './media.js';
export {
  startOnvifSimulator,
  type OnvifSimulator,
  type OnvifSimulatorOptions,
  type SimulatedProfile,
  type SimulatorRequest,
} from './onvif-simulator.js';
export {
  CAMERA_TYPES,
  probeMatchesXml,
  startWsDiscoveryResponder,
  type WsDiscoveryResponder,
  type WsDiscoveryResponderOptions,
} from './ws-discovery-responder.js';
export {
  SIMULATED_MANUFACTURER,
  SIMULATED_MODEL,
  startSimulatedCameras,
  type SimulatedCamera,
  type SimulatedCameras,
  type SimulatedCamerasOptions,
} from './simulated-cameras.js';
