import Fastify, { type FastifyBaseLogger } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { installErrorHandler, sendFrameworkError } from './error-handler.js';

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A server whose one route fails with `error`, logging at debug into `lines`. */
async function failingServer(error: Error) {
  const lines: LogLine[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  const logger: FastifyBaseLogger = pino({ level: 'debug' }, stream);
  const app = Fastify({ loggerInstance: logger });
  installErrorHandler(app);
  app.get('/fail', async () => {
    throw error;
  });
  await app.ready();
  return { app, lines };
}

const ERROR = 50;
const DEBUG = 20;

describe('unexpected errors in the log', () => {
  it('logs a failed statement by its class and SQLSTATE at error level, the SQL and values only at debug', async () => {
    const driverError = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      severity: 'ERROR',
      code: '22021',
      detail: 'Key (name)=(Rose secret) already exists.',
    });
    const failed = new DrizzleQueryError(
      'insert into "memories" ("name") values ($1)',
      ['Rose secret'],
      driverError,
    );
    const { app, lines } = await failingServer(failed);

    const res = await app.inject({ method: 'GET', url: '/fail' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, code: 'internal' });

    const above = JSON.stringify(lines.filter((l) => l.level > DEBUG));
    expect(above).not.toMatch(/insert into|Rose secret|\$1/);
    expect(lines.find((l) => l.level === ERROR)).toMatchObject({
      msg: 'request failed: database error 22021',
      db: { type: 'DrizzleQueryError', code: '22021' },
    });
    const details = JSON.stringify(lines.filter((l) => l.level === DEBUG));
    expect(details).toContain('insert into');
    await app.close();
  });

  it('logs any other error whole at error level', async () => {
    const { app, lines } = await failingServer(new TypeError('camera is undefined'));
    await app.inject({ method: 'GET', url: '/fail' });
    expect(lines.find((l) => l.level === ERROR)).toMatchObject({
      msg: 'request failed',
      err: { type: 'TypeError', message: 'camera is undefined' },
    });
    await app.close();
  });
});

describe('errors of the router itself', () => {
  it('answers a path that is not valid percent-encoding, or a path segment too long, with the envelope', async () => {
    const app = Fastify({ frameworkErrors: sendFrameworkError, maxParamLength: 100 });
    installErrorHandler(app);
    app.get('/things/:id', async () => ({ ok: true }));
    await app.ready();

    const badUrl = await app.inject({ method: 'GET', url: '/things/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toEqual({
      success: false,
      code: 'validation_failed',
      message: 'The request path is not valid percent-encoded UTF-8',
    });
    const long = await app.inject({ method: 'GET', url: `/things/${'x'.repeat(101)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({
      success: false,
      message: 'A path segment of the request is too long',
    });
    await app.close();
  });
});
