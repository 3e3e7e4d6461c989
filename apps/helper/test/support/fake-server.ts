import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  Camera,
  HelperBridgedCamera,
  HelperToServerMessage,
  ServerToHelperMessage,
} from '@homesitter/contract';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

/**
 * A Homesitter server as far as the helper sees it, on 127.0.0.1: the identity calls (device session,
 * rotating refresh, sign-out), cameras add/get, the upload login, the HTTP ingest (multipart captured),
 * and the helper's control and live sockets. Tests read what it received and steer what it answers.
 */

export interface IngestCapture {
  cameraName: string | null;
  fileName: string;
  contentType: string;
  bytes: Buffer;
  /** The Basic login it was sent with. */
  login: { username: string; password: string } | null;
}

export interface LiveCapture {
  cameraUuid: string;
  texts: string[];
  binaries: number;
  closed: boolean;
}

export interface FakeCamera {
  camera: Camera;
  /** What the helper registered it with (connection included, login and all). */
  body: Record<string, unknown>;
  private: boolean;
  motionSensitivity: number;
}

export interface FakeServer {
  url: string;
  /** Browser ID tokens the device-session call accepts (each once, as a fresh token). */
  browserTokens: Set<string>;
  user: { uid: string; email: string };
  /** Seconds a new ID token lives. */
  expiresIn: number;
  /** The refresh token the server would accept now (the newest issued). */
  currentRefreshToken(): string | null;
  refreshCalls: number;
  signOuts: string[];
  cameras: Map<string, FakeCamera>;
  /** Answer for an rtsp/onvif camera: `network_not_allowed` refuses it; else the status it reaches on the next look. */
  serverConfigures: { refuseNetwork: boolean; result: 'configured' | 'failed' };
  uploadLogin: { username: string; password: string };
  ingests: IngestCapture[];
  /** Status the ingest answers (202 by default). */
  ingestStatus: number;
  helperMessages: HelperToServerMessage[];
  controlConnections: number;
  lives: LiveCapture[];
  /** Sends to every open control socket. */
  send(message: ServerToHelperMessage): void;
  /** The helper cameras as the `cameras` message lists them. */
  sendCameraList(): void;
  /** Cuts every control socket, as a server restart or a lost network does. */
  dropControls(): void;
  close(): Promise<void>;
}

function cameraRow(
  name: string,
  connectionType: Camera['connection_type'],
  status: Camera['configuration_status'],
): Camera {
  return {
    camera_uuid: randomUUID(),
    name,
    settings: {
      notes: null,
      is_private_mode_enabled: false,
      is_muted: false,
      only_unusual_alerts: false,
      is_facial_recognition_enabled: false,
      has_credentials: false,
      motion_sensitivity: 6,
    },
    site_uuid: null,
    removed_date_time_utc: null,
    last_activity_date_time_utc: null,
    configuration_status: status,
    connection_type: connectionType,
    configuration_error: null,
    configuration_error_code: null,
    stream_status: null,
    stream_error: null,
    snapshot_url: null,
    snapshot_date_time_utc: null,
    snapshot_focus: { x: 0.5, y: 0.5 },
    created_at: new Date().toISOString(),
    private_events_today: 0,
  };
}

