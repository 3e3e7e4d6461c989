/** Jobs of the AI module (see platform/jobs.ts). */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    /** Look at an activity, store what was seen and alert the owner. Sent by activities with the activity. */
    'activity.analyse': { activityId: string };
    /** With an LLM: rewrite an alert's sentence from its image and facts, after the alert went out. */
    'ai.describe-alert': { activityId: string };
    /** Hourly: purge the activities kept only for their alert while amnesia mode was on. */
    'ai.purge-ephemeral': Record<string, never>;
  }
}

export {};
