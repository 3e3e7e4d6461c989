/**
 * Test peers for stream-camera code: an RTSP server, an ffmpeg scene publisher and an ONVIF device simulator.
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
  fixturesDir,
  mainAndSub,
  publishScene,
  type PublishOptions,
  type Publication,
  type Scene,
} from './publisher.js';
export {
  startOnvifSimulator,
  type OnvifSimulator,
  type OnvifSimulatorOptions,
  type SimulatedProfile,
  type SimulatorRequest,
} from './onvif-simulator.js';
