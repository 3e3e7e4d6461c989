// The front door of the bridge: the cameras this helper records and relays for the server.
export {
  createBridge,
  type Bridge,
  type BridgeOptions,
  type CameraState,
  type ConfigurationReport,
  type NewBridgedCamera,
} from './bridge.js';
export type { RecordingOptions } from './bridged-camera.js';
