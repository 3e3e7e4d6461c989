import { useEffect, useState } from 'react';

/** Seconds left, ticking down once a second to 0. */
export function useCountdown(initialSeconds = 0) {
  const [seconds, setSeconds] = useState(initialSeconds);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = setTimeout(() => setSeconds((s) => Math.max(0, s - 1)), 1_000);
    return () => clearTimeout(timer);
  }, [seconds]);
  return [seconds, setSeconds] as const;
}

/** Seconds to wait from a 429 answer: a `retryAfterSeconds` detail, else the first number in the message. */
export function secondsFromRateLimit(
  error: { message?: string; details?: { field: string; message: string }[] },
  fallback: number,
) {
  const detail = error.details?.find((d) => /retry/i.test(d.field))?.message ?? error.details?.[0]?.message;
  const fromDetail = detail ? Number.parseInt(detail, 10) : NaN;
  if (Number.isFinite(fromDetail) && fromDetail > 0) return fromDetail;
  const fromMessage = Number.parseInt(/(\d+)/.exec(error.message ?? '')?.[1] ?? '', 10);
  return Number.isFinite(fromMessage) && fromMessage > 0 ? fromMessage : fallback;
}
