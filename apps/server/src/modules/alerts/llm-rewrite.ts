import { imageDataUrl } from '../../adapters/llm/llm.js';
import type { ObjectStorage } from '../../adapters/storage/storage.js';
import type { ActivitiesApi, AnalysisContext } from '../activities/activities.module.js';
import { factsOf, localisedLanguage } from '../language/language.module.js';
import type { AlertsRepository } from './alerts.repository.js';
import type { AlertsService } from './alerts.service.js';
import type { LlmDescriber } from './llm-sentence.js';

/**
 * With a language model (`LLM_BASE_URL`), an alert's sentence is rewritten from the image and the facts
 * (what was detected and recognised, the camera's notes, the recognised memories' notes). The alert goes out
 * first with the composer's sentence; this runs after it (`alerts.describe-alert`) and updates the same message.
 * A slow, failing or doubtful answer leaves the composer's sentence in place (llm-sentence.ts decides).
 */
export interface RicherDescriptionsDeps {
  repo: Pick<AlertsRepository, 'memoryNotes'>;
  /** Stores the richer sentence on the activity (the activities module owns it). */
  activities: Pick<ActivitiesApi, 'loadContext' | 'updateDescriptions'>;
  describer: Pick<LlmDescriber, 'describe'>;
  /** The activity's picture (its poster or thumbnail), for models that look at images. */
  image(ctx: AnalysisContext): Promise<{ bytes: Buffer; contentType: string } | undefined>;
  alerts: Pick<AlertsService, 'refresh'>;
  now?: () => Date;
}

/** A poster or thumbnail is well under this; anything larger is not sent to a model. */
const MAX_PICTURE_BYTES = 4 * 1024 * 1024;

/** The activity's poster or thumbnail from storage, for the model to look at. */
export function activityPicture(storage: Pick<ObjectStorage, 'get'>): RicherDescriptionsDeps['image'] {
  return async ({ activity }) => {
    const object = activity.thumbnailKey ? await storage.get(activity.thumbnailKey) : undefined;
    if (!object || object.size > MAX_PICTURE_BYTES) {
      object?.body.destroy();
      return undefined;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body)
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    return { bytes: Buffer.concat(chunks), contentType: object.contentType };
  };
}

export function createRicherDescriptions(deps: RicherDescriptionsDeps) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async describe(activityId: string): Promise<void> {
      const ctx = await deps.activities.loadContext(activityId);
      const messageId = ctx?.activity.alertMessageId;
      if (!ctx?.activity.description || !messageId) return;
      const { activity, camera, user } = ctx;
      // No picture: the maker's verdict is all there is, and a model has nothing to add to it but guesses.
      if (activity.mediaKind === 'none') return;
      const memories = await repo.memoryNotes(user.id, now());
      const recognised = new Set(activity.recognised.map((r) => r.memory_uuid));
      const picture = await deps.image(ctx);
      const richer = await deps.describer.describe({
        facts: factsOf({
          cameraName: camera.name,
          siteName: ctx.siteName,
          timezone: user.timezone,
          occurredAt: activity.occurredAt,
          mediaKind: activity.mediaKind,
          objects: activity.objects,
          recognised: activity.recognised,
          cameraVerdict: activity.cameraVerdict,
        }),
        localizedLanguage: localisedLanguage(user.preferredLanguage),
        imageUrl: picture && imageDataUrl(picture.bytes, picture.contentType),
        cameraNotes: camera.notes,
        memoryNotes: memories
          .filter((m) => recognised.has(m.id) && m.notes?.trim())
          .map((m) => ({
            name: activity.recognised.find((r) => r.memory_uuid === m.id)!.name,
            notes: m.notes!,
          })),
        knownNames: memories.flatMap((m) =>
          m.category !== 'vehicles' && m.name?.trim() ? [m.name.trim()] : [],
        ),
      });
      if (!richer) return;
      await deps.activities.updateDescriptions(activity.id, richer);
      await deps.alerts.refresh(user.id, messageId);
    },
  };
}
export type RicherDescriptions = ReturnType<typeof createRicherDescriptions>;
