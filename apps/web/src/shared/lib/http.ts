import {
  apiRoutes,
  MEMORIES_REQUEST_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  RETRY_ATTEMPTS,
  RETRY_DELAY_MS,
  UPLOAD_REQUEST_TIMEOUT_MS,
  type ApiRouteName,
} from '@homesitter/contract/runtime';
import type { EndpointBody, EndpointResponse, Endpoints, ErrorEnvelope } from '@homesitter/contract';
import { sendWithUploadProgress, type OutgoingRequest } from './xhrTransport';

export interface ApiErrorDetail {
  field: string;
  message: string;
}

/** A failed call: the server's envelope (`message`, `code`) or a transport failure (status 0). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: ApiErrorDetail[] = [],
    /** With 429: the server's word on when to try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** docs/product.md §9: 120 s for uploads (a multipart body, or a path naming one), 60 s for everything else. */
export function timeoutFor(path: string, isUpload = false): number {
  if (isUpload || path.includes('/upload')) return UPLOAD_REQUEST_TIMEOUT_MS;
  if (path.includes('/memories')) return MEMORIES_REQUEST_TIMEOUT_MS;
  return REQUEST_TIMEOUT_MS;
}

export interface RetryPolicy {
  attempts: number;
  delayMs: number;
  retryOnClientError: boolean;
}

/** docs/product.md §8: camera and site calls try 3 times 2 s apart; camera rename and site delete stop on a 4xx. */
export function retryPolicyFor(method: string, path: string): RetryPolicy {
  const isCameraOrSite = /\/(cameras?|sites)(\/|$|-)|camera-/.test(path);
  // A WebRTC offer sent twice would start two streams at Google (and spend its rate limit): the player decides.
  const isWebRtc = path.includes('/live/webrtc');
  if (!isCameraOrSite || isWebRtc) return { attempts: 1, delayMs: 0, retryOnClientError: false };
  const isRename = path.includes('/update-camera-name');
  const isSiteDelete = method === 'DELETE' && path.includes('/sites/');
  return {
    attempts: RETRY_ATTEMPTS,
    delayMs: RETRY_DELAY_MS,
    retryOnClientError: !(isRename || isSiteDelete),
  };
}

export interface CallInput<K extends ApiRouteName> {
  body?: EndpointBody<Endpoints[K]>;
  /** A multipart body (file uploads) instead of JSON; the transport sets its content type and boundary. */
  form?: FormData;
  /** Share of the body sent so far (0 to 1); the call then goes through XMLHttpRequest, as fetch cannot tell. */
  onUploadProgress?: (fraction: number) => void;
  /** The failure text when the answer carries none (a proxy's error page, say). */
  fallbackMessage?: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

export interface HttpClientOptions {
  fetch?: typeof fetch;
  /** The transport of calls that report upload progress (tests hand in a fake). */
  sendWithUploadProgress?: typeof sendWithUploadProgress;
  baseUrl?: string;
  /** The current ID token, refreshed when close to expiry; `force` asks for a fresh one. */
  getToken: (force?: boolean) => Promise<string | null>;
  /** A bearer call still answered 401 after a token refresh: the session is over. */
  onUnauthorized: () => void;
  sleep?: (ms: number) => Promise<void>;
}

export type HttpClient = ReturnType<typeof createHttpClient>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function buildPath(
  path: string,
  params: Record<string, string> = {},
  query: CallInput<ApiRouteName>['query'],
) {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

async function readError(response: Response, fallbackMessage?: string): Promise<ApiError> {
  let message = fallbackMessage ?? `Request failed with status ${response.status}`;
  let code = 'http_error';
  let details: ApiErrorDetail[] = [];
  let retryAfterSeconds: number | undefined;
  try {
    const body = (await response.json()) as Partial<ErrorEnvelope>;
    if (typeof body.message === 'string') message = body.message;
    if (typeof body.code === 'string') code = body.code;
    if (Array.isArray(body.details)) details = body.details;
    if (typeof body.retryAfterSeconds === 'number') retryAfterSeconds = body.retryAfterSeconds;
  } catch {
    // Not JSON (a proxy page, say): keep the generic text.
  }
  return new ApiError(message, response.status, code, details, retryAfterSeconds);
}

export function createHttpClient(options: HttpClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const doSendWithUploadProgress = options.sendWithUploadProgress ?? sendWithUploadProgress;
  const sleep = options.sleep ?? defaultSleep;
  const baseUrl = options.baseUrl ?? '';

  async function once(
    method: string,
    url: string,
    token: string | null,
    input: CallInput<ApiRouteName>,
    timeoutMs: number,
  ) {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('Request timed out', 'TimeoutError')),
      timeoutMs,
    );
    const onAbort = () => controller.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', onAbort);
    const headers: Record<string, string> = { Accept: 'application/json' };
    // No content type for a FormData body: the transport writes it with the multipart boundary.
    if (input.body !== undefined && !input.form) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const request: OutgoingRequest = {
      method,
      headers,
      body: input.form ?? (input.body === undefined ? null : JSON.stringify(input.body)),
      signal: controller.signal,
    };
    try {
      return input.onUploadProgress
        ? await doSendWithUploadProgress(`${baseUrl}${url}`, request, input.onUploadProgress)
        : await doFetch(`${baseUrl}${url}`, request);
    } catch (error) {
      if (controller.signal.aborted && !input.signal?.aborted)
        throw new ApiError('Request timed out', 0, 'timeout');
      if (input.signal?.aborted) throw error;
      throw new ApiError(error instanceof Error ? error.message : 'Network error', 0, 'network_error');
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function send(method: string, path: string, needsToken: boolean, input: CallInput<ApiRouteName>) {
    const url = buildPath(path, input.params, input.query);
    const timeoutMs = timeoutFor(path, input.form !== undefined);
    let token = needsToken ? await options.getToken() : null;
    let response = await once(method, url, token, input, timeoutMs);
    if (response.status === 401 && needsToken) {
      token = await options.getToken(true).catch(() => null);
      if (token) response = await once(method, url, token, input, timeoutMs);
      if (response.status === 401) {
        options.onUnauthorized();
      }
    }
    return response;
  }

  /** Calls one contract endpoint by name and answers its typed success body; throws `ApiError` otherwise. */
  async function call<K extends ApiRouteName>(
    name: K,
    input: CallInput<K> = {},
  ): Promise<EndpointResponse<Endpoints[K]>> {
    const route = apiRoutes[name];
    const policy = retryPolicyFor(route.method, route.path);
    let lastError: unknown;
    for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
      try {
        const response = await send(route.method, route.path, route.access !== 'public', input);
        if (!response.ok) throw await readError(response, input.fallbackMessage);
        return (await response.json()) as EndpointResponse<Endpoints[K]>;
      } catch (error) {
        lastError = error;
        const isClientError = error instanceof ApiError && error.status >= 400 && error.status < 500;
        const retryable =
          attempt < policy.attempts &&
          !input.signal?.aborted &&
          (!isClientError || policy.retryOnClientError);
        if (!retryable) break;
        await sleep(policy.delayMs);
      }
    }
    throw lastError;
  }

  return { call };
}
