import { Readable } from 'node:stream';
import type { CameraVerdict } from '../../platform/db/schema.js';
import type { Logger } from '../../platform/logger.js';
import type { NestCameras } from '../cameras/cameras.module.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import type { IngestApi } from '../ingest/ingest.module.js';
import { describe } from '../language/language.module.js';
import type { NestRepository } from './nest.repository.js';

/** The SDM events that become activities (https://developers.google.com/nest/device-access/api/camera). */
const EVENT_KINDS: Record<string, CameraVerdict> = {
  'sdm.devices.events.CameraPerson.Person': 'person',
  'sdm.devices.events.CameraMotion.Motion': 'motion',
  'sdm.devices.events.CameraSound.Sound': 'sound',
  'sdm.devices.events.DoorbellChime.Chime': 'chime',
};

/** Newer cameras' event media: a short MP4 at `previewUrl` instead of a `GenerateImage` picture. */
const CLIP_PREVIEW = 'sdm.devices.events.CameraClipPreview.ClipPreview';

/** A `GenerateImage` image is gone about 30 s after its event; older events are not fetched. */
export const EVENT_IMAGE_LIFE_MS = 30_000;

/** One Pub/Sub message's data (https://developers.google.com/nest/device-access/api/events). */
interface SdmEventMessage {
  eventId?: string;
  timestamp?: string;
  resourceUpdate?: {
    name?: string;
    events?: Record<string, { eventSessionId?: string; eventId?: string; previewUrl?: string } | undefined>;
  };
}

export interface NestEventsDeps {
  repo: NestRepository;
  cameras: NestCameras;
  ingest: Pick<IngestApi, 'acceptUpload' | 'acceptWithoutMedia' | 'uploadOutcome'>;
  activities: Pick<ActivitiesApi, 'addCameraVerdict' | 'loadContext' | 'updateDescriptions'>;
  /** The event's picture with the owner's token, or null when Google has none for it any more. */
  eventImage: (userId: string, deviceName: string, eventId: string) => Promise<Buffer | null>;
  /** A clip preview's MP4 with the owner's token. */
  eventClip: (userId: string, previewUrl: string) => Promise<Buffer>;
  log: Logger;
  now?: () => Date;
}

/**
 * Nest events into activities through the ingest, like any camera's upload: one per `eventSessionId`, the
 * picture fetched at once (an event whose picture expired makes an activity without one); later messages of
 * a session add Nest's verdict to its activity, and a clip preview to an activity without a clip. Answers once the message may be acknowledged: its activity committed, or dropped
 * on purpose (private mode, an unknown device, a session already made). A failure throws, and the message
 * is not acknowledged, so Pub/Sub delivers it again.
 */
