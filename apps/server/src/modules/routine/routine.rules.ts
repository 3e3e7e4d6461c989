/**
 * A camera's routine, learned from its own events of the last weeks: which kinds (people, vehicles, animals)
 * it sees in each part of the day, on weekdays and at weekends, and whether its people are ones the household
 * knows. An event departs from the routine when the camera has not seen its kind at this time of day (or on
 * this kind of day) in that time, or when it shows a stranger where only known people came. Counts only, no
 * model; docs/assistant.md "Unusual events".
 */
import type { DayPart, RoutineVerdict } from '../../platform/db/schema.js';

/** The weeks of history a judgement looks at. */
export const ROUTINE_WINDOW_DAYS = 30;
/**
 * Events of the last hours are left out of the history, so a night visitor's second and third event are as
 * unusual as the first (and a rerun of the analysis judges the same).
 */
export const ROUTINE_RECENT_HOURS = 6;
/** Too little to know a routine: the camera judges nothing until its first event is this many days old… */
export const ROUTINE_MIN_SPAN_DAYS = 14;
/** …and it has seen something on this many different days. */
export const ROUTINE_MIN_ACTIVE_DAYS = 7;
/** A weekday/weekend rule needs this many days of that sort with events. */
const MIN_DAYS_OF_SORT = 2;

export type RoutineKind = 'person' | 'vehicle' | 'animal';
const KINDS: readonly RoutineKind[] = ['person', 'vehicle', 'animal'];

/** Counts of one local hour on weekdays or at weekends, over the history. */
export interface RoutineCell {
  hour: number;
  weekend: boolean;
  person: number;
  vehicle: number;
  animal: number;
  /** Events with a person nobody recognised. */
  stranger: number;
}

export interface RoutineHistory {
  /** Local days with at least one event, oldest first, with whether each was a Saturday or Sunday. */
  days: { date: string; weekend: boolean }[];
  /** Days from the first event in the history to the judged event. */
  spanDays: number;
  cells: RoutineCell[];
}

/** What is judged of one event: its kinds, whether someone in it is a stranger, and its local time. */
export interface RoutineEvent {
  kinds: RoutineKind[];
  stranger: boolean;
  hour: number;
  weekend: boolean;
}

export function dayPartOf(hour: number): DayPart {
  if (hour < 6) return 'night';
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** The verdict on an event; undefined when the history is too short to know the routine. */
export function judgeEvent(event: RoutineEvent, history: RoutineHistory): RoutineVerdict | undefined {
  if (history.spanDays < ROUTINE_MIN_SPAN_DAYS || history.days.length < ROUTINE_MIN_ACTIVE_DAYS)
    return undefined;
  const part = dayPartOf(event.hour);
  const days = Math.min(ROUTINE_WINDOW_DAYS, history.spanDays);
  const atThisTime = history.cells.filter((c) => dayPartOf(c.hour) === part);
  const sum = (cells: RoutineCell[], field: RoutineKind | 'stranger') =>
    cells.reduce((n, c) => n + c[field], 0);
  const daysOfSort = history.days.filter((d) => d.weekend === event.weekend).length;
  for (const kind of KINDS.filter((k) => event.kinds.includes(k))) {
    if (sum(atThisTime, kind) === 0) return { unusual: { rule: 'never', kind, part, days } };
    const sameSort = atThisTime.filter((c) => c.weekend === event.weekend);
    if (daysOfSort >= MIN_DAYS_OF_SORT && sum(sameSort, kind) === 0)
      return { unusual: { rule: event.weekend ? 'weekend' : 'weekday', kind, part, days } };
  }
  if (event.stranger && sum(atThisTime, 'stranger') === 0)
    return { unusual: { rule: 'stranger', kind: 'person', part, days } };
  return { unusual: null };
}
