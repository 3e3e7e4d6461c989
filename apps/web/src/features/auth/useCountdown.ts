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

/** Seconds to wait from a 429 answer: the server's `retryAfterSeconds`, else the fallback. */
export function secondsFromRateLimit(error: { retryAfterSeconds?: number }, fallback: number) {
  return error.retryAfterSeconds !== undefined && error.retryAfterSeconds > 0
    ? error.retryAfterSeconds
    : fallback;
}
