import { createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SdmDevice } from '../src/modules/nest/nest.google.js';
import { mediaOrder, startFakeCameraPeer, type FakeCameraPeer } from './fake-nest-camera.js';

/**
 * A local Google for Nest, on 127.0.0.1, speaking the documented shapes:
 * - the Partner Connections Manager consent page, `GET /partnerconnections/{project}/auth?…`, which
 *   redirects to `redirect_uri` with `code` and `state`, or with `error=access_denied` when the user declines
 *   (https://developers.google.com/nest/device-access/authorize);
 * - the OAuth token endpoint, `POST /token` (form: `grant_type=authorization_code|refresh_token`), answering
 *   `{access_token, expires_in, refresh_token?, scope, token_type}` or `400 {"error":"invalid_grant"}`, and
 *   `POST /revoke` (https://developers.google.com/identity/protocols/oauth2/web-server);
 * - SDM `GET /v1/enterprises/{project}/devices` answering `{devices:[…]}` with a bearer token
 *   (https://developers.google.com/nest/device-access/reference/rest/v1/enterprises.devices/list);
 * - `CameraLiveStream` commands (https://developers.google.com/nest/device-access/traits/device/camera-live-stream):
 *   `GenerateRtspStream` answers `results: {streamUrls: {rtspUrl}, streamExtensionToken, streamToken,
 *   expiresAt}` (the URL from `state.rtspUrl`, e.g. the tests' RTSP server, with `?auth=<streamToken>`),
 *   `ExtendRtspStream` (`params.streamExtensionToken`) answers `results: {streamExtensionToken, streamToken,
 *   expiresAt}`, `StopRtspStream` answers `{}`; 429 RESOURCE_EXHAUSTED on demand.
 */
