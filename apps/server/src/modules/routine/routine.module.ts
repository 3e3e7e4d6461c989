import type { RoutineVerdict } from '../../platform/db/schema.js';
import type { AppModule, ModuleContext } from '../../platform/module.js';
import type { AnalysisContext } from '../activities/activities.module.js';
import { localDayNumber, localHour, weekdayOfDay, zoneOrUtc } from '../language/language.module.js';
import { createRoutineRepository } from './routine.repository.js';
import {
  dayPartOf,
  judgeEvent,
  ROUTINE_RECENT_HOURS,
  ROUTINE_WINDOW_DAYS,
  type RoutineEvent,
} from './routine.rules.js';

export {
  dayPartOf,
  ROUTINE_MIN_ACTIVE_DAYS,
  ROUTINE_MIN_SPAN_DAYS,
  ROUTINE_WINDOW_DAYS,
} from './routine.rules.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** People the household knows seen at another property this recently mean the household is there. */
const AWAY_HOURS = 2;

/** The facts of an analysed event the routine compares, in the owner's zone. */
export function routineEventOf(ctx: Pick<AnalysisContext, 'activity' | 'user'>): RoutineEvent {
  const { activity, user } = ctx;
  const present = activity.objects.filter((o) => !(o.kind === 'person' && o.background));
  const people = present.filter((o) => o.kind === 'person').reduce((n, o) => n + (o.count ?? 1), 0);
  const known = activity.recognised.filter((r) => r.category === 'people').length;
  const weekday = weekdayOfDay(localDayNumber(activity.occurredAt, user.timezone));
  return {
    kinds: [...new Set(present.map((o) => o.kind))],
    stranger: people > known,
    hour: localHour(activity.occurredAt, user.timezone),
    weekend: weekday === 0 || weekday === 6,
  };
}

/**
 * Each camera's routine, learned from the household's own events of the last weeks (nothing of it is stored:
 * it is counted from the activities when an event is judged, so amnesia mode keeps nothing of it either).
 */
export function createRoutineModule(context: ModuleContext) {
  const repo = createRoutineRepository(context.database.db);
  return {
    api: {
      /**
       * How the analysed event compares with its camera's routine; null while the camera's history is too
       * short to know one (a new household is not told that everything is unusual).
       */
      async judge(ctx: Pick<AnalysisContext, 'activity' | 'user'>): Promise<RoutineVerdict | null> {
        const { activity, user } = ctx;
        const to = new Date(activity.occurredAt.getTime() - ROUTINE_RECENT_HOURS * HOUR_MS);
        const from = new Date(activity.occurredAt.getTime() - ROUTINE_WINDOW_DAYS * DAY_MS);
        const history = await repo.history(
          user.id,
          activity.cameraId,
          { from, to },
          zoneOrUtc(user.timezone),
          activity.occurredAt,
        );
        const event = routineEventOf(ctx);
        const verdict = judgeEvent(event, history);
        if (!verdict || verdict.unusual || !event.stranger || !activity.siteId) return verdict ?? null;
        // A stranger at one property while the household was seen at another: nobody of theirs is there.
        const elsewhere = await repo.knownPeopleElsewhere(
          user.id,
          activity.siteId,
          new Date(activity.occurredAt.getTime() - AWAY_HOURS * HOUR_MS),
          activity.occurredAt,
        );
        if (!elsewhere) return verdict;
        const days = Math.min(ROUTINE_WINDOW_DAYS, history.spanDays);
        return { unusual: { rule: 'away', kind: 'person', part: dayPartOf(event.hour), days, elsewhere } };
      },
    },
  } satisfies AppModule<unknown>;
}
export type RoutineApi = ReturnType<typeof createRoutineModule>['api'];
