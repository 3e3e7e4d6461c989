import type {
  DiscoveredDevice,
  DiscoveryEvent,
  HelperCameraTestResult,
  HelperJob,
  HelperStatus,
  StreamConnectionInput,
} from '@homesitter/contract';

/**
 * A desktop helper for component tests, as a `fetch` for http://127.0.0.1:17429: `vi.stubGlobal('fetch',
 * helper.fetch)`. Tests switch it off, block it (CORS or everything), push discovery events into the open
 * scan, and move jobs along. Requests to other origins go to `otherFetch` (404 unless given).
 */

export const HELPER = 'http://127.0.0.1:17429';

export function helperStatus(over: Partial<HelperStatus> = {}): HelperStatus {
  return {
    app: 'homesitter-helper',
    version: '1.0.0',
    signed_in: true,
    email: 'sam@example.com',
    server_url: 'http://localhost:8080',
    bridged_cameras: 0,
    ...over,
  };
}

export function device(over: Partial<DiscoveredDevice> & { address: string }): DiscoveredDevice {
  return {
    id: over.address,
    mac: null,
    manufacturer: null,
    model: null,
    name: null,
    onvif: { port: 80, xaddr: `http://${over.address}/onvif/device_service` },
    rtsp: { port: 554, url: `rtsp://${over.address}:554/` },
    needs_credentials: true,
    supported: true,
    unsupported_reason: null,
    unsupported_code: null,
    found_by: ['ws-discovery'],
    ...over,
  };
}

export function testResult(over: Partial<HelperCameraTestResult> = {}): HelperCameraTestResult {
  return {
    verdict: 'works',
    error_code: null,
    message: 'The camera works.',
    snapshot: 'data:image/jpeg;base64,AAAA',
    video: { codec: 'h264', width: 1920, height: 1080, fps: 25 },
    sub_video: { codec: 'h264', width: 640, height: 360, fps: 15 },
    audio_codec: 'aac',
    device: { manufacturer: 'Acme', model: 'Cam 2', firmware: '1.2.3' },
    motion_source: 'onvif',
    elapsed_ms: 2400,
    ...over,
  };
}

export interface HelperCall {
  method: string;
  path: string;
  body: unknown;
  mode: RequestMode | undefined;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

export function createFakeHelper() {
  const encoder = new TextEncoder();
  let scan: ReadableStreamDefaultController<Uint8Array> | null = null;
  let nextJob = 1;

  const state = {
    /** false: nothing listens (every request fails as a browser's would). */
    running: true,
    /** The helper answers, but the page may not read it: CORS requests fail, `no-cors` ones get through. */
    corsBlocked: false,
    /** Whatever `/status` answers (a foreign program answers something else). */
    status: helperStatus() as unknown,
    /** An HTTP error for `/status` instead of the answer. */
    statusError: null as { status: number; code: string } | null,
    testResult: (_connection: StreamConnectionInput): HelperCameraTestResult => testResult(),
    jobs: [] as HelperJob[],
    /** The next this many `/discover` calls answer 409 busy (a scan still winding down). */
    busyScans: 0,
    /** The next `/cameras/configure` answers with this error. */
    configureError: null as { status: number; code: string; message: string } | null,
    calls: [] as HelperCall[],
    otherFetch: async (_url: string, _init?: RequestInit): Promise<Response> => json(404, {}),
  };

  function discoverResponse(signal: AbortSignal | null | undefined): Response {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        scan = controller;
        signal?.addEventListener('abort', () => {
          try {
            controller.error(new DOMException('The operation was aborted.', 'AbortError'));
          } catch {
            // Already closed.
          }
        });
      },
      cancel() {
        scan = null;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
  }

  function route(method: string, path: string, body: unknown, signal?: AbortSignal | null): Response {
    if (method === 'GET' && path === '/status') {
      return state.statusError
        ? error(state.statusError.status, state.statusError.code, 'refused')
        : json(200, state.status);
    }
    if (method === 'GET' && path === '/discover') {
      if (state.busyScans > 0) {
        state.busyScans -= 1;
        return error(409, 'helper.busy', 'The helper is already scanning the network');
      }
      return discoverResponse(signal);
    }
    if (method === 'POST' && path === '/cameras/test') {
      const { connection } = body as { connection: StreamConnectionInput };
      return json(200, state.testResult(connection));
    }
    if (method === 'POST' && path === '/cameras/configure') {
      if (state.configureError) {
        const { status, code, message } = state.configureError;
        state.configureError = null;
        return error(status, code, message);
      }
      const { cameras } = body as { cameras: { device_id: string; name: string }[] };
      const jobs = cameras.map((c): HelperJob => ({
        id: `job-${nextJob++}`,
        device_id: c.device_id,
        camera_name: c.name,
        status: 'pending',
        error_code: null,
        message: null,
        mode: null,
        camera_uuid: null,
      }));
      state.jobs.push(...jobs);
      return json(202, { jobs });
    }
    if (method === 'GET' && path === '/jobs') return json(200, { jobs: state.jobs });
    const retry = /^\/jobs\/([^/]+)\/retry$/.exec(path);
    if (method === 'POST' && retry) {
      const job = state.jobs.find((j) => j.id === decodeURIComponent(retry[1]!));
      if (!job) return error(404, 'helper.not_found', 'No such job');
      Object.assign(job, { status: 'pending', error_code: null, message: null });
      return json(202, { jobs: [job] });
    }
    if (method === 'POST' && path === '/sign-out') {
      state.status = { ...(state.status as HelperStatus), signed_in: false, email: null };
      return json(200, { signed_in: false });
    }
    return error(404, 'helper.not_found', `No such call: ${method} ${path}`);
  }

  const fetchImpl = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(HELPER)) return state.otherFetch(url, init);
    const method = init.method ?? 'GET';
    const path = url.slice(HELPER.length);
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    state.calls.push({ method, path, body, mode: init.mode });
    if (!state.running) throw new TypeError('Failed to fetch');
    if (init.mode === 'no-cors') return new Response(null, { status: 200 });
    if (state.corsBlocked) throw new TypeError('Failed to fetch');
    return route(method, path, body, init.signal);
  };

  return {
    state,
    fetch: fetchImpl,
    /** Calls to a path (and method), in order. */
    callsTo: (path: string, method?: string) =>
      state.calls.filter((c) => c.path === path && (!method || c.method === method) && c.mode !== 'no-cors'),
    /** Sends one event down the open `/discover` stream, as one line. */
    emit(event: DiscoveryEvent) {
      scan?.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
    },
    /** Ends the open scan (the helper's 60 s are up, or it found everything). */
    endScan() {
      scan?.close();
      scan = null;
    },
    /** Breaks the open scan off, as when the helper quits mid-scan. */
    failScan() {
      scan?.error(new TypeError('network error'));
      scan = null;
    },
    /** Moves a job along (`configured`, `failed` with a code…). */
    setJob(id: string, patch: Partial<HelperJob>) {
      const job = state.jobs.find((j) => j.id === id);
      if (job) Object.assign(job, patch);
    },
    get scanOpen() {
      return scan !== null;
    },
  };
}

export type FakeHelper = ReturnType<typeof createFakeHelper>;
