import { isUniqueViolation } from '../../platform/db/errors.js';
import { randomBytes } from 'node:crypto';
import { NEST_LINK_STATE_TTL_S, type NestLink, type NestLinkOutcome } from '@homesitter/contract';
import type { Logger } from '../../platform/logger.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { NestCameraRow, NestCameras } from '../cameras/cameras.module.js';
import { describeNestDevice } from './nest.devices.js';
import { nestErrors } from './nest.errors.js';
import { NestGrantError, NestProviderError, type NestGoogle, type RtspStream } from './nest.google.js';
import type { NestLinkRow, NestRepository } from './nest.repository.js';

/** The additional data a link's state is encrypted with: a camera login copied here does not decrypt. */
const STATE_CONTEXT = 'nest-link-state';
/** An access token this close to its end is refreshed before use. */
const TOKEN_MARGIN_MS = 60_000;

export interface NestServiceDeps {
  repo: NestRepository;
  /** Null when this server is not set up for Nest (no NEST_PROJECT_ID or OAuth client). */
  google: NestGoogle | null;
  cameras: NestCameras;
  secrets: SecretBox;
  log: Logger;
  /** Tells the owner once that Google refused the link (a chat message in their language). */
  tellLinkLost: (userId: string) => Promise<void>;
  now?: () => Date;
}

/**
 * Linking a Google account for Nest cameras (docs/nest.md): the consent round trip with a single-use,
 * expiring state, tokens kept encrypted, and the account's devices kept in step with its cameras.
 */
