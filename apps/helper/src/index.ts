// The helper as a library: what main.ts runs, for tests elsewhere (the server's end-to-end bridge test, the
// browser suite) that start a real helper in their own process.
export { startHelper, type RunningHelper, type StartHelperOptions } from './helper.js';
export { loadConfig, type HelperConfig } from './config.js';
