/** Activities (camera events): plain values the browser needs too, without zod. */

/** Activities a page of `GET /api/users/activities` holds unless `pageSize` says otherwise. */
export const ACTIVITIES_PAGE_SIZE = 20;
export const ACTIVITIES_MAX_PAGE_SIZE = 100;

/**
 * What an activity's media are: snapshots only, or a clip (with any snapshots of the same event), or none: an
 * event that reached the server after its picture had expired (a Nest event), known only from what the
 * camera's maker reported; clients show a "No picture" tile instead of an image.
 */
export const ACTIVITY_MEDIA_KINDS = ['image', 'video', 'none'] as const;
export type ActivityMediaKind = (typeof ACTIVITY_MEDIA_KINDS)[number];

/**
 * Whether the server made a clip's poster and HLS ('processed'), or could not run its media tools and kept the
 * clip only as the camera sent it ('unavailable'). Snapshots are always 'processed'.
 */
export const ACTIVITY_PROCESSING_STATUSES = ['processed', 'unavailable'] as const;
export type ActivityProcessingStatus = (typeof ACTIVITY_PROCESSING_STATUSES)[number];

/** The kinds of thing the vision engine reports in an activity. */
export const ACTIVITY_OBJECT_KINDS = ['person', 'vehicle', 'animal'] as const;
export type ActivityObjectKind = (typeof ACTIVITY_OBJECT_KINDS)[number];

/** Files of one camera this close together form one activity (one motion event). */
export const ACTIVITY_GROUPING_SECONDS = 10;
