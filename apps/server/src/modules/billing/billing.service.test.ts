import { describe, expect, it } from 'vitest';
import { proratedRefund } from './billing.service.js';

describe('the prorated refund', () => {
  const month = { start: 1_000_000, end: 1_000_000 + 30 * 86_400 };

  it('refunds the unused share of what was paid, to the second, rounded down', () => {
    expect(proratedRefund(900, month, month.start)).toBe(900);
    expect(proratedRefund(900, month, month.start + 15 * 86_400)).toBe(450);
    expect(proratedRefund(900, month, month.end - 3600)).toBe(1);
    expect(proratedRefund(900, month, month.end - 1)).toBe(0);
  });

  it('refunds nothing after the period and never more than was paid', () => {
    expect(proratedRefund(900, month, month.end + 10)).toBe(0);
    expect(proratedRefund(900, month, month.start - 86_400)).toBe(900);
    expect(proratedRefund(900, { start: null, end: null }, month.start)).toBe(0);
  });
});
