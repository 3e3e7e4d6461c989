/**
 * The `Authorization` answer to a camera's 401 challenge (RFC 7617 Basic, RFC 7616 Digest with MD5 and
 * qop=auth or none), for HTTP and RTSP alike. The phone's native code leaves this to the platform
 * (Android's Authenticator, iOS's URLCredential) for HTTP and mirrors it for RTSP; Node has no such thing.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Challenge {
  scheme: 'basic' | 'digest';
  params: Record<string, string>;
}

/** The first Digest challenge of a `WWW-Authenticate` header, else its Basic one; null when neither. */
export function parseChallenge(header: string | undefined): Challenge | null {
  if (!header) return null;
  const digest = /Digest\s+(.+)/i.exec(header);
  if (digest) return { scheme: 'digest', params: parseParams(digest[1]!) };
  if (/^\s*Basic\b/i.test(header)) return { scheme: 'basic', params: {} };
  return null;
}

export function authorization(
  challenge: Challenge,
  login: { username: string; password: string },
  request: { method: string; uri: string; nc?: number },
): string {
  if (challenge.scheme === 'basic') {
    return `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
  }
  const { realm = '', nonce = '', opaque, qop } = challenge.params;
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const ha1 = md5(`${login.username}:${realm}:${login.password}`);
  const ha2 = md5(`${request.method}:${request.uri}`);
  const fields = [
    `username="${login.username}"`,
    `realm="${realm}"`,
    `nonce="${nonce}"`,
    `uri="${request.uri}"`,
  ];
  const wantsAuth = qop?.split(',').some((value) => value.trim() === 'auth');
  if (wantsAuth) {
    const nc = (request.nc ?? 1).toString(16).padStart(8, '0');
    const cnonce = randomBytes(8).toString('hex');
    fields.push(
      `response="${md5(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`)}"`,
      'qop=auth',
      `nc=${nc}`,
      `cnonce="${cnonce}"`,
    );
  } else {
    fields.push(`response="${md5(`${ha1}:${nonce}:${ha2}`)}"`);
  }
  if (opaque !== undefined) fields.push(`opaque="${opaque}"`);
  fields.push('algorithm=MD5');
  return `Digest ${fields.join(', ')}`;
}

function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of text.matchAll(/(\w+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/g)) {
    params[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? '';
  }
  return params;
}
