import { discoverCameras, localSubnets } from '@homesitter/cameras';
import { HELPER_CONNECTION_TIMEOUT_MS, HELPER_DISCOVERY_TIMEOUT_MS } from '@homesitter/contract';
import { createBridge, type RecordingOptions } from './bridge/index.js';
import { createCameraAccess, findMediaTools, missingMediaTools, type CameraAccess } from './cameras/index.js';
import type { HelperConfig } from './config.js';
import { openConfigDir } from './config-dir.js';
import { NATIVE_APP_ORIGINS, startLocalServer } from './http/index.js';
import { createJobs, createModeChooser } from './jobs/index.js';
import { createLogger, type Logger } from './logger.js';
import {
  authRoutes,
  cameraTestRoutes,
  configureRoutes,
  discoverRoutes,
  statusRoutes,
  type DiscoverCameras,
  type ScanSettings,
} from './routes/index.js';
import { createAuthApi, createServerApi, type Fetch } from './server-api/index.js';
import { createSession, createSessionStore } from './session/index.js';
import { HELPER_VERSION } from './version.js';

export interface StartHelperOptions {
  config: HelperConfig;
  log?: Logger;
  // Seams for tests; the real ones are used when absent.
  fetch?: Fetch;
  discover?: DiscoverCameras;
  localSubnets?: () => string[];
  cameras?: CameraAccess;
  recording?: RecordingOptions;
  spoolMaxBytes?: number;
  /** Between two looks at a camera the server configures (default 1 s). */
  pollIntervalMs?: number;
}

export interface RunningHelper {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops everything: the local API, the jobs, the bridge (each clip being recorded is finished and spooled). */
  stop(): Promise<void>;
}

/**
 * The composition root: builds the helper's parts from the configuration, top to bottom, and starts the
 * local API on 127.0.0.1.
 */
export async function startHelper(options: StartHelperOptions): Promise<RunningHelper> {
  const { config } = options;
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const fetchFn = options.fetch ?? fetch;
  const serverUrl = config.HOMESITTER_URL;
  const configDir = await openConfigDir(config.HELPER_CONFIG_DIR, log);
  const tools = findMediaTools({ ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH });
  log.debug({ ffmpeg: tools.ffmpegPath, ffprobe: tools.ffprobePath }, 'media tools');
  for (const tool of missingMediaTools(tools)) {
    log.warn(
      { tool },
      'not found: cameras cannot be tested or recorded (put it beside the helper, on PATH, or set FFMPEG_PATH / FFPROBE_PATH)',
    );
  }

  const session = createSession({
    authApi: createAuthApi({ baseUrl: serverUrl, fetch: fetchFn }),
    store: createSessionStore(configDir),
    serverUrl,
    log: log.child({ part: 'session' }),
  });
  const serverApi = createServerApi({ baseUrl: serverUrl, fetch: fetchFn, tokens: session });
  const cameras = options.cameras ?? createCameraAccess({ tools, timeoutMs: HELPER_CONNECTION_TIMEOUT_MS });
  const bridge = createBridge({
    serverUrl,
    version: HELPER_VERSION,
    configDir,
    session,
    serverApi,
    ffmpegPath: tools.ffmpegPath,
    log: log.child({ part: 'bridge' }),
    ...(options.recording && { recording: options.recording }),
    ...(options.spoolMaxBytes !== undefined && { spoolMaxBytes: options.spoolMaxBytes }),
  });
  const jobs = createJobs({
    chooseMode: createModeChooser(config.HELPER_BRIDGE, serverUrl),
    serverApi,
    cameras,
    bridge,
    pollIntervalMs: options.pollIntervalMs ?? 1_000,
    serverDeadlineMs: 2 * HELPER_CONNECTION_TIMEOUT_MS,
    connectionTimeoutMs: HELPER_CONNECTION_TIMEOUT_MS,
    log: log.child({ part: 'jobs' }),
  });

  await bridge.start();
  await session.resume();

  let helperUrl = '';
  let server: Awaited<ReturnType<typeof startLocalServer>>;
  try {
    server = await startLocalServer({
      port: config.HELPER_PORT,
      allowedOrigins: [new URL(serverUrl).origin, ...NATIVE_APP_ORIGINS, ...config.HELPER_ALLOWED_ORIGINS],
      log: log.child({ part: 'http' }),
      routes: [
        ...statusRoutes({
          version: HELPER_VERSION,
          serverUrl,
          session,
          bridgedCameras: () => bridge.count(),
        }),
        ...authRoutes({
          serverUrl,
          session,
          helperUrl: () => helperUrl,
          stopBridging: () => bridge.pause(),
          log,
        }),
        ...discoverRoutes({
          discover: options.discover ?? discoverCameras,
          localSubnets: options.localSubnets ?? localSubnets,
          scan: scanSettings(config),
          timeoutMs: HELPER_DISCOVERY_TIMEOUT_MS,
          log: log.child({ part: 'discovery' }),
        }),
        ...cameraTestRoutes({
          cameras,
          timeoutMs: HELPER_CONNECTION_TIMEOUT_MS,
          log: log.child({ part: 'test' }),
        }),
        ...configureRoutes({ jobs, signedIn: () => session.status().signedIn }),
      ],
    });
  } catch (err) {
    session.stop();
    await bridge.stop();
    throw err;
  }
  helperUrl = server.url;

  return {
    url: server.url,
    port: server.port,
    async stop() {
      await server.close();
      await jobs.stop();
      await bridge.stop();
      session.stop();
    },
  };
}

/** The scan's reach from the settings: an unset list keeps the scanner's own default. */
function scanSettings(config: HelperConfig): ScanSettings {
  const some = (list: string[] | number[]) => (list.length > 0 ? list : undefined);
  return {
    wsDiscovery: {
      port: config.HELPER_DISCOVERY_PORT,
      ...(some(config.HELPER_DISCOVERY_INTERFACES) && { interfaces: config.HELPER_DISCOVERY_INTERFACES }),
    },
    portScan: {
      ...(some(config.HELPER_SCAN_SUBNETS) && { subnets: config.HELPER_SCAN_SUBNETS }),
      ...(some(config.HELPER_SCAN_RTSP_PORTS) && { rtspPorts: config.HELPER_SCAN_RTSP_PORTS }),
      ...(some(config.HELPER_SCAN_HTTP_PORTS) && { httpPorts: config.HELPER_SCAN_HTTP_PORTS }),
    },
  };
}
