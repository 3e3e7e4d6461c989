import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';
import { selfSignedCertificate } from './tls.js';

// Local servers on 127.0.0.1 that speak the push services' own HTTP APIs and check what they are sent the
// way the real services do: Web Push (VAPID JWT, aes128gcm decrypted with the subscription's keys), FCM
// HTTP v1 (OAuth2 JWT-bearer assertion verified with the service account's public key) and APNs (HTTP/2
// over TLS, ES256 provider token verified with the auth key's public key).

/** One push as a service received it, decoded. */
export interface ReceivedPush {
  token: string;
  title: string;
  body: string;
  data: Record<string, string>;
  imageUrl?: string;
  headers: Record<string, string>;
  /** The decoded JWT claims that authorised the request. */
  claims: JWTPayload;
}

/** Tokens the service answers "gone" (dead) or "unavailable" (transient) for. */
export interface FakeServiceControls {
  received: ReceivedPush[];
  dead: Set<string>;
  failing: Set<string>;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage | http2.Http2ServerRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function flatHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') out[k] = v;
  return out;
}

const listen = (server: Server | http2.Http2SecureServer) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

const closeServer = (server: Server | http2.Http2SecureServer) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

// ---------------------------------------------------------------------------------------------- Web Push

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 decryption of a single-record aes128gcm body with the user agent's keys. */
function decryptAes128gcm(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = hmac(hmac(auth, ecdhSecret), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with a 0x02 delimiter followed by optional zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('bad aes128gcm padding delimiter');
  return padded.subarray(0, end);
}

export interface FakeWebPush extends FakeServiceControls {
  origin: string;
  /** An https.Agent that trusts this server's certificate, for the Web Push provider. */
  agent: https.Agent;
  /** A browser's subscription to this push service, as the JSON a browser hands out. */
  subscribe(): string;
  /** Decrypted payloads as the browser's service worker would see them, by subscription token. */
  payloads: { token: string; payload: unknown }[];
}

export async function startFakeWebPush(vapidPublicKey: string): Promise<FakeWebPush> {
  const { key, cert } = selfSignedCertificate();
  const subscriptions = new Map<
    string,
    { token: string; ecdh: ReturnType<typeof createECDH>; auth: Buffer }
  >();
  const received: ReceivedPush[] = [];
  const payloads: { token: string; payload: unknown }[] = [];
  const dead = new Set<string>();
  const failing = new Set<string>();
  let origin = '';
  const vapidKey = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: Buffer.from(vapidPublicKey, 'base64url').subarray(1, 33).toString('base64url'),
      y: Buffer.from(vapidPublicKey, 'base64url').subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );

  const server = https.createServer({ key, cert }, (req, res) => {
    void (async () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const sub = id ? subscriptions.get(id) : undefined;
      const body = await readBody(req);
      if (req.method !== 'POST' || !sub) return res.writeHead(404).end();
      if (dead.has(sub.token)) return res.writeHead(410).end('subscription has unsubscribed or expired');
      if (failing.has(sub.token)) return res.writeHead(503).end('try later');
      const auth = /^vapid t=([^,]+), k=([A-Za-z0-9_-]+)$/.exec(req.headers.authorization ?? '');
      if (!auth || auth[2] !== vapidPublicKey) return res.writeHead(401).end('bad vapid header');
      let claims: JWTPayload;
      try {
        ({ payload: claims } = await jwtVerify(auth[1] ?? '', vapidKey, { audience: origin }));
      } catch {
        return res.writeHead(403).end('bad vapid token');
      }
      if (req.headers['content-encoding'] !== 'aes128gcm') return res.writeHead(415).end();
      const plain = JSON.parse(decryptAes128gcm(body, sub.ecdh, sub.auth).toString('utf8')) as {
        title: string;
        body: string;
        image?: string;
        data: Record<string, string>;
      };
      payloads.push({ token: sub.token, payload: plain });
      received.push({
        token: sub.token,
        title: plain.title,
        body: plain.body,
        data: plain.data,
        ...(plain.image ? { imageUrl: plain.image } : {}),
        headers: flatHeaders(req.headers),
        claims,
      });
      res.writeHead(201, { location: `${origin}/message/${randomBytes(4).toString('hex')}` }).end();
    })();
  });
  const port = await listen(server);
  origin = `https://127.0.0.1:${port}`;
  const agent = new https.Agent({ ca: cert, keepAlive: false });
  return {
    origin,
    agent,
    received,
    payloads,
    dead,
    failing,
    subscribe() {
      const id = randomBytes(6).toString('hex');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const token = JSON.stringify({
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      });
      subscriptions.set(id, { token, ecdh, auth });
      return token;
    },
    close: async () => {
      agent.destroy();
      await closeServer(server);
    },
  };
}

