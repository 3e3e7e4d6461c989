/** Jobs the activities module sends and works (see platform/jobs.ts). */
declare module '../../platform/jobs.js' {
  interface JobPayloads {
    /** Turn a stored camera upload into (part of) an activity. Sent by ingest with the upload row. */
    'ingest.process-upload': { uploadId: string };
    /** Look at an activity. Sent with the activity's insert or its new media; analysis.jobs.ts works it. */
    'activity.analyse': { activityId: string };
    /** Daily: delete activities, their media and uploads older than RETENTION_DAYS. */
    'activities.retention': Record<string, never>;
    /** Hourly: delete uploads held for lack of free events for more than 24 h. */
    'ingest.purge-held': Record<string, never>;
  }
}

export {};
