import type { ActivityCorrectionResult, ActivityRecognition } from '@homesitter/contract';
import type { RecognisedMemory } from '../../platform/db/schema.js';
import type { ActivityFaceRow } from '../activities/activities.findings.repository.js';
import type { ActivitiesApi } from '../activities/activities.module.js';
import { describe } from '../language/language.module.js';
import type { AlertsRepository } from './alerts.repository.js';
import type { AlertsService } from './alerts.service.js';
import { parseChatCorrection } from './chat-correction.js';
import { correctionErrors } from './corrections.errors.js';

export interface CorrectionsServiceDeps {
  repo: AlertsRepository;
  /** Writes a correction on the activity and its faces (the activities module owns them). */
  activities: Pick<ActivitiesApi, 'loadContext' | 'setFaceMemory' | 'updateRecognition'>;
  /** Adds a face to a person memory's examples; `negative` marks one that is not them. */
  faceExamples: {
    addCorrection(
      userId: string,
      memoryId: string,
      descriptor: number[],
      options: { negative: boolean; activityId: string },
    ): Promise<void>;
  };
  alerts: Pick<AlertsService, 'refresh'>;
  now?: () => Date;
}

/** What `applyChatCorrection` did: nothing (not a correction of an alert), or the answer to send back. */
export type ChatCorrectionOutcome = { handled: false } | { handled: true; reply: string };

const toView = (r: RecognisedMemory) => ({ category: r.category, memory_uuid: r.memory_uuid, name: r.name });

function recognitionView(activityId: string, recognised: RecognisedMemory[], faces: ActivityFaceRow[]) {
  return {
    activity_uuid: activityId,
    recognised: recognised.map(toView),
    unknown_faces: faces.filter((f) => !f.memoryId).length,
    can_learn: faces.length > 0,
  } satisfies ActivityRecognition;
}

const REPLIES = {
  en: {
    unknownName: (name: string) =>
      `I don't know anyone called ${name} yet. Add ${name} under Memories, then tell me again.`,
    confirmed: (name: string, learned: boolean) =>
      learned ? `Thanks! I'll remember that this is ${name}.` : `Thanks! I've noted ${name} on this alert.`,
    rejected: (name: string) => `Thanks! I'll remember that this is not ${name}.`,
  },
  de: {
    unknownName: (name: string) =>
      `Ich kenne noch niemanden namens ${name}. Lege ${name} unter Erinnerungen an und sag es mir dann noch einmal.`,
    confirmed: (name: string, learned: boolean) =>
      learned
        ? `Danke! Ich merke mir, dass das ${name} ist.`
        : `Danke! Ich habe ${name} bei dieser Meldung vermerkt.`,
    rejected: (name: string) => `Danke! Ich merke mir, dass das nicht ${name} ist.`,
  },
};

/**
 * Corrections teach the recogniser. "That's Rose": the activity's face (the one recognised as Rose, else its
 * only unknown face, else its only face) joins Rose's examples, and Rose is named on the activity. "Not
 * Rose": each face taken for Rose becomes a negative example for her and Rose leaves the activity. The
 * sentence and the alert message are rewritten either way.
 */