export function createNestEvents(deps: NestEventsDeps) {
  const { repo, cameras, log } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * A later message of a session (Person after Motion, the Chime): what it adds goes onto the session's
   * activity, and its description says it. A redelivery adds nothing and changes nothing.
   */
  async function addToActivity(userId: string, uploadId: string, verdict: CameraVerdict[]) {
    const upload = await deps.ingest.uploadOutcome(userId, uploadId);
    // Not an activity yet: left for Pub/Sub to deliver again, by when it is one.
    if (upload?.status === 'pending') throw new Error('nest: the session is not an activity yet');
    if (!upload?.activityId) return;
    const row = await deps.activities.addCameraVerdict(upload.activityId, verdict);
    // Not analysed yet: the analysis describes it with the whole verdict.
    if (!row?.analysedAt) return;
    const ctx = await deps.activities.loadContext(row.id);
    if (!ctx) return;
    const { activity, camera, user } = ctx;
    await deps.activities.updateDescriptions(
      activity.id,
      describe(
        {
          cameraName: camera.name,
          siteName: ctx.siteName,
          timezone: user.timezone,
          occurredAt: activity.occurredAt,
          mediaKind: activity.mediaKind,
          objects: activity.objects,
          recognised: activity.recognised,
          cameraVerdict: activity.cameraVerdict,
        },
        user.preferredLanguage,
      ),
    );
  }

  /**
   * A clip preview in a later message of a session whose activity has no clip (it was made from a picture,
   * or without one): the clip goes into that activity through the ingest (poster, HLS, its frames analysed),
   * once. An activity deleted meanwhile, or one with a clip already, gets nothing. The alert already sent
   * stays; its chat message shows the clip once the activity has it.
   */
  async function attachClip(
    userId: string,
    sessionId: string,
    uploadId: string,
    cameraName: string,
    previewUrl: string,
    verdict: CameraVerdict[],
  ) {
    const upload = await deps.ingest.uploadOutcome(userId, uploadId);
    if (upload?.status === 'pending') throw new Error('nest: the session is not an activity yet');
    const ctx = upload?.activityId ? await deps.activities.loadContext(upload.activityId) : undefined;
    if (!ctx || ctx.activity.videoKey) return;
    const clip = await deps.ingest.acceptUpload({
      userId,
      cameraName,
      source: 'nest',
      // The same name for a redelivery after a crash before the session said so: the ingest knows it again.
      originalName: `nest-clip-${sessionId}.mp4`,
      file: Readable.from(await deps.eventClip(userId, previewUrl)),
      // The activity's own time, so the processing reads it among the activities the clip may join.
      occurredAt: ctx.activity.occurredAt,
      cameraVerdict: verdict,
      forActivityId: ctx.activity.id,
    });
    await repo.recordSessionClip(userId, sessionId, clip.uploadId);
  }

  return async function handle(data: string | undefined): Promise<void> {
    let message: SdmEventMessage;
    try {
      message = JSON.parse(Buffer.from(data ?? '', 'base64').toString('utf8')) as SdmEventMessage;
    } catch {
      log.warn('nest: a Pub/Sub message that is not JSON, dropped');
      return;
    }
    const deviceName = message.resourceUpdate?.name;
    const events = Object.entries(message.resourceUpdate?.events ?? {}).filter(([k]) => k in EVENT_KINDS);
    const clip = message.resourceUpdate?.events?.[CLIP_PREVIEW];
    if (!deviceName || (events.length === 0 && !clip?.previewUrl)) return;
    const at = message.timestamp ? new Date(message.timestamp) : now();
    for (const device of await repo.findDevices(deviceName)) {
      const camera = (await cameras.ofUser(device.userId)).find((c) => c.id === device.cameraId);
      // Removed, or private (the camera's or global): dropped without fetching anything.
      if (!camera || camera.isPrivate) continue;
      const [key, event] = events[0] ?? [CLIP_PREVIEW, clip];
      const sessionId = event?.eventSessionId ?? clip?.eventSessionId ?? message.eventId ?? '';
      if (!sessionId) continue;
      const verdict = events.map(([k]) => EVENT_KINDS[k]!);
      const session = await repo.findSession(device.userId, sessionId);
      if (session) {
        if (!session.uploadId) continue;
        if (verdict.length > 0) await addToActivity(device.userId, session.uploadId, verdict);
        if (clip?.previewUrl && !session.clipUploadId)
          await attachClip(device.userId, sessionId, session.uploadId, camera.name, clip.previewUrl, verdict);
        continue;
      }
      const kind = EVENT_KINDS[key] ?? 'clip';
      if (clip?.previewUrl) {
        // The clip goes the clip path of the pipeline (poster, HLS, its frames analysed).
        const upload = await deps.ingest.acceptUpload({
          userId: device.userId,
          cameraName: camera.name,
          source: 'nest',
          originalName: `nest-${kind}-${sessionId}.mp4`,
          file: Readable.from(await deps.eventClip(device.userId, clip.previewUrl)),
          occurredAt: at,
          cameraVerdict: verdict,
        });
        await repo.recordSession(device.userId, sessionId, upload.uploadId);
        continue;
      }
      // Late (older than Google keeps its picture), or Google says the picture is gone: nothing is fetched.
      const fresh = event?.eventId && now().getTime() - at.getTime() <= EVENT_IMAGE_LIFE_MS;
      const image = fresh ? await deps.eventImage(device.userId, deviceName, event.eventId!) : null;
      if (!image) {
        // Nest's verdict is all there is: an activity without a picture, which says so. Never a made-up one.
        log.info({ cameraId: camera.id, kind }, 'nest: event without its picture (expired)');
        const upload = await deps.ingest.acceptWithoutMedia({
          userId: device.userId,
          cameraName: camera.name,
          source: 'nest',
          // The same name for a redelivery: the ingest knows an event sent again within the hour.
          originalName: `nest-${kind}-${sessionId}`,
          occurredAt: at,
          cameraVerdict: verdict,
        });
        await repo.recordSession(device.userId, sessionId, upload.uploadId);
        continue;
      }
      const upload = await deps.ingest.acceptUpload({
        userId: device.userId,
        cameraName: camera.name,
        source: 'nest',
        // The same name for a redelivery: the ingest knows a file sent again (same bytes within the hour).
        originalName: `nest-${kind}-${sessionId}.jpg`,
        file: Readable.from(image),
        occurredAt: at,
        // Nest's own verdict, kept beside what our analysis sees and said in words after it.
        cameraVerdict: verdict,
      });
      await repo.recordSession(device.userId, sessionId, upload.uploadId);
    }
  };
}
