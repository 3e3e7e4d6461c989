import type { ActivityCorrectionResult, ActivityRecognition } from '@homesitter/contract';
import { api } from '../../shared/lib/api';

/** Who the AI recognised in one activity: the alert's correction buttons read it. */
export const recognitionKey = (activityUuid: string) => ['ai', 'recognition', activityUuid] as const;

export async function fetchRecognition(activityUuid: string): Promise<ActivityRecognition> {
  return (await api.call('getActivityRecognition', { params: { activity_uuid: activityUuid } })).data;
}

/** "That's Rose" (`isCorrect`) or "Not Rose" for one activity; the AI learns from its face. */
export async function postCorrection(
  activityUuid: string,
  memoryUuid: string,
  isCorrect: boolean,
): Promise<ActivityCorrectionResult> {
  return (
    await api.call('correctActivityRecognition', {
      params: { activity_uuid: activityUuid },
      body: { memory_uuid: memoryUuid, is_correct: isCorrect },
    })
  ).data;
}