export function createCorrectionsService(deps: CorrectionsServiceDeps) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());

  /** The faces a confirmation of `memoryId` teaches from (see above); none when it is ambiguous. */
  function facesToConfirm(faces: ActivityFaceRow[], memoryId: string): ActivityFaceRow[] {
    const already = faces.filter((f) => f.memoryId === memoryId);
    if (already.length > 0) return already;
    const unknown = faces.filter((f) => !f.memoryId);
    if (unknown.length === 1) return unknown;
    return faces.length === 1 ? faces : [];
  }

  async function correct(
    userId: string,
    activityId: string,
    memoryId: string,
    isCorrect: boolean,
    options: { refreshAlert: boolean },
  ): Promise<ActivityCorrectionResult & { alertMessageId: string | null }> {
    const ctx = await deps.activities.loadContext(activityId);
    if (!ctx || ctx.user.id !== userId) throw correctionErrors.activityNotFound();
    const memory = await repo.findMemory(userId, memoryId, now());
    if (!memory) throw correctionErrors.memoryNotFound();
    if (memory.category === 'other') throw correctionErrors.notRecognisable();
    const { activity } = ctx;
    let faces = await repo.facesOf(userId, activityId);
    let recognised = activity.recognised.filter((r) => r.memory_uuid !== memoryId);
    let learned = 0;

    if (isCorrect) {
      const taught = memory.category === 'people' ? facesToConfirm(faces, memoryId) : [];
      for (const face of taught) {
        // Confirmed already (it is one of the memory's examples now, at distance 0): nothing new to learn.
        if (face.memoryId === memoryId && face.distance === 0) continue;
        if (face.memoryId && face.memoryId !== memoryId) {
          // It was taken for someone else: it is not them.
          await deps.faceExamples.addCorrection(userId, face.memoryId, face.descriptor, {
            negative: true,
            activityId,
          });
          const other = face.memoryId;
          if (!faces.some((f) => f.id !== face.id && f.memoryId === other))
            recognised = recognised.filter((r) => r.memory_uuid !== other);
        }
        await deps.faceExamples.addCorrection(userId, memoryId, face.descriptor, {
          negative: false,
          activityId,
        });
        await deps.activities.setFaceMemory(userId, face.id, memoryId, 0);
        learned += 1;
      }
      const name = memory.name?.trim() || activity.recognised.find((r) => r.memory_uuid === memoryId)?.name;
      recognised.push({ category: memory.category, memory_uuid: memoryId, name: name ?? memory.category });
    } else {
      for (const face of faces.filter((f) => f.memoryId === memoryId)) {
        await deps.faceExamples.addCorrection(userId, memoryId, face.descriptor, {
          negative: true,
          activityId,
        });
        await deps.activities.setFaceMemory(userId, face.id, null, null);
        learned += 1;
      }
    }
    if (learned > 0) faces = await repo.facesOf(userId, activityId);

    const descriptions = describe(
      {
        cameraName: activity.cameraName,
        siteName: ctx.siteName,
        timezone: ctx.user.timezone,
        occurredAt: activity.occurredAt,
        mediaKind: activity.mediaKind,
        objects: activity.objects,
        recognised,
        cameraVerdict: activity.cameraVerdict,
      },
      ctx.user.preferredLanguage,
    );
    await deps.activities.updateRecognition(userId, activityId, { recognised, ...descriptions });
    if (options.refreshAlert && activity.alertMessageId)
      await deps.alerts.refresh(userId, activity.alertMessageId);
    return {
      ...recognitionView(activityId, recognised, faces),
      learned_faces: learned,
      alertMessageId: activity.alertMessageId,
    };
  }

  return {
    async recognition(userId: string, activityId: string): Promise<ActivityRecognition> {
      const activity = await repo.findActivity(userId, activityId);
      if (!activity) throw correctionErrors.activityNotFound();
      return recognitionView(activityId, activity.recognised, await repo.facesOf(userId, activityId));
    },

    /** POST /api/users/activities/{activity_uuid}/corrections. */
    async correct(
      userId: string,
      activityId: string,
      memoryId: string,
      isCorrect: boolean,
    ): Promise<ActivityCorrectionResult> {
      const { alertMessageId: _, ...result } = await correct(userId, activityId, memoryId, isCorrect, {
        refreshAlert: true,
      });
      return result;
    },

    /**
     * For the assistant, before it answers a reply to one of its alerts: a reply like "that's Rose" or "nicht
     * Rose" corrects every activity of that alert and answers in the reply's language. Anything else is not
     * handled (the assistant answers as usual).
     */
    async applyChatCorrection(
      userId: string,
      replyToMessageUuid: string,
      text: string,
    ): Promise<ChatCorrectionOutcome> {
      const parsed = parseChatCorrection(text);
      if (!parsed) return { handled: false };
      const activities = await repo.alertActivities(userId, replyToMessageUuid);
      if (activities.length === 0) return { handled: false };
      const replies = REPLIES[parsed.language];
      const [memory] = await repo.findNamedMemories(userId, parsed.name, now());
      if (!memory)
        return parsed.looksLikeName
          ? { handled: true, reply: replies.unknownName(parsed.name) }
          : { handled: false };
      let learned = 0;
      for (const a of activities)
        learned += (await correct(userId, a.id, memory.id, parsed.isCorrect, { refreshAlert: false }))
          .learned_faces;
      await deps.alerts.refresh(userId, replyToMessageUuid);
      const name = memory.name?.trim() || parsed.name;
      return {
        handled: true,
        reply: parsed.isCorrect ? replies.confirmed(name, learned > 0) : replies.rejected(name),
      };
    },
  };
}
export type CorrectionsService = ReturnType<typeof createCorrectionsService>;
