/**
 * PostgreSQL's unique_violation (SQLSTATE 23505), from the driver or as the cause of Drizzle's query error:
 * a row with that key exists already (a race lost, or a retried job that got there first).
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause)
    if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}
