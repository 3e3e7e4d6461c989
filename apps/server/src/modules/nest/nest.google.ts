/**
 * Google's side of Nest, as documented:
 * - consent (Partner Connections Manager): https://developers.google.com/nest/device-access/authorize
 * - OAuth token endpoint and revocation: https://developers.google.com/identity/protocols/oauth2/web-server
 * - SDM devices: https://developers.google.com/nest/device-access/reference/rest/v1/enterprises.devices/list
 */

export const SDM_SCOPE = 'https://www.googleapis.com/auth/sdm.service';
export const PUBSUB_SCOPE = 'https://www.googleapis.com/auth/pubsub';

/** Google answered `invalid_grant`: the refresh token was revoked or has expired; only a new consent helps. */
export class NestGrantError extends Error {
  constructor(message = 'invalid_grant') {
    super(message);
    this.name = 'NestGrantError';
  }
}

/** Google could not be reached or answered with something other than success (not a grant problem). */
export class NestProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    /** Google's `Retry-After` (seconds) on a 429, when it gave one. */
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'NestProviderError';
  }
}

/** A generated (or extended) RTSP stream of a camera (`CameraLiveStream`). */
export interface RtspStream {
  /** Google's stream address (not user input: `CAMERA_NETWORKS` does not apply). */
  rtspUrl: string;
  extensionToken: string;
  expiresAt: Date;
}

/** A WebRTC stream Google started for a browser's offer (`CameraLiveStream`). */
export interface WebRtcStream {
  answerSdp: string;
  /** Google's id of the stream: extending and stopping name it; it never leaves the server. */
  mediaSessionId: string;
  expiresAt: Date;
}

export interface NestTokens {
  accessToken: string;
  /** Only the authorization-code exchange hands one out. */
  refreshToken: string | null;
  expiresAt: Date;
}

/** One device of `enterprises.devices.list`, as much as Homesitter reads of it. */
export interface SdmDevice {
  name: string;
  type: string;
  traits: Record<string, Record<string, unknown> | undefined>;
  parentRelations?: { parent: string; displayName?: string }[];
}

export interface NestGoogleConfig {
  projectId: string;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** `{PUBLIC_URL}/api/nest/callback`, registered with the OAuth client. */
  redirectUri: string;
  /** Whether the users' tokens also pull the Pub/Sub subscription (no service account). */
  pubsubScope: boolean;
  fetch?: typeof fetch;
  now?: () => Date;
}

