import type {
  DiscoveryEvent,
  HelperCameraTestResult,
  HelperConfigureRequest,
  HelperJobs,
  StreamConnectionInput,
} from '@homesitter/contract';
import {
  HELPER_ANSWER_MARGIN_MS,
  HELPER_CONNECTION_TIMEOUT_MS,
  HELPER_DISCOVERY_TIMEOUT_MS,
  HELPER_ORIGIN,
  HELPER_SIGN_IN_PATH,
} from '@homesitter/contract/runtime';

/**
 * Where "Sign the helper in" goes: the helper's own `/sign-in`, which starts a sign-in it will accept (a
 * one-time state) and sends the tab on to `/auth?redirect=<helper>/callback?state=…`; the signed-in browser
 * only confirms there, and the token comes back to the helper.
 */
export function helperSignInUrl(origin = HELPER_ORIGIN): string {
  return `${origin}${HELPER_SIGN_IN_PATH}`;
}

/**
 * Why a helper call failed: `unreachable` (nothing answered: not running, or the browser or an ad blocker
 * stopped the request), `timeout`, or `refused` (it answered with an HTTP error; `code` is its error code).
 */
export type HelperErrorKind = 'unreachable' | 'timeout' | 'refused';

export class HelperError extends Error {
  constructor(
    readonly kind: HelperErrorKind,
    message: string,
    readonly status = 0,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

export const isHelperError = (error: unknown, kind?: HelperErrorKind): error is HelperError =>
  error instanceof HelperError && (kind === undefined || error.kind === kind);

/** The helper went away: nothing answers any more (as opposed to it refusing one request). */
export const isHelperGone = (error: unknown) => isHelperError(error, 'unreachable');

/**
 * Reads a newline-delimited JSON body as it arrives: one value per line, whatever the chunk boundaries
 * (a line may span chunks, a chunk may hold many lines, a UTF-8 character may be split). Lines that are
 * not JSON are skipped. Aborting `signal` cancels the body and ends the reading quietly.
 */
export async function readNdjson(
  body: ReadableStream<Uint8Array>,
  onValue: (value: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop);
  const decoder = new TextDecoder();
  let pending = '';
  const emit = (line: string) => {
    const text = line.trim();
    if (!text) return;
    try {
      onValue(JSON.parse(text));
    } catch {
      // A torn or foreign line: the next one still counts.
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(emit);
    }
    if (signal?.aborted) return;
    pending += decoder.decode();
    emit(pending);
  } finally {
    signal?.removeEventListener('abort', stop);
    reader.releaseLock();
  }
}

const EVENT_TYPES = new Set(['started', 'device', 'done']);

function isDiscoveryEvent(value: unknown): value is DiscoveryEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as { type?: unknown; device?: unknown };
  if (typeof event.type !== 'string' || !EVENT_TYPES.has(event.type)) return false;
  if (event.type !== 'device') return true;
  const device = event.device as { id?: unknown } | null;
  return typeof device === 'object' && device !== null && typeof device.id === 'string';
}

export interface HelperClientOptions {
  origin?: string;
  fetch?: typeof fetch;
}

interface RequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
}

export type HelperClient = ReturnType<typeof createHelperClient>;

