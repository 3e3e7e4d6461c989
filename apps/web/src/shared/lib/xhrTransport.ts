/** A request as the HTTP client hands it to a transport: `fetch` takes it as it is. */
export interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body: string | FormData | null;
  signal: AbortSignal;
}

// Statuses whose Response may not carry a body (the constructor throws otherwise).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** What fetch rejects with when its signal aborts: the signal's reason (a DOMException unless given one). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  // DOMException is an Error in browsers, but not in every DOM that tests run on.
  if (reason instanceof Error || reason instanceof DOMException) return reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

function responseOf(xhr: XMLHttpRequest): Response {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const body = NULL_BODY_STATUSES.has(xhr.status) ? null : xhr.responseText;
  return new Response(body, { status: xhr.status, statusText: xhr.statusText, headers });
}

/**
 * `fetch` on XMLHttpRequest, for the one thing fetch cannot do in browsers: report how much of the body has
 * gone out (a photo's upload progress). It answers a `Response` and fails the way fetch does (a TypeError
 * for the network, the signal's reason for an abort), so the HTTP client handles both transports alike.
 */
export function sendWithUploadProgress(
  url: string,
  request: OutgoingRequest,
  onUploadProgress: (fraction: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    signal.addEventListener('abort', abort);
    xhr.open(request.method, url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onUploadProgress(event.loaded / event.total);
    };
    xhr.onload = () => resolve(responseOf(xhr));
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(abortReason(signal));
    xhr.onloadend = () => signal.removeEventListener('abort', abort);
    xhr.send(request.body);
  });
}
