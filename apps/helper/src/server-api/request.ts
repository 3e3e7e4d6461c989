import { errorEnvelopeSchema } from '@homesitter/contract';
import type { z } from 'zod';

/** What the helper calls the server with: the global `fetch`, or a test's. */
export type Fetch = typeof fetch;

/**
 * The server refused a call (`status` and the error envelope's `code` and `message`), or could not be
 * reached at all (`status` 0, code `unreachable`).
 */
export class ServerApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServerApiError';
  }

  /** Worth trying again later: the server was not reached, was busy, or failed on its side. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface ServerRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as `application/json`. */
  json?: unknown;
  body?: FormData;
  /** Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** One call of the Homesitter API, its answer checked with the contract's schema. */
export async function requestServer<S extends z.ZodType>(
  fetchFn: Fetch,
  url: string,
  request: ServerRequest,
  schema: S,
): Promise<z.output<S>> {
  const timeout = AbortSignal.timeout(request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      body: request.json !== undefined ? JSON.stringify(request.json) : request.body,
      signal,
      redirect: 'error',
    });
  } catch (err) {
    const why =
      err instanceof Error && err.name === 'TimeoutError' ? 'did not answer in time' : 'was not reached';
    throw new ServerApiError(0, 'unreachable', `The Homesitter server at ${new URL(url).origin} ${why}`);
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const envelope = errorEnvelopeSchema.safeParse(json);
    throw envelope.success
      ? new ServerApiError(response.status, envelope.data.code, envelope.data.message)
      : new ServerApiError(
          response.status,
          'http_error',
          `The Homesitter server answered ${response.status}`,
        );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ServerApiError(502, 'invalid_response', 'The Homesitter server answered something unexpected');
  }
  return parsed.data;
}

/** `http://host/x` → `ws://host/x` (and https → wss). */
export function webSocketUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/^http/, 'ws')}${path}`;
}