/** Typed calls to the helper on 127.0.0.1, each with its docs/product.md §9 time limit. */
export function createHelperClient(options: HelperClientOptions = {}) {
  const origin = options.origin ?? HELPER_ORIGIN;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** Sends one request; the caller reads the answer. Transport failures become `HelperError`s. */
  async function send(path: string, request: RequestOptions): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('The helper did not answer in time', 'TimeoutError')),
      request.timeoutMs,
    );
    const onAbort = () => controller.abort(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort);
    try {
      const response = await doFetch(`${origin}${path}`, {
        method: request.method ?? 'GET',
        headers:
          request.body === undefined
            ? { Accept: 'application/json' }
            : { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
        cache: 'no-store',
      });
      if (!response.ok) throw await readError(response);
      return response;
    } catch (error) {
      if (error instanceof HelperError) throw error;
      if (request.signal?.aborted) throw error;
      if (controller.signal.aborted) throw new HelperError('timeout', 'The helper did not answer in time');
      throw new HelperError(
        'unreachable',
        error instanceof Error ? error.message : 'The helper is unreachable',
      );
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function json<T>(path: string, request: RequestOptions): Promise<T> {
    const response = await send(path, request);
    try {
      return (await response.json()) as T;
    } catch {
      throw new HelperError(
        'refused',
        'The helper answered with something that is not JSON',
        response.status,
      );
    }
  }

  const answerTime = HELPER_CONNECTION_TIMEOUT_MS + HELPER_ANSWER_MARGIN_MS;

  return {
    origin,

    /** `GET /status`, unchecked: `checkHelper` decides whether it is a helper this app can use. */
    status: (signal?: AbortSignal) =>
      json<unknown>('/status', { timeoutMs: HELPER_CONNECTION_TIMEOUT_MS, signal }),

    /**
     * Whether anything answers on the helper's port when the answer need not be readable (`no-cors`): true
     * while the CORS request fails means the browser, not the helper, is in the way.
     */
    async answersWithoutCors(): Promise<boolean> {
      try {
        await doFetch(`${origin}/status`, {
          mode: 'no-cors',
          cache: 'no-store',
          signal: AbortSignal.timeout(HELPER_CONNECTION_TIMEOUT_MS),
        });
        return true;
      } catch {
        return false;
      }
    },

    /**
     * `GET /discover`: every event as it streams in, until the helper ends the scan (at most docs/product.md §9's 60 s;
     * the browser stops reading a little after that) or `signal` aborts it.
     */
    async discover(onEvent: (event: DiscoveryEvent) => void, signal?: AbortSignal): Promise<void> {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), HELPER_DISCOVERY_TIMEOUT_MS + HELPER_ANSWER_MARGIN_MS);
      const both = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
      let reading = false;
      try {
        const response = await send('/discover', {
          timeoutMs: HELPER_DISCOVERY_TIMEOUT_MS + HELPER_ANSWER_MARGIN_MS,
          signal: both,
        });
        if (!response.body)
          throw new HelperError('refused', 'The helper sent no scan results', response.status);
        reading = true;
        await readNdjson(
          response.body,
          (value) => {
            if (isDiscoveryEvent(value)) onEvent(value);
          },
          both,
        );
      } catch (error) {
        if (signal?.aborted) return;
        if (deadline.signal.aborted) {
          if (reading) return;
          throw new HelperError('timeout', 'The helper did not answer in time');
        }
        if (error instanceof HelperError) throw error;
        throw new HelperError('unreachable', error instanceof Error ? error.message : 'The scan broke off');
      } finally {
        clearTimeout(timer);
      }
    },

    /** `POST /cameras/test`: tries one camera the way configuration would; nothing goes to the server. */
    testCamera: (connection: StreamConnectionInput, signal?: AbortSignal) =>
      json<HelperCameraTestResult>('/cameras/test', {
        method: 'POST',
        body: { connection },
        timeoutMs: answerTime,
        signal,
      }),

    /** `POST /cameras/configure` (202): the helper sets the cameras up and registers them. */
    configure: (request: HelperConfigureRequest) =>
      json<HelperJobs>('/cameras/configure', { method: 'POST', body: request, timeoutMs: answerTime }),

    jobs: (signal?: AbortSignal) =>
      json<HelperJobs>('/jobs', { timeoutMs: HELPER_CONNECTION_TIMEOUT_MS, signal }),

    /** `POST /jobs/:id/retry`, with a corrected login or address when given. */
    async retryJob(id: string, connection?: StreamConnectionInput): Promise<void> {
      await send(`/jobs/${encodeURIComponent(id)}/retry`, {
        method: 'POST',
        body: connection ? { connection } : {},
        timeoutMs: answerTime,
      });
    },

    async signOut(): Promise<void> {
      await send('/sign-out', { method: 'POST', body: {}, timeoutMs: HELPER_CONNECTION_TIMEOUT_MS });
    },
  };
}

async function readError(response: Response): Promise<HelperError> {
  let code: string | null = null;
  let message = `The helper answered ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string') code = body.error.code;
    if (typeof body.error?.message === 'string') message = body.error.message;
  } catch {
    // Not the helper's envelope: the status says enough.
  }
  return new HelperError('refused', message, response.status, code);
}

/** The one client the screens use. */
export const helper = createHelperClient();
