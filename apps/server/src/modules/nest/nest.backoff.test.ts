import { describe, expect, it } from 'vitest';
import { createLiveBackoffs } from './nest.backoff.js';
import { NestProviderError } from './nest.google.js';

const limited = (retryAfterS: number | null = null) =>
  new NestProviderError('GenerateRtspStream answered 429', 429, retryAfterS);

function setup() {
  let at = 1_000_000;
  const backoffs = createLiveBackoffs(() => at);
  return { backoffs, advance: (ms: number) => void (at += ms) };
}

describe('the live back-off of a Nest camera', () => {
  it('waits 10 s, doubling at each refusal up to 2 minutes, and starts again once a stream was had', () => {
    const { backoffs, advance } = setup();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const backoff = backoffs.refused('cam', limited());
      waits.push(backoffs.secondsLeft(backoff));
      advance(backoff.delayMs);
      expect(backoffs.current('cam')).toBeUndefined();
    }
    expect(waits).toEqual([10, 20, 40, 80, 120, 120]);
    backoffs.succeeded('cam');
    expect(backoffs.secondsLeft(backoffs.refused('cam', limited()))).toBe(10);
  });

  it("honours Google's Retry-After when longer, up to 5 minutes; tells a rate limit from another refusal", () => {
    const { backoffs } = setup();
    const given = backoffs.refused('a', limited(45));
    expect(backoffs.secondsLeft(given)).toBe(45);
    expect(given.rateLimited).toBe(true);
    expect(backoffs.secondsLeft(backoffs.refused('b', limited(86_400)))).toBe(300);
    const other = backoffs.refused('c', new NestProviderError('GenerateRtspStream answered 503', 503));
    expect(other.rateLimited).toBe(false);
    expect(backoffs.secondsLeft(other)).toBe(10);
  });

  it('keeps each camera apart and counts the seconds left down', () => {
    const { backoffs, advance } = setup();
    backoffs.refused('a', limited());
    expect(backoffs.current('b')).toBeUndefined();
    advance(7_500);
    expect(backoffs.secondsLeft(backoffs.current('a')!)).toBe(3);
  });
});
