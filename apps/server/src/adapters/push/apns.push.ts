import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http2, { type ClientHttp2Session } from 'node:http2';
import { importPKCS8, SignJWT } from 'jose';
import { pemFromEnv } from './fcm.push.js';
import {
  dataFields,
  isUrgent,
  PUSH_TTL_SECONDS,
  PushProviderError,
  shortCollapseKey,
  type PushMessage,
  type PushProvider,
  type PushTarget,
} from './push.js';

export const APNS_PRODUCTION_URL = 'https://api.push.apple.com';
export const APNS_SANDBOX_URL = 'https://api.sandbox.push.apple.com';

export interface ApnsKey {
  keyId: string;
  teamId: string;
  /** The `.p8` auth key (PKCS#8 PEM, P-256). */
  privateKey: string;
  bundleId: string;
}

export interface ApnsOptions extends ApnsKey {
  /** One server for every token (tests); unset picks production or sandbox by the token's `isSandbox`. */
  baseUrl?: string | undefined;
  timeoutMs: number;
  /** Extra TLS trust (tests pass their local server's self-signed certificate). */
  ca?: string;
  now?: () => number;
}

/**
 * Apple asks for a new provider token at most every 20 minutes and at least every 60; one is reused for
 * 50 minutes.
 */
const PROVIDER_TOKEN_TTL_MS = 50 * 60_000;
/** APNs reasons after which the token will never work for this app again. */
const DEAD_TOKEN_REASONS = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic']);
/** Reasons that mean the provider token itself was refused: make a new one for the next try. */
const PROVIDER_TOKEN_REASONS = new Set(['ExpiredProviderToken', 'InvalidProviderToken']);
const DEVICE_TOKEN = /^[0-9a-fA-F]{32,200}$/;

/** The APNs key from the `APNS_*` settings; undefined when APNs is not configured. Half a set is an error. */
export function loadApnsKey(input: {
  keyId?: string | undefined;
  teamId?: string | undefined;
  privateKey?: string | undefined;
  privateKeyFile?: string | undefined;
  bundleId?: string | undefined;
}): ApnsKey | undefined {
  const pem = input.privateKeyFile ? readFileSync(input.privateKeyFile, 'utf8') : input.privateKey;
  const given = [input.keyId, input.teamId, pem, input.bundleId].filter(Boolean).length;
  if (given === 0) return undefined;
  if (!input.keyId || !input.teamId || !pem || !input.bundleId) {
    throw new Error(
      'APNs needs APNS_KEY_ID, APNS_TEAM_ID, APNS_BUNDLE_ID and APNS_PRIVATE_KEY (or APNS_PRIVATE_KEY_FILE) together',
    );
  }
  const privateKey = pemFromEnv(pem);
  try {
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'ec') throw new Error('not an EC key');
  } catch {
    throw new Error('APNS_PRIVATE_KEY: not a .p8 auth key (PKCS#8 PEM, P-256)');
  }
  return { keyId: input.keyId, teamId: input.teamId, privateKey, bundleId: input.bundleId };
}

/** The JSON body APNs delivers: the alert in `aps`, our notification data beside it. */
export function apnsPayload(message: PushMessage) {
  return {
    aps: {
      alert: { title: message.title, body: message.body },
      sound: 'default',
      // Lets the app's notification service extension fetch and attach the snapshot.
      ...(message.imageUrl ? { 'mutable-content': 1 } : {}),
    },
    ...dataFields(message),
  };
}

interface ApnsAnswer {
  status: number;
  reason?: string;
}

/**
 * Apple Push Notification service, token-based: an ES256 provider JWT signs every request on a kept-open
 * HTTP/2 connection (one per APNs host), as Apple asks; the connection is reopened when it closes.
 */
export function createApnsProvider(options: ApnsOptions): PushProvider {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, ClientHttp2Session>();
  let signingKey: ReturnType<typeof importPKCS8> | undefined;
  let providerToken: { jwt: string; madeAt: number } | undefined;

  async function bearer(): Promise<string> {
    if (providerToken && now() - providerToken.madeAt < PROVIDER_TOKEN_TTL_MS) return providerToken.jwt;
    const madeAt = now();
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: options.keyId })
      .setIssuer(options.teamId)
      .setIssuedAt(Math.floor(madeAt / 1000))
      .sign(await (signingKey ??= importPKCS8(options.privateKey, 'ES256')));
    providerToken = { jwt, madeAt };
    return jwt;
  }

  function session(origin: string): ClientHttp2Session {
    const open = sessions.get(origin);
    if (open && !open.closed && !open.destroyed) return open;
    const created = http2.connect(origin, options.ca ? { ca: options.ca } : {});
    // An idle connection must not keep the process alive, nor an error on it crash it.
    created.unref();
    created.on('error', () => sessions.delete(origin));
    created.on('goaway', () => sessions.delete(origin));
    created.on('close', () => {
      if (sessions.get(origin) === created) sessions.delete(origin);
    });
    sessions.set(origin, created);
    return created;
  }

  function post(origin: string, headers: http2.OutgoingHttpHeaders, body: string): Promise<ApnsAnswer> {
    return new Promise((resolve, reject) => {
      let req: http2.ClientHttp2Stream;
      try {
        req = session(origin).request(headers);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      let status = 0;
      const chunks: Buffer[] = [];
      req.setTimeout(options.timeoutMs, () => req.close(http2.constants.NGHTTP2_CANCEL));
      req.on('response', (h) => {
        status = Number(h[':status']);
      });
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('error', reject);
      req.on('close', () => {
        if (!status) {
          reject(new Error('APNs closed the stream without an answer'));
          return;
        }
        let reason: string | undefined;
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          if (text) reason = (JSON.parse(text) as { reason?: string }).reason;
        } catch {
          // An answer without a JSON body: the status says enough.
        }
        resolve({ status, ...(reason ? { reason } : {}) });
      });
      req.end(body);
    });
  }

  return {
    kind: 'apns',
    async send(target: PushTarget, message: PushMessage) {
      // A token that is not hex can never be a device token (and must never reach the request path).
      if (!DEVICE_TOKEN.test(target.token)) return 'dead-token';
      const origin = options.baseUrl ?? (target.isSandbox ? APNS_SANDBOX_URL : APNS_PRODUCTION_URL);
      const headers: http2.OutgoingHttpHeaders = {
        ':method': 'POST',
        ':path': `/3/device/${target.token}`,
        authorization: `bearer ${await bearer()}`,
        'apns-topic': options.bundleId,
        'apns-push-type': 'alert',
        'apns-priority': isUrgent(message) ? '10' : '5',
        'apns-expiration': String(Math.floor(now() / 1000) + PUSH_TTL_SECONDS),
        'content-type': 'application/json',
        ...(message.collapseKey ? { 'apns-collapse-id': shortCollapseKey(message.collapseKey, 64) } : {}),
      };
      let answer: ApnsAnswer;
      try {
        answer = await post(origin, headers, JSON.stringify(apnsPayload(message)));
      } catch (error) {
        throw new PushProviderError('apns', error instanceof Error ? error.message : String(error));
      }
      if (answer.status === 200) return 'sent';
      if (answer.status === 410 || (answer.reason && DEAD_TOKEN_REASONS.has(answer.reason)))
        return 'dead-token';
      if (answer.reason && PROVIDER_TOKEN_REASONS.has(answer.reason)) providerToken = undefined;
      throw new PushProviderError('apns', 'APNs refused the notification', answer.status, answer.reason);
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(
        open.map((s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.close(() => resolve())))),
      );
    },
  };
}