export async function startFakeGoogle(projectId = 'test-project') {
  const clientId = `${randomBytes(6).toString('hex')}.apps.googleusercontent.com`;
  const clientSecret = randomBytes(12).toString('hex');
  const codes = new Map<string, string>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const state = {
    devices: [] as SdmDevice[],
    /** The next consent is declined. */
    denyConsent: false,
    /** Exchanges of a code fail with invalid_grant. */
    failExchange: false,
    /** Refreshes fail with invalid_grant (revoked in the Google account). */
    revokeGrant: false,
    exchanged: 0,
    revoked: [] as string[],
    consentQueries: [] as URLSearchParams[],
    /** The picture every GenerateImage URL serves. */
    image: Buffer.alloc(0) as Buffer,
    imageFetches: 0,
    /** The MP4 served at a clip preview's `previewUrl` (newer cameras). */
    clip: Buffer.alloc(0) as Buffer,
    clipFetches: 0,
    /** When each message was last handed out by a pull (`performance.now()`), by messageId. */
    pulledAt: new Map<string, number>(),
    generateImageCalls: 0,
    acknowledged: [] as string[],
    serviceAccountGrants: 0,
    rtspGenerated: 0,
    rtspExtended: 0,
    rtspStopped: 0,
    /** Where a generated stream points (its `auth` query is added): the tests' RTSP server, or nowhere. */
    rtspUrl: (() => 'rtsps://127.0.0.1:1/stream') as () => string,
    /** How long a generated or extended stream lives (Google: 5 minutes). */
    rtspLifeMs: 5 * 60_000,
    /** The clock of the streams' `expiresAt` (a test driving the server's live clock passes that one). */
    now: (() => Date.now()) as () => number,
    /** ExtendRtspStream answers 400 FAILED_PRECONDITION (as for a stream that cannot be extended). */
    failExtend: false,
    /** Every command answers 429 (the per-device rate limit). */
    rateLimited: false,
    /** The Retry-After (seconds) a 429 carries, if any. */
    retryAfterS: null as number | null,
    /** Live-stream commands answered 429. */
    rateLimitedCommands: 0,
    /** GenerateImage fails (500): the event is not taken and must not be acknowledged. */
    failImage: false,
    /** WebRTC: streams generated, extended and stopped, by command. */
    webrtcGenerated: 0,
    webrtcExtended: 0,
    webrtcStopped: 0,
    /** The WebRTC camera peers send real pictures (VP8 from ffmpeg) that a browser plays (fake-nest-camera.ts). */
    webrtcPictures: false,
    /** Devices (their ids) that refuse ExtendWebRtcStream, as battery cameras do. */
    batteryDevices: new Set<string>(),
    /** GenerateImage answers that the event's image is no longer there (400 FAILED_PRECONDITION). */
    imageGone: false,
  };
  /** The camera peers of the WebRTC streams generated and not stopped, by mediaSessionId. */
  const webrtcPeers = new Map<string, { device: string; peer: FakeCameraPeer }>();
  // Pub/Sub: messages waiting to be pulled, and those pulled but not acknowledged (by ackId).
  const pending: { messageId: string; data: string }[] = [];
  const outstanding = new Map<string, { messageId: string; data: string }>();
  const waiters: (() => void)[] = [];
  const images = new Map<string, string>();
  /** The extension tokens of the RTSP streams live now. */
  const streams = new Set<string>();
  let messageSeq = 0;
  const subscription = `projects/${projectId}/subscriptions/nest-events`;

  let base = '';
  let serviceAccount: { email: string; publicKey: KeyObject } | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));

      if (req.method === 'GET' && url.pathname === `/partnerconnections/${projectId}/auth`) {
        state.consentQueries.push(url.searchParams);
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        if (state.denyConsent) {
          state.denyConsent = false;
          back.searchParams.set('error', 'access_denied');
        } else {
          const code = `4/${randomBytes(12).toString('hex')}`;
          codes.set(code, url.searchParams.get('client_id') ?? '');
          back.searchParams.set('code', code);
          back.searchParams.set('scope', url.searchParams.get('scope') ?? '');
        }
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return res.writeHead(302, { location: back.toString() }).end();
      }

      if (req.method === 'POST' && url.pathname === '/token') {
        // A service account's signed JWT (https://developers.google.com/identity/protocols/oauth2/service-account#httprest).
        if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          const [head, claims, signature] = (form.get('assertion') ?? '').split('.');
          const signed =
            serviceAccount !== null &&
            createVerify('RSA-SHA256')
              .update(`${head}.${claims}`)
              .verify(serviceAccount.publicKey, signature ?? '', 'base64url');
          const claim = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8') || '{}') as {
            iss?: string;
            scope?: string;
          };
          if (!signed || claim.iss !== serviceAccount?.email)
            return reply(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
          state.serviceAccountGrants += 1;
          const token = `ya29.sa-${randomBytes(12).toString('hex')}`;
          accessTokens.add(token);
          return reply(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
        }
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
          return reply(401, {
            error: 'invalid_client',
            error_description: 'The OAuth client was not found.',
          });
        const access = () => {
          const token = `ya29.${randomBytes(12).toString('hex')}`;
          accessTokens.add(token);
          return token;
        };
        if (form.get('grant_type') === 'authorization_code') {
          const code = form.get('code') ?? '';
          if (state.failExchange || !codes.delete(code))
            return reply(400, { error: 'invalid_grant', error_description: 'Bad Request' });
          state.exchanged += 1;
          const refresh = `1//${randomBytes(12).toString('hex')}`;
          refreshTokens.add(refresh);
          return reply(200, {
            access_token: access(),
            expires_in: 3599,
            refresh_token: refresh,
            scope: 'https://www.googleapis.com/auth/sdm.service',
            token_type: 'Bearer',
          });
        }
        if (form.get('grant_type') === 'refresh_token') {
          if (state.revokeGrant || !refreshTokens.has(form.get('refresh_token') ?? ''))
            return reply(400, {
              error: 'invalid_grant',
              error_description: 'Token has been expired or revoked.',
            });
          return reply(200, { access_token: access(), expires_in: 3599, token_type: 'Bearer' });
        }
        return reply(400, { error: 'unsupported_grant_type' });
      }

      if (req.method === 'POST' && url.pathname === '/revoke') {
        const token = form.get('token') ?? '';
        state.revoked.push(token);
        refreshTokens.delete(token);
        return reply(200, {});
      }

      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (req.method === 'POST' && url.pathname === `/pubsub/v1/${subscription}:pull`) {
        if (!accessTokens.has(bearer)) return reply(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
        // As Pub/Sub does: the pull waits a while for messages rather than answering empty at once.
        const answer = () => {
          const batch = pending.splice(0, 10).map((m) => {
            state.pulledAt.set(m.messageId, performance.now());
            const ackId = `ack-${randomBytes(6).toString('hex')}`;
            outstanding.set(ackId, m);
            return {
              ackId,
              message: { data: m.data, messageId: m.messageId, publishTime: new Date().toISOString() },
              deliveryAttempt: 1,
            };
          });
          reply(200, batch.length ? { receivedMessages: batch } : {});
        };
        if (pending.length) return answer();
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(wake), 1);
          answer();
        }, 2000);
        const wake = () => {
          clearTimeout(timer);
          answer();
        };
        waiters.push(wake);
        return;
      }
      if (req.method === 'POST' && url.pathname === `/pubsub/v1/${subscription}:acknowledge`) {
        const { ackIds } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
          ackIds?: string[];
        };
        for (const id of ackIds ?? []) {
          const m = outstanding.get(id);
          if (m) state.acknowledged.push(m.messageId);
          outstanding.delete(id);
        }
        return reply(200, {});
      }
      const command = url.pathname.match(
        new RegExp(`^/v1/(enterprises/${projectId}/devices/[^/:]+):executeCommand$`),
      );
      if (req.method === 'POST' && command) {
        if (!accessTokens.has(bearer)) return reply(401, { error: { code: 401, status: 'UNAUTHENTICATED' } });
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          command: string;
          params: { eventId?: string; streamExtensionToken?: string };
        };
        if (state.rateLimited) {
          if (body.command.includes('.CameraLiveStream.')) state.rateLimitedCommands += 1;
          if (state.retryAfterS) res.setHeader('retry-after', String(state.retryAfterS));
          return reply(429, {
            error: {
              code: 429,
              message: 'Rate limited for the ExecuteDeviceCommand',
              status: 'RESOURCE_EXHAUSTED',
            },
          });
        }
        const expiresAt = () => new Date(state.now() + state.rtspLifeMs).toISOString();
        // WebRTC (https://developers.google.com/nest/device-access/traits/device/camera-live-stream): a werift
        // peer answers as the camera; battery cameras refuse extensions; a stream lives 5 minutes.
        const webrtc = body.command.match(
          /^sdm\.devices\.commands\.CameraLiveStream\.(\w+WebRtcStream)$/,
        )?.[1];
        if (webrtc) {
          const params = body.params as { offerSdp?: string; mediaSessionId?: string };
          const device = command[1]!.split('/').pop()!;
          const invalid = (message: string) =>
            reply(400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
          if (webrtc === 'GenerateWebRtcStream') {
            const offer = params.offerSdp ?? '';
            if (mediaOrder(offer).join(',') !== 'audio,video,application')
              return invalid('The offer must have audio, video and a data channel, in that order.');
            void startFakeCameraPeer(offer, { pictures: state.webrtcPictures }).then(
              (peer) => {
                state.webrtcGenerated += 1;
                const mediaSessionId = randomBytes(12).toString('hex');
                webrtcPeers.set(mediaSessionId, { device, peer });
                reply(200, {
                  results: { answerSdp: peer.answerSdp, expiresAt: expiresAt(), mediaSessionId },
                });
              },
              (err: Error) => invalid(err.message),
            );
            return;
          }
          const stream = webrtcPeers.get(params.mediaSessionId ?? '');
          if (!stream || stream.device !== device) return invalid('Unknown mediaSessionId.');
          if (webrtc === 'ExtendWebRtcStream') {
            if (state.batteryDevices.has(device))
              return reply(400, {
                error: { code: 400, message: 'Stream cannot be extended.', status: 'FAILED_PRECONDITION' },
              });
            state.webrtcExtended += 1;
            return reply(200, { results: { expiresAt: expiresAt(), mediaSessionId: params.mediaSessionId } });
          }
          if (webrtc === 'StopWebRtcStream') {
            state.webrtcStopped += 1;
            webrtcPeers.delete(params.mediaSessionId!);
            void stream.peer.close();
            return reply(200, {});
          }
        }
        if (body.command === 'sdm.devices.commands.CameraLiveStream.GenerateRtspStream') {
          state.rtspGenerated += 1;
          const streamToken = randomBytes(6).toString('hex');
          const extension = `ext-${randomBytes(6).toString('hex')}`;
          streams.add(extension);
          const rtspUrl = new URL(state.rtspUrl());
          rtspUrl.searchParams.set('auth', streamToken);
          return reply(200, {
            results: {
              streamUrls: { rtspUrl: rtspUrl.toString() },
              streamExtensionToken: extension,
              streamToken,
              expiresAt: expiresAt(),
            },
          });
        }
        if (body.command === 'sdm.devices.commands.CameraLiveStream.ExtendRtspStream') {
          const token = body.params.streamExtensionToken ?? '';
          if (state.failExtend || !streams.delete(token))
            return reply(400, { error: { code: 400, status: 'FAILED_PRECONDITION' } });
          state.rtspExtended += 1;
          const extension = `ext-${randomBytes(6).toString('hex')}`;
          streams.add(extension);
          return reply(200, {
            results: {
              streamExtensionToken: extension,
              streamToken: randomBytes(6).toString('hex'),
              expiresAt: expiresAt(),
            },
          });
        }
        if (body.command === 'sdm.devices.commands.CameraLiveStream.StopRtspStream') {
          state.rtspStopped += 1;
          streams.delete(body.params.streamExtensionToken ?? '');
          return reply(200, {});
        }
        if (body.command !== 'sdm.devices.commands.CameraEventImage.GenerateImage')
          return reply(400, { error: { code: 400, status: 'INVALID_ARGUMENT' } });
        state.generateImageCalls += 1;
        if (state.failImage) return reply(500, { error: { code: 500, status: 'INTERNAL' } });
        if (state.imageGone)
          return reply(400, {
            error: {
              code: 400,
              message: 'The event image is no longer available.',
              status: 'FAILED_PRECONDITION',
            },
          });
        const id = randomBytes(6).toString('hex');
        const token = randomBytes(8).toString('hex');
        images.set(id, token);
        return reply(200, { results: { url: `${base}/image/${id}`, token } });
      }
      if (req.method === 'GET' && /^\/clip\/[\w-]+$/.test(url.pathname)) {
        if (!accessTokens.has(bearer)) return reply(401, {});
        state.clipFetches += 1;
        return res.writeHead(200, { 'content-type': 'video/mp4' }).end(state.clip);
      }
      const image = url.pathname.match(/^\/image\/([0-9a-f]+)$/);
      if (req.method === 'GET' && image) {
        if (req.headers.authorization !== `Basic ${images.get(image[1]!)}`) return reply(401, {});
        state.imageFetches += 1;
        return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(state.image);
      }

      if (req.method === 'GET' && url.pathname === `/v1/enterprises/${projectId}/devices`) {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (state.revokeGrant || !accessTokens.has(token))
          return reply(401, {
            error: {
              code: 401,
              message: 'Request had invalid authentication credentials.',
              status: 'UNAUTHENTICATED',
            },
          });
        return reply(200, { devices: state.devices });
      }
      return reply(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    /** The server's NEST_* settings pointing at this fake. */
    env: {
      NEST_PROJECT_ID: projectId,
      NEST_CLIENT_ID: clientId,
      NEST_CLIENT_SECRET: clientSecret,
      NEST_AUTH_URL: `${base}/partnerconnections`,
      NEST_TOKEN_URL: `${base}/token`,
      NEST_API_URL: `${base}/v1`,
      NEST_PUBSUB_URL: `${base}/pubsub/v1`,
    },
    subscription,
    /** Writes a service account's JSON key (as Google's console hands it out) whose JWTs this fake accepts. */
    serviceAccountFile(file: string): string {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const email = `puller@${projectId}.iam.gserviceaccount.com`;
      serviceAccount = { email, publicKey };
      writeFileSync(
        file,
        JSON.stringify({
          type: 'service_account',
          project_id: projectId,
          private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
          client_email: email,
          token_uri: `${base}/token`,
        }),
      );
      return file;
    },
    /** A clip preview's `previewUrl`, as a ClipPreview event carries it. */
    previewUrl: (id: string) => `${base}/clip/${id}`,
    /** Publishes an SDM event message (its data JSON) on the subscription; answers its messageId. */
    publish(data: unknown): string {
      messageSeq += 1;
      const messageId = String(messageSeq);
      pending.push({ messageId, data: Buffer.from(JSON.stringify(data)).toString('base64') });
      waiters.splice(0).forEach((wake) => wake());
      return messageId;
    },
    /** Every message pulled and not acknowledged goes out again (as after its ack deadline). */
    redeliverOutstanding() {
      pending.push(...outstanding.values());
      outstanding.clear();
      waiters.splice(0).forEach((wake) => wake());
    },
    /** Expires every access token handed out: the next call must refresh. */
    expireAccessTokens: () => accessTokens.clear(),
    /** The camera peers of the WebRTC streams not stopped (RTP they sent). */
    webrtcPeers: () => [...webrtcPeers.values()].map((s) => s.peer),
    close: async () => {
      await Promise.all([...webrtcPeers.values()].map((s) => s.peer.close()));
      webrtcPeers.clear();
      waiters.splice(0).forEach((wake) => wake());
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;

/** An SDM device in the documented shape. */
export function sdmDevice(
  projectId: string,
  id: string,
  options: {
    type?: 'CAMERA' | 'DOORBELL' | 'DISPLAY' | 'THERMOSTAT';
    customName?: string;
    room?: string;
    protocols?: string[];
  },
): SdmDevice {
  const type = options.type ?? 'CAMERA';
  const traits: SdmDevice['traits'] = { 'sdm.devices.traits.Info': { customName: options.customName ?? '' } };
  if (type !== 'THERMOSTAT') {
    traits['sdm.devices.traits.CameraLiveStream'] = {
      maxVideoResolution: { width: 640, height: 480 },
      videoCodecs: ['H264'],
      audioCodecs: ['AAC'],
      supportedProtocols: options.protocols ?? ['RTSP'],
    };
    traits['sdm.devices.traits.CameraEventImage'] = {};
    traits['sdm.devices.traits.CameraPerson'] = {};
    traits['sdm.devices.traits.CameraMotion'] = {};
  }
  if (type === 'DOORBELL') traits['sdm.devices.traits.DoorbellChime'] = {};
  return {
    name: `enterprises/${projectId}/devices/${id}`,
    type: `sdm.devices.types.${type}`,
    traits,
    parentRelations: options.room
      ? [{ parent: `enterprises/${projectId}/structures/s1/rooms/r1`, displayName: options.room }]
      : [],
  };
}

/**
 * An SDM event message (the Pub/Sub data) as Google documents it
 * (https://developers.google.com/nest/device-access/api/events).
 */
export function sdmEvent(
  projectId: string,
  deviceId: string,
  /** One event, or several of the same session in one message (a doorbell's chime and its person). */
  kind: string | string[],
  ids: { sessionId: string; eventId: string },
  at = new Date(),
) {
  const device = `enterprises/${projectId}/devices/${deviceId}`;
  return {
    eventId: `msg-${ids.eventId}`,
    timestamp: at.toISOString(),
    resourceUpdate: {
      name: device,
      events: Object.fromEntries(
        [kind]
          .flat()
          .map((k, n) => [
            k,
            { eventSessionId: ids.sessionId, eventId: n ? `${ids.eventId}-${n}` : ids.eventId },
          ]),
      ),
    },
    userId: 'AVPHwEuBfnPOnTqzVFT4IONX2Qqhu9EJ4ubO-bNnQ-yi',
    eventThreadId: `thread-${ids.sessionId}`,
    eventThreadState: 'STARTED',
    resourceGroup: [device],
  };
}
