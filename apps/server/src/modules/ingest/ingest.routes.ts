import type { Multipart } from '@fastify/multipart';
import { ingestEndpoints as endpoints } from '@homesitter/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, commonErrors } from '../../platform/errors.js';
import { route, type AccessGuards } from '../../platform/http/route.js';
import { createLoginFailures } from '../../platform/rate-limiter.js';
import { normalizeCameraName } from '../cameras/cameras.module.js';
import { UploadRefusedError } from './ingest.errors.js';
import type { IngestService, PreparedUpload } from './ingest.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The user whose camera upload login signed this ingest call. */
    uploaderId?: string;
  }
}

/** Files one HTTP upload may carry (a burst of snapshots, or a clip and its snapshot). */
const MAX_FILES = 20;

const ingestErrors = {
  noFiles: () => new AppError(400, 'validation_failed', 'Attach at least one file in the field `file`'),
  notMultipart: () =>
    new AppError(
      400,
      'unsupported_media_type',
      'Send multipart/form-data with `camera_name` and `file` fields',
    ),
  refused: (err: UploadRefusedError, fileName: string) =>
    err.reason === 'too_large'
      ? new AppError(413, 'payload_too_large', `${fileName}: ${err.message}`)
      : new AppError(400, 'unsupported_media_type', `${fileName}: ${err.message}`),
  tooManyFiles: () => new AppError(413, 'payload_too_large', `At most ${MAX_FILES} files per upload`),
  cutOff: () =>
    new AppError(
      400,
      'validation_failed',
      'The form is cut off before its end (or its parts cannot be read); nothing was kept, send it whole',
    ),
};

/**
 * What the multipart parser throws for a body that ends before its closing boundary, or whose parts cannot
 * be read: the request's fault, so a 400, not a server error.
 */
function isBrokenForm(err: unknown): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code === 'FST_MP_PREMATURE_CLOSE') return true;
  return (
    code === undefined &&
    typeof message === 'string' &&
    /unexpected end of multipart data|^Multipart: Boundary not found/i.test(message)
  );
}

/** `Authorization: Basic base64(username:password)`, or null. */
function basicCredentials(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * `POST /api/ingest/events`: the HTTP way in for cameras (and scripts) that can POST a form. Every file is
 * spooled and checked first; only when all are acceptable are they stored and committed together, so a bad
 * request keeps nothing. 202 means every file is stored and queued.
 */
export async function registerIngestRoutes(
  app: FastifyInstance,
  deps: {
    ingest: IngestService;
    verify: (username: string, password: string) => Promise<string | null>;
    guards: AccessGuards;
    maxBytes: number;
  },
): Promise<void> {
  const { ingest } = deps;
  const failedLogins = createLoginFailures();

  async function basicAuth(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const challenge = () => {
      void reply.header('www-authenticate', 'Basic realm="Homesitter camera uploads"');
      // The refused upload's body is not read; closing after the answer spares the camera sending it all.
      void reply.header('connection', 'close');
    };
    const credentials = basicCredentials(req.headers.authorization);
    if (!credentials) {
      challenge();
      throw commonErrors.unauthenticated('Sign in with the camera upload login (HTTP Basic)');
    }
    const retryAfter = failedLogins.retryAfter(req.ip, credentials.username);
    if (retryAfter > 0) throw commonErrors.rateLimited(retryAfter);
    const userId = await deps.verify(credentials.username, credentials.password).catch((err: unknown) => {
      // The login could not be checked (the database is down or restarting): not a wrong login, and
      // nothing was taken, so the camera is told to send it again.
      throw new AppError(503, 'server.unavailable', 'The upload could not be taken now; send it again', {
        retryAfterSeconds: 30,
        cause: err,
      });
    });
    if (!userId) {
      failedLogins.failed(req.ip, credentials.username);
      challenge();
      throw commonErrors.unauthenticated('The camera upload login is not correct');
    }
    failedLogins.succeeded(req.ip, credentials.username);
    req.uploaderId = userId;
  }

  await app.register(async (scope) => {
    scope.addHook('onRequest', basicAuth);
    route(scope, deps.guards, endpoints.ingestEvent, async (req, reply) => {
      const userId = req.uploaderId!;
      if (!req.isMultipart()) throw ingestErrors.notMultipart();
      const prepared: PreparedUpload[] = [];
      let cameraName: string | undefined;
      try {
        const parts: AsyncIterableIterator<Multipart> = req.parts({
          // One byte over the limit reaches the spool, which refuses it with a clear answer.
          limits: {
            fileSize: deps.maxBytes + 1,
            files: MAX_FILES + 1,
            fields: 10,
            fieldSize: 1024,
            parts: MAX_FILES + 11,
          },
        });
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.fieldname === 'camera_name' && typeof part.value === 'string') cameraName = part.value;
            continue;
          }
          if (part.fieldname !== 'file') {
            part.file.resume();
            continue;
          }
          if (prepared.length >= MAX_FILES) throw ingestErrors.tooManyFiles();
          const originalName = part.filename || 'upload';
          try {
            prepared.push(
              await ingest.prepare({ userId, cameraName: '', source: 'http', originalName, file: part.file }),
            );
          } catch (err) {
            if (err instanceof UploadRefusedError) throw ingestErrors.refused(err, originalName);
            throw err;
          }
        }
        if (prepared.length === 0) throw ingestErrors.noFiles();
      } catch (err) {
        await ingest.discard(prepared);
        // The rest of the body may still be on its way; closing after the answer spares reading it.
        void reply.header('connection', 'close');
        if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw ingestErrors.tooManyFiles();
        if (isBrokenForm(err)) throw ingestErrors.cutOff();
        throw err;
      }
      // The name may come after the files in the form, so it is applied once the whole form is read.
      for (const p of prepared) p.row.cameraName = normalizeCameraName(cameraName);
      const accepted = await commitOrUnavailable(ingest, prepared);
      return { success: true as const, data: { upload_ids: accepted.map((a) => a.uploadId) } };
    });
  });
}

/**
 * Storage or the database failing while an upload is stored (disk full, S3 answering 500) is temporary:
 * nothing was acknowledged or kept, so the camera is told to send it again (503), not that it failed.
 */
async function commitOrUnavailable(ingest: IngestService, prepared: PreparedUpload[]) {
  try {
    return await ingest.commit(prepared);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(503, 'server.unavailable', 'The upload could not be stored; send it again', {
      retryAfterSeconds: 30,
      cause: err,
    });
  }
}