function text(data: RawData): string {
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function fail(res: ServerResponse, status: number, code: string, message: string): void {
  json(res, status, { success: false, code, message });
}

export async function startFakeServer(): Promise<FakeServer> {
  const idTokens = new Set<string>();
  let refreshToken: string | null = null;
  let issued = 0;
  const controls = new Set<WebSocket>();

  const fake: FakeServer = {
    url: '',
    browserTokens: new Set(),
    user: { uid: 'user-1', email: 'owner@example.com' },
    expiresIn: 3600,
    currentRefreshToken: () => refreshToken,
    refreshCalls: 0,
    signOuts: [],
    cameras: new Map(),
    serverConfigures: { refuseNetwork: false, result: 'configured' },
    uploadLogin: { username: 'cam-upload-user', password: 'upload-secret' },
    ingests: [],
    ingestStatus: 202,
    helperMessages: [],
    controlConnections: 0,
    lives: [],
    send(message) {
      for (const ws of controls) ws.send(JSON.stringify(message));
    },
    sendCameraList() {
      const cameras: HelperBridgedCamera[] = [...fake.cameras.values()]
        .filter((c) => c.camera.connection_type === 'helper')
        .map((c) => ({
          camera_uuid: c.camera.camera_uuid,
          name: c.camera.name,
          private: c.private,
          motion_sensitivity: c.motionSensitivity,
        }));
      fake.send({ type: 'cameras', cameras });
    },
    dropControls() {
      for (const ws of controls) ws.terminate();
    },
    close: async () => undefined,
  };

  function session() {
    issued += 1;
    const idToken = `id.${issued}.${randomUUID()}`;
    refreshToken = `refresh-${issued}-${randomUUID()}`;
    idTokens.add(idToken);
    return {
      success: true,
      idToken,
      refreshToken,
      expiresIn: fake.expiresIn,
      user: { uid: fake.user.uid, email: fake.user.email, emailVerified: true, verificationExempt: false },
    };
  }

  const bearer = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
  const signedIn = (req: IncomingMessage) => {
    const token = bearer(req);
    return token !== null && idTokens.has(token);
  };
  const byName = (name: string) =>
    [...fake.cameras.values()].find((c) => c.camera.name.toLowerCase() === name.toLowerCase());

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const body = await readBody(req);
    const input = () => JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;

    if (req.method === 'POST' && path === '/api/auth/device-session') {
      const token = bearer(req);
      if (!token || !fake.browserTokens.delete(token)) {
        return fail(res, 401, 'auth.unauthenticated', 'The sign-in is too old or not valid');
      }
      return json(res, 200, session());
    }
    if (req.method === 'POST' && path === '/api/auth/token') {
      fake.refreshCalls += 1;
      if (input().refreshToken !== refreshToken || refreshToken === null) {
        return fail(
          res,
          401,
          'auth.refresh_token_invalid',
          'Your session has expired. Please sign in again.',
        );
      }
      return json(res, 200, session());
    }
    if (req.method === 'POST' && path === '/api/auth/sign-out') {
      fake.signOuts.push(String(input().refreshToken));
      if (input().refreshToken === refreshToken) refreshToken = null;
      return json(res, 200, { success: true });
    }
    if (req.method === 'POST' && path === '/api/ingest/events') return ingest(req, res, body);

    if (!signedIn(req)) return fail(res, 401, 'auth.unauthenticated', 'Sign in first');

    if (req.method === 'POST' && path === '/api/users/cameras') {
      const request = input();
      const name = typeof request.name === 'string' ? request.name.trim() : '';
      const connection = request.connection as { type: Camera['connection_type'] };
      if (byName(name)) return fail(res, 409, 'camera.name_taken', `A camera named ${name} already exists`);
      if (connection.type !== 'helper' && fake.serverConfigures.refuseNetwork) {
        return fail(res, 400, 'camera.network_not_allowed', 'This server may not connect to that address');
      }
      const camera = cameraRow(
        name,
        connection.type,
        connection.type === 'helper' ? 'pending' : 'configuring',
      );
      fake.cameras.set(camera.camera_uuid, { camera, body: request, private: false, motionSensitivity: 6 });
      json(res, 201, { success: true, data: camera });
      // As the real server: connected helpers get the list whenever it changes, and it lists a helper
      // camera from its registration on (configured or not).
      if (connection.type === 'helper') fake.sendCameraList();
      return;
    }
    const cameraMatch = /^\/api\/users\/cameras\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && cameraMatch) {
      const found = byName(decodeURIComponent(cameraMatch[1]!));
      if (!found) return fail(res, 404, 'camera.not_found', 'No such camera');
      // The server "configures" a pulled camera between two looks.
      if (found.camera.configuration_status === 'configuring' && found.camera.connection_type !== 'helper') {
        const failed = fake.serverConfigures.result === 'failed';
        found.camera = {
          ...found.camera,
          configuration_status: fake.serverConfigures.result,
          configuration_error_code: failed ? 'wrong_credentials' : null,
          configuration_error: failed ? 'The camera refused the username or password.' : null,
        };
      }
      return json(res, 200, { success: true, data: found.camera });
    }
    if (req.method === 'GET' && path === '/api/users/camera-email-credentials') {
      return json(res, 200, {
        success: true,
        data: {
          ...fake.uploadLogin,
          email_address: 'cams@example.com',
          smtp_host: 'localhost',
          smtp_port: 2525,
          ftp_host: 'localhost',
          ftp_port: 2121,
        },
      });
    }
    fail(res, 404, 'route_not_found', `No route ${req.method} ${path}`);
  }

  async function ingest(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const decoded = basic ? Buffer.from(basic, 'base64').toString('utf8') : null;
    const login = decoded
      ? {
          username: decoded.slice(0, decoded.indexOf(':')),
          password: decoded.slice(decoded.indexOf(':') + 1),
        }
      : null;
    if (login?.username !== fake.uploadLogin.username || login.password !== fake.uploadLogin.password) {
      return fail(res, 401, 'auth.unauthenticated', 'The camera upload login is not correct');
    }
    const form = await new Response(body, {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
    const file = form.get('file');
    if (!(file instanceof File)) return fail(res, 400, 'validation_failed', 'Attach a file');
    if (fake.ingestStatus >= 300) return fail(res, fake.ingestStatus, 'internal', 'Not now');
    const cameraName = form.get('camera_name');
    fake.ingests.push({
      cameraName: typeof cameraName === 'string' ? cameraName : null,
      fileName: file.name,
      contentType: file.type,
      bytes: Buffer.from(await file.arrayBuffer()),
      login,
    });
    json(res, 202, { success: true, data: { upload_ids: [randomUUID()] } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => fail(res, 500, 'internal', String(err)));
  });
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (!signedIn(req)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n');
      return;
    }
    const live = /^\/api\/helper\/live\/([^/]+)$/.exec(path);
    if (path !== '/api/helper/connect' && !live) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      if (live) {
        const capture: LiveCapture = {
          cameraUuid: decodeURIComponent(live[1]!),
          texts: [],
          binaries: 0,
          closed: false,
        };
        fake.lives.push(capture);
        ws.on('message', (data, isBinary) => {
          if (isBinary) capture.binaries += 1;
          else capture.texts.push(text(data));
        });
        ws.on('close', () => (capture.closed = true));
        return;
      }
      fake.controlConnections += 1;
      controls.add(ws);
      // As the real server: a helper that connects is sent the user's helper cameras at once.
      fake.sendCameraList();
      ws.on('close', () => controls.delete(ws));
      ws.on('message', (data) => {
        const message = JSON.parse(text(data)) as HelperToServerMessage;
        fake.helperMessages.push(message);
        if (message.type !== 'hello') {
          const entry = fake.cameras.get(message.camera_uuid);
          if (entry) entry.camera = { ...entry.camera, configuration_status: message.configuration_status };
        }
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