// -------------------------------------------------------------------------------------------------- FCM

export interface FakeFcm extends FakeServiceControls {
  baseUrl: string;
  tokenUrl: string;
  projectId: string;
  account: { projectId: string; clientEmail: string; privateKey: string; privateKeyId: string };
  /** How many access tokens the token endpoint handed out. */
  tokenExchanges(): number;
  /** Makes the next send answer 401, as FCM does for a revoked access token. */
  revokeAccessTokens(): void;
}

export async function startFakeFcm(): Promise<FakeFcm> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const account = {
    projectId: 'homesitter-test',
    clientEmail: 'push@homesitter-test.iam.gserviceaccount.com',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKeyId: 'key-1',
  };
  const received: ReceivedPush[] = [];
  const dead = new Set<string>();
  const failing = new Set<string>();
  const accessTokens = new Map<string, JWTPayload>();
  let exchanges = 0;
  let baseUrl = '';

  const json = (res: ServerResponse, status: number, value: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const googleError = (status: number, code: string, errorCode?: string) => ({
    error: {
      code: status,
      message: `${code} in the fake`,
      status: code,
      details: errorCode
        ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }]
        : [],
    },
  });

  const server = createServer((req, res) => {
    void (async () => {
      const body = (await readBody(req)).toString('utf8');
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
          return json(res, 400, { error: 'unsupported_grant_type' });
        try {
          const { payload } = await jwtVerify(form.get('assertion') ?? '', publicKey, {
            issuer: account.clientEmail,
            audience: `${baseUrl}/token`,
            algorithms: ['RS256'],
          });
          if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging')
            return json(res, 400, { error: 'invalid_scope' });
          exchanges += 1;
          const accessToken = `ya29.${randomBytes(12).toString('hex')}`;
          accessTokens.set(accessToken, payload);
          return json(res, 200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' });
        } catch {
          return json(res, 400, { error: 'invalid_grant' });
        }
      }
      if (req.method === 'POST' && req.url === `/v1/projects/${account.projectId}/messages:send`) {
        const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        const claims = accessTokens.get(bearer);
        if (!claims) return json(res, 401, googleError(401, 'UNAUTHENTICATED'));
        const { message } = JSON.parse(body) as {
          message: {
            token: string;
            notification: { title: string; body: string; image?: string };
            data: Record<string, string>;
          };
        };
        if (Object.values(message.data).some((v) => typeof v !== 'string'))
          return json(res, 400, googleError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT'));
        if (dead.has(message.token)) return json(res, 404, googleError(404, 'NOT_FOUND', 'UNREGISTERED'));
        if (failing.has(message.token)) return json(res, 503, googleError(503, 'UNAVAILABLE', 'UNAVAILABLE'));
        received.push({
          token: message.token,
          title: message.notification.title,
          body: message.notification.body,
          data: message.data,
          ...(message.notification.image ? { imageUrl: message.notification.image } : {}),
          headers: { ...flatHeaders(req.headers), 'x-message': JSON.stringify(message) },
          claims,
        });
        return json(res, 200, {
          name: `projects/${account.projectId}/messages/${randomBytes(6).toString('hex')}`,
        });
      }
      return json(res, 404, googleError(404, 'NOT_FOUND'));
    })();
  });
  baseUrl = `http://127.0.0.1:${await listen(server)}`;
  return {
    baseUrl,
    tokenUrl: `${baseUrl}/token`,
    projectId: account.projectId,
    account,
    received,
    dead,
    failing,
    tokenExchanges: () => exchanges,
    revokeAccessTokens: () => accessTokens.clear(),
    close: () => closeServer(server),
  };
}

