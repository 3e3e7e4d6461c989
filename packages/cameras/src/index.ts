// The front door of the stream-camera code (DESIGN.md: packages/cameras), for the server and the helper.
export * from './types.js';
export { createNetworkPolicy, parseCameraNetworks, DEFAULT_CAMERA_NETWORKS } from './networks.js';
export { configureCamera } from './configure.js';
export { createCameraSupervisor, type CameraSupervisor } from './supervisor.js';
export { createOnvifMotionEvents } from './onvif.js';
