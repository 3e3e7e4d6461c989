import { UnreadableImageError, type VisionEngine, type VisionResult } from '../../adapters/vision/vision.js';
import type { RoutineVerdict } from '../../platform/db/schema.js';
import type { Logger } from '../../platform/logger.js';
import { ephemeralUntil, type ActivitiesApi, type AnalysisContext } from '../activities/activities.module.js';
import type { ActivityRow } from '../activities/activities.repository.js';
import type { AlertsService } from '../alerts/alerts.service.js';
import { describe } from '../language/language.module.js';
import type { FaceExample } from '../recognition/face-match.js';
import { recogniseActivity, type Recognition } from '../recognition/recognition.module.js';
import type { AnalysisRepository } from './analysis.repository.js';
import { bestFrameIndex, mergeFaces, mergeObjects } from './frames-merge.js';

/** The frames of an activity to look at: its images, or a few frames of its clip. */
export interface ActivityFrames {
  load(activity: ActivityRow): Promise<LoadedFrames>;
}

export interface LoadedFrames {
  frames: Buffer[];
  /** Frames cut from the clip itself (not its poster or snapshots): the best of them becomes the poster. */
  clip: boolean;
}

export interface AnalysisServiceDeps {
  repo: AnalysisRepository;
  /** Writes the findings and amnesia's expiry on the activity (the activities module owns it). */
  activities: Pick<ActivitiesApi, 'loadContext' | 'saveAnalysis' | 'markEphemeral' | 'saveRoutine'> &
    Partial<Pick<ActivitiesApi, 'storePoster'>>;
  /** Compares the analysed event with its camera's routine (absent: nothing is judged unusual). */
  routine?: { judge(ctx: AnalysisContext): Promise<RoutineVerdict | null> };
  vision: Pick<VisionEngine, 'analyse'>;
  frames: ActivityFrames;
  recognition: Recognition;
  faceExamples: { listForUser(userId: string): Promise<FaceExample[]> };
  alerts: Pick<AlertsService, 'alertFor'>;
  /** Watch requests ("tell me when a car arrives"), told of every event once its analysis is final. */
  watches?: { activityAnalysed(ctx: AnalysisContext, event: { alerted: boolean }): Promise<void> };
  log: Logger;
  now?: () => Date;
}

/** The media an analysis was made from; a rerun for the same media (a retried job) does not look again. */
export function mediaFingerprint(a: Pick<ActivityRow, 'thumbnailKey' | 'videoKey' | 'imageKeys'>): string {
  return [a.videoKey ?? '', a.thumbnailKey ?? '', ...a.imageKeys].join('|');
}

/**
 * `analysis.analyse`: what is in an activity (objects; faces only with the owner's consent, globally and for
 * the camera), who and what is known among it, one sentence about it; then the alert. Idempotent: a rerun
 * for unchanged media reuses the stored analysis, and the alert is claimed before anything is sent.
 */
