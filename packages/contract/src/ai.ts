import { z } from 'zod';

/** The activity an AI call is about, addressed by its activity_uuid. */
export const activityUuidParamsSchema = z.object({
  activity_uuid: z.uuid({ message: 'activity_uuid must be an activity uuid' }),
});

/** POST /api/users/activities/{activity_uuid}/corrections: "that's Rose" (true) or "not Rose" (false). */
export const activityCorrectionRequestSchema = z.strictObject({
  memory_uuid: z.uuid({ message: 'memory_uuid must be a memory uuid' }),
  is_correct: z.boolean({ message: 'is_correct must be true or false' }),
});
export type ActivityCorrectionRequest = z.input<typeof activityCorrectionRequestSchema>;

/** A memory the AI recognised in an activity (issue 7: category, memory_uuid, name). */
export const recognisedMemorySchema = z.object({
  category: z.enum(['people', 'vehicles', 'animals']),
  memory_uuid: z.string(),
  name: z.string(),
});
export type RecognisedMemoryView = z.infer<typeof recognisedMemorySchema>;

/**
 * Who the AI recognised in an activity, and what one tap on its alert can still teach: `unknown_faces`
 * faces nobody was recognised in; `can_learn` is false when no face was kept (none seen, or amnesia mode).
 */
export const activityRecognitionSchema = z.object({
  activity_uuid: z.string(),
  recognised: z.array(recognisedMemorySchema),
  unknown_faces: z.number().int().nonnegative(),
  can_learn: z.boolean(),
});
export type ActivityRecognition = z.infer<typeof activityRecognitionSchema>;

/** The answer to a correction: the activity's recognition afterwards and how many faces taught the memory. */
export const activityCorrectionResultSchema = activityRecognitionSchema.extend({
  learned_faces: z.number().int().nonnegative(),
});
export type ActivityCorrectionResult = z.infer<typeof activityCorrectionResultSchema>;
