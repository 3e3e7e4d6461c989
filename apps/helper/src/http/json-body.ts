import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { helperErrors } from './errors.js';

/** JSON bodies of the local API are small: a few cameras and their logins. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a POST's JSON body and validates it with the contract's schema. Only `application/json` is read
 * (a form or text/plain post, which a browser sends cross-site without a preflight, is refused unread).
 */
export async function readJsonBody<S extends z.ZodType>(
  req: IncomingMessage,
  schema: S,
  { optional = false }: { optional?: boolean } = {},
): Promise<z.output<S>> {
  // A call whose body is optional may come without one (`fetch(url, { method: 'POST' })`).
  if (optional && !hasBody(req)) return validate({}, schema);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw helperErrors.invalidRequest('Send the body as JSON (content-type: application/json)', 415);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw helperErrors.invalidRequest('The body is not valid JSON');
  }
  return validate(json, schema);
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function validate<S extends z.ZodType>(json: unknown, schema: S): z.output<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const message = parsed.error.issues
      .slice(0, 5)
      .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
      .join('; ');
    throw helperErrors.invalidRequest(message);
  }
  return parsed.data;
}

function tooLarge() {
  return helperErrors.invalidRequest(`The body is larger than ${MAX_BODY_BYTES / 1024} KB`, 413);
}
