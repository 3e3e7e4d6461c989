// The front door of the configuration jobs.
export { createJobs, type ConfigureCameras, type Jobs } from './jobs.js';
export { createModeChooser, type CameraMode } from './mode.js';
