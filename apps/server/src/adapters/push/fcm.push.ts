import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { importPKCS8, SignJWT } from 'jose';
import {
  dataFields,
  isUrgent,
  PUSH_TTL_SECONDS,
  PushProviderError,
  type PushMessage,
  type PushProvider,
  type PushTarget,
} from './push.js';

/** The fields of a Google service account that may send FCM messages. */
export interface FcmServiceAccount {
  projectId: string;
  clientEmail: string;
  /** PKCS#8 PEM (the service account JSON's `private_key`). */
  privateKey: string;
  privateKeyId?: string;
}

export interface FcmOptions {
  account: FcmServiceAccount;
  /** OAuth2 token endpoint (https://oauth2.googleapis.com/token). */
  tokenUrl: string;
  /** FCM API base (https://fcm.googleapis.com). */
  baseUrl: string;
  timeoutMs: number;
  now?: () => number;
}

const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
/** An access token is renewed this long before Google says it expires. */
const RENEW_MARGIN_MS = 60_000;
/** FCM error codes after which the token will never work for this project again. */
const DEAD_TOKEN_CODES = new Set(['UNREGISTERED', 'SENDER_ID_MISMATCH']);

/** PEM text from an environment variable, where newlines are often written as `\n`. */
export function pemFromEnv(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

/**
 * The service account: from `FCM_SERVICE_ACCOUNT_FILE` (the JSON Google hands out) or the three
 * `FCM_*` fields; undefined when neither is configured (FCM off). Half a configuration is an error.
 */
export function loadFcmServiceAccount(input: {
  projectId?: string | undefined;
  clientEmail?: string | undefined;
  privateKey?: string | undefined;
  file?: string | undefined;
}): FcmServiceAccount | undefined {
  if (input.file) {
    const json = JSON.parse(readFileSync(input.file, 'utf8')) as Record<string, unknown>;
    const { project_id, client_email, private_key, private_key_id } = json;
    if (typeof client_email !== 'string' || typeof private_key !== 'string') {
      throw new Error(`${input.file}: not a service account (client_email and private_key are missing)`);
    }
    const projectId = input.projectId ?? (typeof project_id === 'string' ? project_id : undefined);
    if (!projectId) throw new Error(`${input.file}: no project_id; set FCM_PROJECT_ID`);
    assertPrivateKey(private_key, input.file);
    return {
      projectId,
      clientEmail: client_email,
      privateKey: private_key,
      ...(typeof private_key_id === 'string' ? { privateKeyId: private_key_id } : {}),
    };
  }
  const given = [input.projectId, input.clientEmail, input.privateKey].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3 || !input.projectId || !input.clientEmail || !input.privateKey) {
    throw new Error('FCM needs FCM_PROJECT_ID, FCM_CLIENT_EMAIL and FCM_PRIVATE_KEY together');
  }
  const privateKey = pemFromEnv(input.privateKey);
  assertPrivateKey(privateKey, 'FCM_PRIVATE_KEY');
  return { projectId: input.projectId, clientEmail: input.clientEmail, privateKey };
}

/** A key that cannot sign fails at start-up, not on the first alert. */
function assertPrivateKey(pem: string, where: string): void {
  try {
    createPrivateKey(pem);
  } catch {
    throw new Error(`${where}: the service account private key is not a PEM private key`);
  }
}

interface GoogleError {
  error?: { status?: string; message?: string; details?: { errorCode?: string }[] };
}

async function readJson<T>(response: Response): Promise<T | undefined> {
  try {
    return (await response.json()) as T;
  } catch {
    return undefined;
  }
}

/** The FCM HTTP v1 message for one device token. FCM data values must be strings. */
export function fcmMessage(target: PushTarget, message: PushMessage) {
  return {
    message: {
      token: target.token,
      notification: {
        title: message.title,
        body: message.body,
        ...(message.imageUrl ? { image: message.imageUrl } : {}),
      },
      data: dataFields(message),
      android: {
        priority: isUrgent(message) ? 'HIGH' : 'NORMAL',
        ttl: `${PUSH_TTL_SECONDS}s`,
        ...(message.collapseKey ? { collapse_key: message.collapseKey } : {}),
        notification: message.collapseKey ? { tag: message.collapseKey } : {},
      },
    },
  };
}

/**
 * Firebase Cloud Messaging, HTTP v1 API. The service account signs a JWT (RS256) and trades it for an OAuth2
 * access token (RFC 7523 JWT bearer grant), kept until shortly before it expires; messages go to
 * `/v1/projects/{project}/messages:send`.
 */
export function createFcmProvider(options: FcmOptions): PushProvider {
  const { account } = options;
  const now = options.now ?? Date.now;
  const sendUrl = new URL(
    `/v1/projects/${encodeURIComponent(account.projectId)}/messages:send`,
    options.baseUrl,
  ).toString();
  let signingKey: ReturnType<typeof importPKCS8> | undefined;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function post(
    url: string,
    init: { headers: Record<string, string>; body: string | URLSearchParams },
  ) {
    try {
      return await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      throw new PushProviderError('fcm', error instanceof Error ? error.message : String(error));
    }
  }

  async function fetchAccessToken(): Promise<string> {
    const issuedAt = Math.floor(now() / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(account.privateKeyId ? { kid: account.privateKeyId } : {}),
      })
      .setIssuer(account.clientEmail)
      .setAudience(options.tokenUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 3600)
      .sign(await (signingKey ??= importPKCS8(account.privateKey, 'RS256')));
    const response = await post(options.tokenUrl, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    const body = await readJson<{ access_token?: string; expires_in?: number; error?: string }>(response);
    if (!response.ok || !body?.access_token) {
      throw new PushProviderError(
        'fcm',
        'the token endpoint refused the service account',
        response.status,
        body?.error,
      );
    }
    cached = {
      token: body.access_token,
      expiresAt: now() + (body.expires_in ?? 3600) * 1000 - RENEW_MARGIN_MS,
    };
    return body.access_token;
  }

  /** One token exchange at a time: concurrent sends wait for the same one. */
  function accessToken(): Promise<string> {
    if (cached && cached.expiresAt > now()) return Promise.resolve(cached.token);
    pending ??= fetchAccessToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    kind: 'fcm',
    async send(target: PushTarget, message: PushMessage) {
      const token = await accessToken();
      const response = await post(sendUrl, {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(fcmMessage(target, message)),
      });
      if (response.ok) return 'sent';
      const body = await readJson<GoogleError>(response);
      const code = body?.error?.details?.find((d) => d.errorCode)?.errorCode ?? body?.error?.status;
      if (response.status === 404 || (code && DEAD_TOKEN_CODES.has(code))) return 'dead-token';
      // The access token was revoked or expired early: the next send fetches a new one.
      if (response.status === 401) cached = undefined;
      throw new PushProviderError('fcm', 'FCM refused the message', response.status, code);
    },
    async close() {},
  };
}
