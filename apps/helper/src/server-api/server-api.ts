import { openAsBlob } from 'node:fs';
import {
  apiRoutes,
  cameraSchema,
  cameraUploadCredentialsSchema,
  ingestEventResponseSchema,
  okEnvelope,
  type AddCameraRequest,
  type Camera,
  type CameraUploadCredentials,
  type StreamConnectionInput,
} from '@homesitter/contract';
import type { z } from 'zod';
import { requestServer, ServerApiError, type Fetch, type ServerRequest } from './request.js';

/** Where the server calls get their bearer token: the helper's session. */
export interface TokenSource {
  /** A valid ID token, or null when signed out. */
  idToken(): Promise<string | null>;
  /** A new ID token now (the server refused the current one); null when that is impossible. */
  refreshNow(): Promise<string | null>;
}

/** One motion file for `POST /api/ingest/events`. */
export interface IngestFile {
  cameraName: string;
  path: string;
  fileName: string;
  contentType: string;
}

/** The Homesitter API calls the helper makes as the signed-in user. */
export interface ServerApi {
  addCamera(body: AddCameraRequest): Promise<Camera>;
  getCamera(name: string): Promise<Camera>;
  /** Configure a camera again, with a new address or login when given. */
  reconfigureCamera(name: string, connection?: StreamConnectionInput): Promise<Camera>;
  uploadCredentials(): Promise<CameraUploadCredentials>;
  /** Uploads a motion file as the camera's event, signed in with the camera upload login. */
  uploadEvent(login: { username: string; password: string }, file: IngestFile): Promise<void>;
}

const cameraAnswer = okEnvelope(cameraSchema);
/** A clip can be tens of megabytes over a home uplink. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export function notSignedInError(): ServerApiError {
  return new ServerApiError(401, 'helper.not_signed_in', 'The helper is not signed in');
}

export function createServerApi({
  baseUrl,
  fetch: fetchFn,
  tokens,
}: {
  baseUrl: string;
  fetch: Fetch;
  tokens: TokenSource;
}): ServerApi {
  /** A bearer call; a 401 gets one fresh token and one more try (the token may have just expired). */
  async function authed<S extends z.ZodType>(
    path: string,
    request: ServerRequest,
    schema: S,
  ): Promise<z.output<S>> {
    const call = (token: string) =>
      requestServer(
        fetchFn,
        `${baseUrl}${path}`,
        { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } },
        schema,
      );
    const token = await tokens.idToken();
    if (!token) throw notSignedInError();
    try {
      return await call(token);
    } catch (err) {
      if (!(err instanceof ServerApiError) || err.status !== 401) throw err;
      const fresh = await tokens.refreshNow();
      if (!fresh) throw notSignedInError();
      return call(fresh);
    }
  }

  const byName = (path: string, name: string) => path.replace(':name', encodeURIComponent(name));

  return {
    addCamera: async (body) =>
      (await authed(apiRoutes.addCamera.path, { method: 'POST', json: body }, cameraAnswer)).data,
    getCamera: async (name) =>
      (await authed(byName(apiRoutes.getCamera.path, name), { method: 'GET' }, cameraAnswer)).data,
    reconfigureCamera: async (name, connection) => {
      const answer = connection
        ? await authed(
            apiRoutes.updateCamera.path,
            { method: 'POST', json: { name, connection } },
            cameraAnswer,
          )
        : await authed(byName(apiRoutes.configureCamera.path, name), { method: 'POST' }, cameraAnswer);
      return answer.data;
    },
    uploadCredentials: async () =>
      (
        await authed(
          apiRoutes.getCameraUploadCredentials.path,
          { method: 'GET' },
          okEnvelope(cameraUploadCredentialsSchema),
        )
      ).data,
    uploadEvent: async (login, file) => {
      const form = new FormData();
      form.append('camera_name', file.cameraName);
      form.append('file', await openAsBlob(file.path, { type: file.contentType }), file.fileName);
      const basic = Buffer.from(`${login.username}:${login.password}`).toString('base64');
      await requestServer(
        fetchFn,
        `${baseUrl}${apiRoutes.ingestEvent.path}`,
        {
          method: 'POST',
          headers: { authorization: `Basic ${basic}` },
          body: form,
          timeoutMs: UPLOAD_TIMEOUT_MS,
        },
        okEnvelope(ingestEventResponseSchema),
      );
    },
  };
}
