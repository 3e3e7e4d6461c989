import { describe, expect, it } from 'vitest';
import { proratedRefund, spreadRefund } from './billing.service.js';

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

describe('spreading a refund over the payments', () => {
  const pay = (paymentIntentId: string, amountPaid: number, refundedOther = 0, refundedOurs = 0) => ({
    paymentIntentId,
    amountPaid,
    refundedOther,
    refundedOurs,
  });

  it('takes from the newest payment first, each at most what is left on it', () => {
    expect(spreadRefund(8998, [pay('pi_new', 8400), pay('pi_old', 900)])).toEqual([
      { paymentIntentId: 'pi_new', planned: 8400, done: 0 },
      { paymentIntentId: 'pi_old', planned: 598, done: 0 },
    ]);
  });

  it('leaves out what was refunded for other reasons, and counts its own earlier refunds as done', () => {
    expect(spreadRefund(1000, [pay('pi_new', 800, 300, 500), pay('pi_old', 900)])).toEqual([
      { paymentIntentId: 'pi_new', planned: 500, done: 500 },
      { paymentIntentId: 'pi_old', planned: 500, done: 0 },
    ]);
  });

  it('plans no more than the payments hold', () => {
    const parts = spreadRefund(5000, [pay('pi_a', 900, 900)]);
    expect(parts).toEqual([{ paymentIntentId: 'pi_a', planned: 0, done: 0 }]);
  });
});
