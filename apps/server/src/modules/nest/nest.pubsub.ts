import { createSign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { NestProviderError } from './nest.google.js';

/**
 * Cloud Pub/Sub REST, as documented: `POST {subscription}:pull` answers `{receivedMessages: [{ackId,
 * message: {data (base64), messageId, publishTime}, deliveryAttempt}]}`
 * (https://cloud.google.com/pubsub/docs/reference/rest/v1/projects.subscriptions/pull) and
 * `POST {subscription}:acknowledge` takes `{ackIds}`
 * (https://cloud.google.com/pubsub/docs/reference/rest/v1/projects.subscriptions/acknowledge).
 */
export interface PulledMessage {
  ackId: string;
  message: { data?: string; messageId: string; publishTime?: string };
}

const PULL_TIMEOUT_MS = 60_000;

export function createPubsub(config: { url: string; subscription: string; fetch?: typeof fetch }) {
  const fetchFn = config.fetch ?? fetch;
  const base = `${config.url.replace(/\/+$/, '')}/${config.subscription}`;
  async function post(what: string, token: string, body: unknown, signal?: AbortSignal) {
    const res = await fetchFn(`${base}:${what}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(PULL_TIMEOUT_MS)]) : undefined,
    }).catch((err: Error) => {
      throw new NestProviderError(`Pub/Sub not reachable: ${err.message}`);
    });
    if (!res.ok) throw new NestProviderError(`Pub/Sub ${what} answered ${res.status}`, res.status);
    return (await res.json()) as Record<string, unknown>;
  }
  return {
    /** Waits (as Pub/Sub does) until messages are there or its own time is up. */
    async pull(token: string, signal: AbortSignal): Promise<PulledMessage[]> {
      const body = await post('pull', token, { maxMessages: 10 }, signal);
      return (body.receivedMessages as PulledMessage[] | undefined) ?? [];
    },
    async acknowledge(token: string, ackIds: string[]): Promise<void> {
      if (ackIds.length > 0) await post('acknowledge', token, { ackIds });
    },
  };
}
export type Pubsub = ReturnType<typeof createPubsub>;

/**
 * A service account's access token by the JWT bearer grant
 * (https://developers.google.com/identity/protocols/oauth2/service-account#httprest), kept until shortly
 * before it ends.
 */
export function createServiceAccountTokens(options: {
  file: string;
  tokenUrl: string;
  scope: string;
  now?: () => Date;
}) {
  const now = options.now ?? (() => new Date());
  let cached: { token: string; until: number } | null = null;
  return async function token(): Promise<string> {
    if (cached && cached.until > now().getTime()) return cached.token;
    const key = JSON.parse(await readFile(options.file, 'utf8')) as {
      client_email: string;
      private_key: string;
    };
    const iat = Math.floor(now().getTime() / 1000);
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({
      iss: key.client_email,
      scope: options.scope,
      aud: options.tokenUrl,
      iat,
      exp: iat + 3600,
    })}`;
    const signature = createSign('RSA-SHA256').update(unsigned).sign(key.private_key, 'base64url');
    const res = await fetch(options.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: `${unsigned}.${signature}`,
      }).toString(),
    });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new NestProviderError(`service account token: ${res.status}`);
    cached = { token: body.access_token, until: now().getTime() + ((body.expires_in ?? 3600) - 120) * 1000 };
    return body.access_token;
  };
}