export function createNestService(deps: NestServiceDeps) {
  const { repo, google, cameras, secrets, log } = deps;
  const now = deps.now ?? (() => new Date());

  /** A state the callback can prove is ours (authenticated encryption) and find once (its nonce's row). */
  async function issueState(userId: string): Promise<string> {
    const nonce = randomBytes(18).toString('base64url');
    const expiresAt = new Date(now().getTime() + NEST_LINK_STATE_TTL_S * 1000);
    await repo.insertState(nonce, userId, expiresAt);
    return secrets.encrypt(JSON.stringify({ n: nonce, u: userId }), STATE_CONTEXT);
  }

  /** The user the state was issued to, once; undefined for a forged, foreign, replayed or expired one. */
  async function redeemState(state: string | undefined): Promise<string | undefined> {
    if (!state) return undefined;
    let claim: { n?: unknown; u?: unknown };
    try {
      claim = JSON.parse(secrets.decrypt(state, STATE_CONTEXT)) as typeof claim;
    } catch {
      return undefined;
    }
    if (typeof claim.n !== 'string' || typeof claim.u !== 'string') return undefined;
    const owner = await repo.takeState(claim.n, now());
    return owner === claim.u ? owner : undefined;
  }

  async function accessToken(link: NestLinkRow, fresh = false): Promise<string> {
    if (!google) throw nestErrors.notConfigured();
    if (
      !fresh &&
      link.accessToken &&
      link.accessTokenExpiresAt &&
      link.accessTokenExpiresAt.getTime() - TOKEN_MARGIN_MS > now().getTime()
    ) {
      return secrets.decrypt(link.accessToken, link.userId);
    }
    const tokens = await google.refresh(secrets.decrypt(link.refreshToken, link.userId));
    await repo.saveAccessToken(
      link.userId,
      secrets.encrypt(tokens.accessToken, link.userId),
      tokens.expiresAt,
    );
    return tokens.accessToken;
  }

  /** Google refused the grant: the cameras fail with "Reconnect", the owner hears it once. */
  async function linkLost(userId: string): Promise<void> {
    if (!(await repo.markFailed(userId))) return;
    for (const camera of await cameras.ofUser(userId)) {
      await cameras.setStatus(camera, 'failed', 'nest_link_lost');
    }
    log.warn({ userId }, 'nest: Google refused the link (invalid_grant)');
    await deps.tellLinkLost(userId);
  }

  /**
   * One sync of an account at a time in this instance (the callback's and the scheduled one could meet):
   * two at once would each add a camera for a new device.
   */
  const syncing = new Map<string, Promise<void>>();
  function sync(userId: string): Promise<void> {
    const next = (syncing.get(userId) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => syncNow(userId));
    syncing.set(userId, next);
    void next
      .finally(() => {
        if (syncing.get(userId) === next) syncing.delete(userId);
      })
      .catch(() => undefined);
    return next;
  }

  /** The account's devices as cameras: new ones added, gone ones removed, the rest configured. */
  async function syncNow(userId: string): Promise<void> {
    if (!google) return;
    const link = await repo.findLink(userId);
    if (!link || link.status !== 'linked') return;
    let devices;
    let token = '';
    try {
      token = await accessToken(link);
      devices = await google.listDevices(token).catch(async (err: unknown) => {
        // An access token Google dropped before its time: one fresh one, then Google's word stands.
        if (!(err instanceof NestProviderError && err.status === 401)) throw err;
        token = await accessToken(link, true);
        return google.listDevices(token);
      });
    } catch (err) {
      if (err instanceof NestGrantError) return linkLost(userId);
      for (const camera of await cameras.ofUser(userId)) {
        if (camera.configurationStatus !== 'configured')
          await cameras.setStatus(camera, 'failed', 'nest_unavailable');
      }
      throw err;
    }
    /**
     * Set up: listed, and for an RTSP camera a stream generated and stopped once. Google's rate limit (429)
     * leaves it configuring for the next sync; any other refusal fails it with the reason.
     */
    const settle = async (camera: NestCameraRow, protocols: string[], deviceName: string) => {
      if (protocols.includes('RTSP')) {
        try {
          await google.probeRtsp(token, deviceName);
        } catch (err) {
          if (err instanceof NestProviderError && err.status === 429) return;
          log.warn({ cameraId: camera.id, err: (err as Error).message }, 'nest: RTSP stream not had');
          return cameras.setStatus(camera, 'failed', 'nest_unavailable');
        }
      }
      await cameras.setStatus(camera, 'configured');
    };
    const known = new Map((await repo.listDevices(userId)).map((d) => [d.deviceName, d]));
    const active = new Map((await cameras.ofUser(userId)).map((c) => [c.id, c]));
    const seen = new Set<string>();
    for (const device of devices) {
      const info = describeNestDevice(device);
      if (!info) continue;
      seen.add(info.deviceName);
      const row = known.get(info.deviceName);
      const details = { kind: info.kind, protocols: info.protocols, traits: info.traits };
      if (row) {
        const camera = active.get(row.cameraId);
        // A Nest camera the owner removed in the app stays removed while its device lasts.
        if (!camera) continue;
        await repo.updateDevice(row.cameraId, details);
        if (camera.configurationStatus !== 'configured')
          await settle(camera, info.protocols, info.deviceName);
        continue;
      }
      const camera = await cameras.add(userId, info.name);
      try {
        await repo.insertDevice({ cameraId: camera.id, userId, deviceName: info.deviceName, ...details });
      } catch (err) {
        // Another instance's sync recorded this device first: its camera stands, this one goes again.
        if (!isUniqueViolation(err)) throw err;
        await cameras.remove(camera);
        continue;
      }
      await settle(camera, info.protocols, info.deviceName);
    }
    for (const [deviceName, row] of known) {
      if (seen.has(deviceName)) continue;
      const camera = active.get(row.cameraId);
      if (camera) await cameras.remove(camera, now());
      await repo.deleteDevice(row.cameraId);
    }
    await repo.markSynced(userId, now());
  }

  /** A command with the owner's token; Google refusing the grant loses the link (cameras failed, told once). */
  async function asOwner<T>(
    userId: string,
    work: (google: NestGoogle, token: string) => Promise<T>,
  ): Promise<T> {
    const link = await repo.findLink(userId);
    if (!google || !link || link.status !== 'linked') throw nestErrors.notLinked();
    try {
      return await work(google, await accessToken(link)).catch(async (err: unknown) => {
        // An access token Google dropped before its time: one fresh one, then Google's word stands.
        if (!(err instanceof NestProviderError && err.status === 401)) throw err;
        return work(google, await accessToken(link, true));
      });
    } catch (err) {
      if (err instanceof NestGrantError) await linkLost(userId);
      throw err;
    }
  }

  return {
    configured: google !== null,

    /** A camera's RTSP live stream, with its owner's token (nest.live.ts keeps the sessions). */
    rtsp: {
      generate: (userId: string, deviceName: string) =>
        asOwner(userId, (g, token) => g.generateRtsp(token, deviceName)),
      extend: (userId: string, deviceName: string, stream: RtspStream) =>
        asOwner(userId, (g, token) => g.extendRtsp(token, deviceName, stream)),
      stop: (userId: string, deviceName: string, stream: RtspStream) =>
        asOwner(userId, (g, token) => g.stopRtsp(token, deviceName, stream.extensionToken)),
    },

    /** A camera's WebRTC live stream, with its owner's token (nest.webrtc.ts keeps the sessions). */
    webrtc: {
      generate: (userId: string, deviceName: string, offerSdp: string) =>
        asOwner(userId, (g, token) => g.generateWebRtc(token, deviceName, offerSdp)),
      extend: (userId: string, deviceName: string, mediaSessionId: string) =>
        asOwner(userId, (g, token) => g.extendWebRtc(token, deviceName, mediaSessionId)),
      stop: (userId: string, deviceName: string, mediaSessionId: string) =>
        asOwner(userId, (g, token) => g.stopWebRtc(token, deviceName, mediaSessionId)),
    },

    /** The Nest device of a camera, when its owner's link stands; undefined otherwise. */
    async linkedDevice(cameraId: string) {
      const device = await repo.deviceOfCamera(cameraId);
      if (!device) return undefined;
      const link = await repo.findLink(device.userId);
      return link?.status === 'linked' ? device : undefined;
    },

    async status(userId: string): Promise<NestLink> {
      const link = await repo.findLink(userId);
      const devices = new Map((await repo.listDevices(userId)).map((d) => [d.cameraId, d]));
      const list = link ? await cameras.ofUser(userId) : [];
      return {
        configured: google !== null,
        status: link ? link.status : 'unlinked',
        linked_at: link?.linkedAt.toISOString() ?? null,
        cameras: list.flatMap((c) => {
          const device = devices.get(c.id);
          if (!device) return [];
          return [
            {
              camera_uuid: c.id,
              name: c.name,
              kind: device.kind,
              protocols: device.protocols,
              configuration_status: c.configurationStatus,
            },
          ];
        }),
      };
    },

    /** The consent address for this user (also Reconnect). */
    async startLink(userId: string): Promise<string> {
      if (!google) throw nestErrors.notConfigured();
      await repo.purgeStates(now());
      return google.consentUrl(await issueState(userId));
    },

    /**
     * Google's redirect after consent. Never throws: every outcome is shown on the cameras page. A code that
     * comes with a bad state is never exchanged, and nothing is stored unless the exchange succeeded.
     */
    async callback(query: { code?: string; state?: string; error?: string }): Promise<NestLinkOutcome> {
      if (!google) return 'not_configured';
      const userId = await redeemState(query.state);
      if (!userId) return 'state_invalid';
      if (query.error) return query.error === 'access_denied' ? 'denied' : 'exchange_failed';
      if (!query.code) return 'exchange_failed';
      let tokens;
      try {
        tokens = await google.exchangeCode(query.code);
      } catch (err) {
        log.warn({ userId, err: (err as Error).message }, 'nest: code exchange failed');
        return 'exchange_failed';
      }
      if (!tokens.refreshToken) return 'exchange_failed';
      await repo.saveLink({
        userId,
        refreshToken: secrets.encrypt(tokens.refreshToken, userId),
        accessToken: secrets.encrypt(tokens.accessToken, userId),
        accessTokenExpiresAt: tokens.expiresAt,
        linkedAt: now(),
      });
      try {
        await sync(userId);
      } catch (err) {
        // Linked all the same: the next sync (a few minutes) adds the cameras.
        log.warn({ userId, err: (err as Error).message }, 'nest: first device sync failed');
      }
      return 'linked';
    },

    /** Tokens revoked at Google (best effort) and deleted, the Nest cameras removed. */
    async unlink(userId: string): Promise<void> {
      const link = await repo.deleteLink(userId);
      if (!link) throw nestErrors.notLinked();
      for (const camera of await cameras.ofUser(userId)) await cameras.remove(camera, now());
      await repo.deleteDevices(userId);
      if (google) {
        await google.revoke(secrets.decrypt(link.refreshToken, userId)).catch((err: Error) => {
          log.warn({ userId, err: err.message }, 'nest: revoking the token failed; it is deleted here');
        });
      }
    },

    sync,

    /** Before the account goes: the grant is revoked at Google too (best effort, never in the way). */
    async forget(userId: string): Promise<void> {
      try {
        const link = await repo.findLink(userId);
        if (!link || !google) return;
        await google.revoke(secrets.decrypt(link.refreshToken, userId));
      } catch (err) {
        log.warn(
          { userId, err: (err as Error).message },
          'nest: revoking the token of a deleted account failed',
        );
      }
    },

    /** An event's picture, fetched with its owner's token (GenerateImage, then the image); null: expired. */
    eventImage: (userId: string, deviceName: string, eventId: string): Promise<Buffer | null> =>
      asOwner(userId, (g, token) => g.eventImage(token, deviceName, eventId)),

    /** A newer camera's clip preview (MP4), fetched with its owner's token. */
    eventClip: (userId: string, previewUrl: string): Promise<Buffer> =>
      asOwner(userId, (g, token) => g.eventClip(token, previewUrl)),

    /** Without a service account, a linked user's token (pubsub scope) pulls the subscription. */
    async pubsubToken(): Promise<string> {
      for (const link of await repo.listLinks()) {
        try {
          return await accessToken(link);
        } catch (err) {
          if (err instanceof NestGrantError) await linkLost(link.userId);
        }
      }
      throw new NestProviderError('no linked account to pull Nest events with');
    },

    /** Every linked account's devices (the scheduled `nest.sync-devices`); one failing stops no other. */
    async syncAll(): Promise<void> {
      for (const link of await repo.listLinks()) {
        await sync(link.userId).catch((err: Error) => {
          log.warn({ userId: link.userId, err: err.message }, 'nest: device sync failed');
        });
      }
    },
  };
}
export type NestService = ReturnType<typeof createNestService>;
