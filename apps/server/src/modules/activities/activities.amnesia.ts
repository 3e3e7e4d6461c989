import { EPHEMERAL_ACTIVITY_HOURS } from '../../platform/db/schema.js';

/**
 * Amnesia mode: an activity of an owner who has it on is kept only for its alert, until `EPHEMERAL_ACTIVITY_HOURS`
 * from now, and never shown in history (see `activities.ephemeral_until`). Null when amnesia mode is off. The
 * processing sets it on a new activity; the analysis sets it on one whose owner switched amnesia on since.
 */
export function ephemeralUntil(owner: { isAmnesiaModeEnabled: boolean }, now: Date): Date | null {
  return owner.isAmnesiaModeEnabled ? new Date(now.getTime() + EPHEMERAL_ACTIVITY_HOURS * 3_600_000) : null;
}
