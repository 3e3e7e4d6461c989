import { createServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Client, type FTPContext, type FTPResponse } from 'basic-ftp';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../../test/app.js';
import { jpegWithLocation } from '../../../test/images.js';
import type { IngestServerPorts, IngestServers } from './ingest.servers.js';

export interface UploadLogin {
  username: string;
  password: string;
}

export interface IngestHarness {
  t: TestApp;
  servers: IngestServers;
  /** The passive port range of this harness (other FTP servers of the test may share it). */
  pasvRange: [number, number];
  close(): Promise<void>;
}

/**
 * The whole app with its FTP and SMTP servers on free ports. Each test file gets its own passive range so
 * files running in parallel do not compete for ports.
 */
export async function startIngestHarness(
  env: Record<string, string> = {},
  overrides: IngestServerPorts = {},
): Promise<IngestHarness> {
  const t = await createTestApp({ env });
  const pasvMin = 40_000 + Math.floor(Math.random() * 400) * 50;
  const servers = await t.modules.ingest.startServers({
    FTP_PORT: 0,
    INGEST_SMTP_PORT: 0,
    FTP_PASV_MIN: pasvMin,
    FTP_PASV_MAX: pasvMin + 49,
    ...overrides,
  });
  return {
    t,
    servers,
    pasvRange: [pasvMin, pasvMin + 49],
    async close() {
      await servers.close();
      await t.close();
    },
  };
}

/** A signed-up user and their camera upload login. */
export async function userWithLogin(t: TestApp): Promise<{ user: TestUser; login: UploadLogin }> {
  const user = await signUp(t);
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/users/camera-email-credentials',
    headers: user.auth,
  });
  if (res.statusCode !== 200) throw new Error(`credentials: ${res.statusCode} ${res.body}`);
  const { username, password } = res.json<{ data: UploadLogin }>().data;
  return { user, login: { username, password } };
}

export async function userIdOf(t: TestApp, user: TestUser): Promise<string> {
  const rows = await t.database.query<{ id: string }>('SELECT id FROM users WHERE auth_subject = $1', [
    user.uid,
  ]);
  if (!rows[0]) throw new Error('no user row');
  return rows[0].id;
}

export interface UploadRowView {
  id: string;
  camera_name: string;
  source: string;
  storage_key: string;
  original_name: string;
  media_kind: string;
  content_type: string;
  size_bytes: string | number;
  status: string;
}

export async function uploadsOf(t: TestApp, userId: string): Promise<UploadRowView[]> {
  return t.database.query<UploadRowView>(
    `SELECT id, camera_name, source, storage_key, original_name, media_kind, content_type, size_bytes, status
     FROM uploads WHERE user_id = $1 ORDER BY received_at, original_name`,
    [userId],
  );
}

/** Whether the upload's `activities.process-upload` job was committed (in any state: it may have run already). */
export async function hasProcessJob(t: TestApp, uploadId: string): Promise<boolean> {
  const rows = await t.database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'activities.process-upload' AND data->>'uploadId' = $1`,
    [uploadId],
  );
  return (rows[0]?.n ?? 0) === 1;
}

/** Every object stored under the user's uploads folder. */
export async function storedUploads(t: TestApp, userId: string): Promise<string[]> {
  const { createStorageFromConfig } = await import('../../adapters/storage/from-config.js');
  const storage = createStorageFromConfig(t.deps.config, () => '');
  const keys: string[] = [];
  for await (const o of storage.list(`users/${userId}/uploads`)) keys.push(o.key);
  return keys;
}

export async function refusedCount(t: TestApp, userId: string): Promise<number> {
  const rows = await t.database.query<{ count: number }>(
    `SELECT count FROM ingest_counters WHERE user_id = $1 AND reason = 'refused'`,
    [userId],
  );
  return rows[0]?.count ?? 0;
}

export async function ftpClient(port: number, login: UploadLogin, mode: 'passive' | 'active' = 'passive') {
  const client = new Client(10_000);
  await client.access({ host: '127.0.0.1', port, user: login.username, password: login.password });
  if (mode === 'active') client.prepareTransfer = activeMode;
  return client;
}

/**
 * Active mode for basic-ftp (which only does passive itself): listen on a local port, tell the server with
 * PORT, and take the connection it opens as the data socket.
 */
async function activeMode(ftp: FTPContext): Promise<FTPResponse> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  try {
    const res = await ftp.request(`PORT 127,0,0,1,${port >> 8},${port & 255}`);
    ftp.dataSocket = await accepted;
    return res;
  } finally {
    server.close();
  }
}

export const bytes = (buf: Buffer) => Readable.from([buf]);

let jpegCache: Buffer | undefined;
export async function smallJpeg(): Promise<Buffer> {
  jpegCache ??= await jpegWithLocation(160, 120);
  return jpegCache;
}