const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Whether a GenerateImage answer says the event's image is gone for good: 400 `FAILED_PRECONDITION` or 404
 * `NOT_FOUND` (Google's error shape, https://cloud.google.com/apis/design/errors). Reads the body only then.
 */
async function imageGone(res: Response): Promise<boolean> {
  if (res.status !== 400 && res.status !== 404) return false;
  const body = (await res.json().catch(() => ({}))) as { error?: { status?: unknown } };
  return body.error?.status === 'FAILED_PRECONDITION' || body.error?.status === 'NOT_FOUND';
}

export function createNestGoogle(config: NestGoogleConfig) {
  const fetchFn = config.fetch ?? fetch;
  const now = config.now ?? (() => new Date());
  const trim = (url: string) => url.replace(/\/+$/, '');

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchFn(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      throw new NestProviderError(`Google not reachable: ${(err as Error).message}`);
    }
  }

  async function token(params: Record<string, string>): Promise<NestTokens> {
    const res = await call(config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        ...params,
      }).toString(),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    const said = (v: unknown) => (typeof v === 'string' ? v : '');
    if (body.error === 'invalid_grant')
      throw new NestGrantError(said(body.error_description) || 'invalid_grant');
    if (!res.ok || typeof body.access_token !== 'string') {
      throw new NestProviderError(`token endpoint answered ${res.status} ${said(body.error)}`, res.status);
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
      expiresAt: new Date(now().getTime() + expiresIn * 1000),
    };
  }

  /**
   * One `CameraLiveStream` command (https://developers.google.com/nest/device-access/traits/device/camera-live-stream);
   * a 429 (RESOURCE_EXHAUSTED, the per-device rate limit) carries Google's Retry-After when it gave one.
   */
  async function liveCommand(
    accessToken: string,
    deviceName: string,
    name: string,
    params: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const res = await call(`${trim(config.apiUrl)}/${deviceName}:executeCommand`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ command: `sdm.devices.commands.CameraLiveStream.${name}`, params }),
    });
    if (!res.ok) {
      const retryAfter = Number(res.headers.get('retry-after'));
      throw new NestProviderError(
        `${name} answered ${res.status}`,
        res.status,
        Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null,
      );
    }
    return ((await res.json()) as { results?: Record<string, unknown> }).results ?? {};
  }

  function rtspStream(name: string, results: Record<string, unknown>, rtspUrl?: string): RtspStream {
    const urls = results.streamUrls as { rtspUrl?: unknown } | undefined;
    const url = rtspUrl ?? urls?.rtspUrl;
    const token = results.streamExtensionToken;
    const expiresAt = new Date(String(results.expiresAt));
    if (typeof url !== 'string' || typeof token !== 'string' || Number.isNaN(expiresAt.getTime()))
      throw new NestProviderError(`${name} answered no stream`);
    return { rtspUrl: url, extensionToken: token, expiresAt };
  }

  /** `GenerateRtspStream`: a stream address that lives until `expiresAt` (about 5 minutes) unless extended. */
  async function generateRtsp(accessToken: string, deviceName: string): Promise<RtspStream> {
    return rtspStream(
      'GenerateRtspStream',
      await liveCommand(accessToken, deviceName, 'GenerateRtspStream', {}),
    );
  }

  /** `ExtendRtspStream`: the same address for longer, with a new extension token and expiry. */
  async function extendRtsp(
    accessToken: string,
    deviceName: string,
    stream: RtspStream,
  ): Promise<RtspStream> {
    const results = await liveCommand(accessToken, deviceName, 'ExtendRtspStream', {
      streamExtensionToken: stream.extensionToken,
    });
    // The address carries the stream token (`auth=`): a reconnect after the extension needs the new one.
    const url = new URL(stream.rtspUrl);
    if (typeof results.streamToken === 'string' && url.searchParams.has('auth'))
      url.searchParams.set('auth', results.streamToken);
    return rtspStream('ExtendRtspStream', results, url.toString());
  }

  async function stopRtsp(accessToken: string, deviceName: string, extensionToken: string): Promise<void> {
    await liveCommand(accessToken, deviceName, 'StopRtspStream', { streamExtensionToken: extensionToken });
  }

  const text = (name: string, v: unknown, what: string) => {
    if (typeof v !== 'string' || !v) throw new NestProviderError(`${name} answered no ${what}`);
    return v;
  };

  /** `GenerateWebRtcStream`: Google's answer to the browser's offer; the stream lives until `expiresAt`. */
  async function generateWebRtc(
    accessToken: string,
    deviceName: string,
    offerSdp: string,
  ): Promise<WebRtcStream> {
    const name = 'GenerateWebRtcStream';
    const results = await liveCommand(accessToken, deviceName, name, { offerSdp });
    return {
      answerSdp: text(name, results.answerSdp, 'answer'),
      mediaSessionId: text(name, results.mediaSessionId, 'media session'),
      expiresAt: new Date(text(name, results.expiresAt, 'expiry')),
    };
  }

  /** `ExtendWebRtcStream`: another 5 minutes (battery cameras refuse it with a 4xx). */
  async function extendWebRtc(
    accessToken: string,
    deviceName: string,
    mediaSessionId: string,
  ): Promise<Omit<WebRtcStream, 'answerSdp'>> {
    const name = 'ExtendWebRtcStream';
    const results = await liveCommand(accessToken, deviceName, name, { mediaSessionId });
    return {
      // Google may hand out a new media session id with the extension; the next call uses that one.
      mediaSessionId:
        typeof results.mediaSessionId === 'string' && results.mediaSessionId
          ? results.mediaSessionId
          : mediaSessionId,
      expiresAt: new Date(text(name, results.expiresAt, 'expiry')),
    };
  }

  async function stopWebRtc(accessToken: string, deviceName: string, mediaSessionId: string): Promise<void> {
    await liveCommand(accessToken, deviceName, 'StopWebRtcStream', { mediaSessionId });
  }

  return {
    /** The Partner Connections Manager's consent address for this state. */
    consentUrl(state: string): string {
      const url = new URL(`${trim(config.authUrl)}/${encodeURIComponent(config.projectId)}/auth`);
      url.search = new URLSearchParams({
        redirect_uri: config.redirectUri,
        access_type: 'offline',
        prompt: 'consent',
        client_id: config.clientId,
        response_type: 'code',
        scope: config.pubsubScope ? `${SDM_SCOPE} ${PUBSUB_SCOPE}` : SDM_SCOPE,
        state,
      }).toString();
      return url.toString();
    },

    exchangeCode: (code: string) =>
      token({ grant_type: 'authorization_code', code, redirect_uri: config.redirectUri }),

    refresh: (refreshToken: string) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    /** Revokes a token (the refresh token revokes the whole grant); a token Google no longer knows is fine. */
    async revoke(tokenValue: string): Promise<void> {
      const res = await call(new URL('revoke', config.tokenUrl).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokenValue }).toString(),
      });
      if (!res.ok && res.status !== 400)
        throw new NestProviderError(`revoke answered ${res.status}`, res.status);
    },

    /**
     * `CameraEventImage.GenerateImage` for an event, then the image itself (`Authorization: Basic <token>`):
     * https://developers.google.com/nest/device-access/traits/device/camera-event-image. Google's URL is
     * not user input: `CAMERA_NETWORKS` does not apply to it. Null: Google no longer has the event's image
     * (it expired); any other failure (5xx, unreachable) throws, to be tried again.
     */
    async eventImage(accessToken: string, deviceName: string, eventId: string): Promise<Buffer | null> {
      const res = await call(`${trim(config.apiUrl)}/${deviceName}:executeCommand`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          command: 'sdm.devices.commands.CameraEventImage.GenerateImage',
          params: { eventId },
        }),
      });
      if (await imageGone(res)) return null;
      if (!res.ok) throw new NestProviderError(`GenerateImage answered ${res.status}`, res.status);
      const { results } = (await res.json()) as { results?: { url?: string; token?: string } };
      if (!results?.url || !results.token) throw new NestProviderError('GenerateImage answered no image');
      const image = await call(results.url, { headers: { authorization: `Basic ${results.token}` } });
      if (!image.ok) throw new NestProviderError(`event image answered ${image.status}`, image.status);
      return Buffer.from(await image.arrayBuffer());
    },

    /**
     * A newer camera's clip preview (a short MP4 at the event's `previewUrl`), fetched with the owner's token
     * (https://developers.google.com/nest/device-access/traits/device/camera-clip-preview).
     */
    async eventClip(accessToken: string, previewUrl: string): Promise<Buffer> {
      const clip = await call(previewUrl, { headers: { authorization: `Bearer ${accessToken}` } });
      if (!clip.ok) throw new NestProviderError(`clip preview answered ${clip.status}`, clip.status);
      return Buffer.from(await clip.arrayBuffer());
    },

    /**
     * Checks that a device's RTSP stream can be had: `GenerateRtspStream`, then `StopRtspStream` with its
     * extension token.
     */
    async probeRtsp(accessToken: string, deviceName: string): Promise<void> {
      const stream = await generateRtsp(accessToken, deviceName);
      await stopRtsp(accessToken, deviceName, stream.extensionToken);
    },

    generateRtsp,
    extendRtsp,
    stopRtsp,
    generateWebRtc,
    extendWebRtc,
    stopWebRtc,

    /** `GET enterprises/{project}/devices`: every device the user shared with this project. */
    async listDevices(accessToken: string): Promise<SdmDevice[]> {
      const url = `${trim(config.apiUrl)}/enterprises/${encodeURIComponent(config.projectId)}/devices`;
      const res = await call(url, { headers: { authorization: `Bearer ${accessToken}` } });
      if (!res.ok) throw new NestProviderError(`devices list answered ${res.status}`, res.status);
      const body = (await res.json()) as { devices?: SdmDevice[] };
      return body.devices ?? [];
    },
  };
}
export type NestGoogle = ReturnType<typeof createNestGoogle>;
