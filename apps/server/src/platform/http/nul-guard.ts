import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/** Deepest nesting looked into: bodies are small JSON, and a deeper one is refused by its schema anyway. */
const MAX_DEPTH = 32;

/** The dotted path of the first string holding a NUL character (U+0000), or undefined. */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : undefined;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Buffer.isBuffer(value))
    return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path ? `${path}.(key)` : '(key)';
    const found = findNul(item, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * No text with a NUL character reaches a route: PostgreSQL cannot store it (the statement fails, a 500),
 * and no name, note or message means one. Checked before validation, in the path, the query and a JSON
 * body alike, and answered with a 400 that names the field.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    for (const [part, value] of [
      ['params', req.params],
      ['query', req.query],
      ['body', req.body],
    ] as const) {
      const field = findNul(value);
      if (field) {
        throw new AppError(400, 'validation_failed', `${part} ${field}: must not contain the NUL character`);
      }
    }
  });
}