// ------------------------------------------------------------------------------------------------- APNs

export interface FakeApns extends FakeServiceControls {
  baseUrl: string;
  /** The server's certificate, to trust. */
  ca: string;
  key: { keyId: string; teamId: string; privateKey: string; bundleId: string };
  /** Tokens answered 400 BadDeviceToken (as a production server answers a sandbox token). */
  badDeviceTokens: Set<string>;
  /** HTTP/2 sessions clients opened (the provider should keep one open). */
  sessions(): number;
}

export async function startFakeApns(): Promise<FakeApns> {
  const tls = selfSignedCertificate();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key = {
    keyId: 'ABC123DEFG',
    teamId: 'TEAM123456',
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    bundleId: 'app.homesitter.ios',
  };
  const received: ReceivedPush[] = [];
  const dead = new Set<string>();
  const failing = new Set<string>();
  const badDeviceTokens = new Set<string>();
  let sessions = 0;

  const server = http2.createSecureServer({ key: tls.key, cert: tls.cert });
  server.on('session', () => {
    sessions += 1;
  });
  server.on('stream', (stream, headers) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      const answer = (status: number, reason?: string) => {
        stream.respond({ ':status': status, 'apns-id': randomBytes(16).toString('hex') });
        stream.end(
          reason
            ? JSON.stringify({ reason, ...(status === 410 ? { timestamp: Date.now() } : {}) })
            : undefined,
        );
      };
      const token = /^\/3\/device\/(.+)$/.exec(String(headers[':path']))?.[1];
      if (headers[':method'] !== 'POST' || !token) return answer(404, 'BadPath');
      const jwt = /^bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1];
      if (!jwt) return answer(403, 'MissingProviderToken');
      let claims: JWTPayload;
      try {
        const verified = await jwtVerify(
          jwt,
          createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })),
          {
            issuer: key.teamId,
            algorithms: ['ES256'],
          },
        );
        if (verified.protectedHeader.kid !== key.keyId) return answer(403, 'InvalidProviderToken');
        claims = verified.payload;
      } catch {
        return answer(403, 'InvalidProviderToken');
      }
      if (headers['apns-topic'] !== key.bundleId) return answer(400, 'TopicDisallowed');
      if (headers['apns-push-type'] !== 'alert') return answer(400, 'InvalidPushType');
      if (dead.has(token)) return answer(410, 'Unregistered');
      if (badDeviceTokens.has(token)) return answer(400, 'BadDeviceToken');
      if (failing.has(token)) return answer(503, 'ServiceUnavailable');
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        aps: { alert: { title: string; body: string } };
        image_url?: string;
      } & Record<string, unknown>;
      const { aps, ...rest } = payload;
      const data = Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'image_url')) as Record<
        string,
        string
      >;
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (typeof v === 'string') flat[k] = v;
      flat['x-payload'] = JSON.stringify(payload);
      received.push({
        token,
        title: aps.alert.title,
        body: aps.alert.body,
        data,
        ...(payload.image_url ? { imageUrl: payload.image_url } : {}),
        headers: flat,
        claims,
      });
      answer(200);
    })();
  });
  const port = await listen(server);
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    ca: tls.cert,
    key,
    received,
    dead,
    failing,
    badDeviceTokens,
    sessions: () => sessions,
    close: async () => {
      // Waits for client sessions too: close the provider first.
      await closeServer(server);
    },
  };
}

/** A random APNs device token (32 bytes, hex). */
export const apnsDeviceToken = () => randomBytes(32).toString('hex');
/** A random FCM registration token. */
export const fcmRegistrationToken = () =>
  `${randomBytes(11).toString('base64url')}:APA91b${randomBytes(60).toString('base64url')}`;
