import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { activities, cameras, sites, users } from '../../platform/db/schema.js';
import type { ActivityRow } from './activities.repository.js';

/** The camera's settings that decide what the AI may do with its events. */
export interface CameraContext {
  id: string;
  name: string;
  siteId: string | null;
  notes: string | null;
  isMuted: boolean;
  /** Alerts only about events its routine finds unusual. */
  onlyUnusualAlerts: boolean;
  isPrivateModeEnabled: boolean;
  isFacialRecognitionEnabled: boolean;
}

/** The owner's settings that decide what the AI may do, say and keep. */
export interface OwnerContext {
  id: string;
  preferredLanguage: string;
  timezone: string | null;
  isFacialRecognitionEnabled: boolean;
  isAmnesiaModeEnabled: boolean;
  isGlobalPrivacyModeEnabled: boolean;
}

export interface AnalysisContext {
  activity: ActivityRow;
  camera: CameraContext;
  user: OwnerContext;
  /** The camera's property name when the user has more than one property (descriptions then say which). */
  siteName: string | null;
}

/**
 * The activity with its camera and owner; undefined when the activity is gone (deleted, purged). The alert,
 * its corrections and its richer sentence read it, and so does the analysis before them, all through
 * `activities.api.loadContext`: the rows are the activities module's, which comes first on an upload's path.
 */
export async function loadAnalysisContext(db: Db, activityId: string): Promise<AnalysisContext | undefined> {
  const [row] = await db
    .select({
      activity: activities,
      camera: {
        id: cameras.id,
        name: cameras.name,
        siteId: cameras.siteId,
        notes: cameras.notes,
        isMuted: cameras.isMuted,
        onlyUnusualAlerts: cameras.onlyUnusualAlerts,
        isPrivateModeEnabled: cameras.isPrivateModeEnabled,
        isFacialRecognitionEnabled: cameras.isFacialRecognitionEnabled,
      },
      user: {
        id: users.id,
        preferredLanguage: users.preferredLanguage,
        timezone: users.timezone,
        isFacialRecognitionEnabled: users.isFacialRecognitionEnabled,
        isAmnesiaModeEnabled: users.isAmnesiaModeEnabled,
        isGlobalPrivacyModeEnabled: users.isGlobalPrivacyModeEnabled,
      },
      siteName: sites.name,
      activeSites: sql<number>`(select count(*)::int from ${sites} s where s.user_id = ${users.id} and s.removed_at is null)`,
    })
    .from(activities)
    .innerJoin(cameras, eq(cameras.id, activities.cameraId))
    .innerJoin(users, eq(users.id, activities.userId))
    .leftJoin(sites, and(eq(sites.id, cameras.siteId), isNull(sites.removedAt)))
    .where(eq(activities.id, activityId))
    .limit(1);
  if (!row) return undefined;
  return {
    activity: row.activity,
    camera: row.camera,
    user: row.user,
    siteName: row.activeSites > 1 ? row.siteName : null,
  };
}