export function createAnalysisService(deps: AnalysisServiceDeps) {
  const { repo, log } = deps;
  const now = deps.now ?? (() => new Date());

  /** The engine's answer for one frame; undefined for a frame that does not decode. */
  async function see(activityId: string, frame: Buffer, faces: boolean): Promise<VisionResult | undefined> {
    try {
      return await deps.vision.analyse(frame, { faces });
    } catch (err) {
      // A frame that does not decode is the camera's problem, not a reason to retry the job forever.
      if (!(err instanceof UnreadableImageError)) throw err;
      log.warn({ err, activityId }, 'a frame of the activity could not be read');
      return undefined;
    }
  }

  /**
   * Every frame for objects; faces (with consent) in one frame only, the one with the surest person: faces
   * cost more than objects, and the same faces are in the neighbouring frames anyway.
   */
  async function look(
    ctx: AnalysisContext,
  ): Promise<{ results: VisionResult[]; poster: Buffer | undefined }> {
    const { activity, camera, user } = ctx;
    const faces = user.isFacialRecognitionEnabled && camera.isFacialRecognitionEnabled;
    const { frames, clip } = await deps.frames.load(activity);
    if (frames.length === 1) {
      const result = await see(activity.id, frames[0]!, faces);
      return {
        results: result ? [result] : [],
        poster: clip && result?.objects.length ? frames[0] : undefined,
      };
    }
    const results: (VisionResult | undefined)[] = [];
    for (const frame of frames) results.push(await see(activity.id, frame, false));
    if (faces) {
      const personScore = (r: VisionResult | undefined) =>
        Math.max(0, ...(r?.objects ?? []).filter((o) => o.kind === 'person').map((o) => o.score));
      const best = results.reduce((b, r, i) => (personScore(r) > personScore(results[b]) ? i : b), 0);
      if (personScore(results[best]) > 0) results[best] = await see(activity.id, frames[best]!, true);
    }
    // The poster cut at arrival is the clip's middle, often the empty scene before someone walks in.
    const best = clip ? bestFrameIndex(results) : -1;
    return {
      results: results.filter((r): r is VisionResult => r !== undefined),
      poster: best >= 0 ? frames[best] : undefined,
    };
  }

  /** The best frame as the clip's new poster; the one cut at arrival stays when this cannot be made. */
  async function newPoster(activity: ActivityRow, frame: Buffer | undefined): Promise<string | null> {
    if (!frame || !deps.activities.storePoster) return null;
    try {
      return await deps.activities.storePoster(activity, frame);
    } catch (err) {
      log.warn({ err, activityId: activity.id }, 'the best frame could not be made the poster');
      return null;
    }
  }

  async function analyse(ctx: AnalysisContext): Promise<ActivityRow> {
    const { activity, camera, user } = ctx;
    const started = performance.now();
    const { results, poster } = await look(ctx);
    const posterKey = await newPoster(activity, poster);
    const lookedMs = Math.round(performance.now() - started);
    const objects = mergeObjects(results);
    const faces = mergeFaces(results);
    const memories = objects.length > 0 ? await repo.recognisableMemories(user.id, camera.siteId, now()) : [];
    const examples =
      faces.length > 0 && memories.some((m) => m.category === 'people')
        ? await deps.faceExamples.listForUser(user.id)
        : [];
    const outcome = recogniseActivity({ recognition: deps.recognition, objects, faces, memories, examples });
    const descriptions = describe(
      {
        cameraName: camera.name,
        siteName: ctx.siteName,
        timezone: user.timezone,
        occurredAt: activity.occurredAt,
        mediaKind: activity.mediaKind,
        objects,
        recognised: outcome.recognised,
        cameraVerdict: activity.cameraVerdict,
      },
      user.preferredLanguage,
    );
    const result = {
      objects,
      recognised: outcome.recognised,
      ...descriptions,
      // The fingerprint names the new poster, so a retried job still knows this media was looked at.
      analysedMedia: mediaFingerprint(posterKey ? { ...activity, thumbnailKey: posterKey } : activity),
      ...(posterKey ? { posterKey } : {}),
    };
    const at = now();
    // In amnesia mode nothing new is kept: no faces, so nothing a correction could later learn from either.
    await deps.activities.saveAnalysis(
      activity,
      result,
      user.isAmnesiaModeEnabled ? null : outcome.faces,
      at,
    );
    log.debug(
      {
        activityId: activity.id,
        frames: results.length,
        lookedMs,
        totalMs: Math.round(performance.now() - started),
        objects: objects.length,
        faces: faces.length,
        recognised: outcome.recognised.length,
      },
      'activity analysed',
    );
    return { ...activity, ...result, thumbnailKey: posterKey ?? activity.thumbnailKey, analysedAt: at };
  }

  return {
    async analyseActivity(activityId: string): Promise<void> {
      const ctx = await deps.activities.loadContext(activityId);
      if (!ctx) return; // deleted (or purged) before its turn came: nothing to do
      const { activity, camera, user } = ctx;
      if (user.isGlobalPrivacyModeEnabled || camera.isPrivateModeEnabled) {
        // Private mode switched on after the event arrived: the AI does not look.
        log.info({ activityId }, 'activity not analysed: private mode');
        return;
      }
      const until = activity.ephemeralUntil ? null : ephemeralUntil(user, now());
      if (until) {
        await deps.activities.markEphemeral(activity.id, until);
        activity.ephemeralUntil = until;
      }
      const unchanged = activity.analysedAt !== null && activity.analysedMedia === mediaFingerprint(activity);
      const analysed = unchanged ? activity : await analyse(ctx);
      if (deps.routine) {
        analysed.routine = await deps.routine.judge({ ...ctx, activity: analysed });
        await deps.activities.saveRoutine(analysed.id, analysed.routine);
      }
      const alerted = await deps.alerts.alertFor({ ...ctx, activity: analysed });
      await deps.watches?.activityAnalysed({ ...ctx, activity: analysed }, { alerted });
    },
  };
}
export type AnalysisService = ReturnType<typeof createAnalysisService>;
