import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@homesitter/contract';
import { describe, expect, it } from 'vitest';
import de from '../../../public/locales/de/billing.json';
import en from '../../../public/locales/en/billing.json';
import enMain from '../../../public/locales/en/translation.json';
import { formatMoney } from './format';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`),
  );
}

function has(tree: Tree, key: string): boolean {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' && node.length > 0;
}

const sources = readdirSync(__dirname)
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && f !== 'testKit.tsx')
  .map((f) => ({ file: f, code: readFileSync(path.join(__dirname, f), 'utf8') }));

describe('billing translations', () => {
  it('English and German have the same keys, none empty', () => {
    expect(keysOf(de).sort()).toEqual(keysOf(en).sort());
    for (const tree of [en, de]) for (const key of keysOf(tree)) expect(has(tree, key)).toBe(true);
  });

  it('every billing key the screens use exists (plans and statuses by name)', () => {
    const missing: string[] = [];
    for (const { file, code } of sources) {
      if (!code.includes("useTranslation('billing')")) continue;
      for (const [, key] of code.matchAll(/\bt\(\s*'([a-z][A-Za-z.]+)'/g))
        if (key && !has(en, key)) missing.push(`${file}: ${key}`);
    }
    for (const plan of ['monthly', 'yearly']) {
      expect(has(en, `plans.${plan}`)).toBe(true);
      expect(has(en, `actions.switchTo.${plan}`)).toBe(true);
    }
    expect(missing).toEqual([]);
  });

  it('every main-namespace key they use exists (the §8 messages, common words)', () => {
    const missing: string[] = [];
    for (const { file, code } of sources)
      for (const [, key] of code.matchAll(/\btc\(\s*'([a-z][A-Za-z.]+)'/g))
        if (key && !has(enMain as unknown as Tree, key)) missing.push(`${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('has the banner in the three wordings docs/product.md §9 asks for', () => {
    for (const tree of [en, de])
      for (const form of ['zero', 'one', 'other']) expect(has(tree, `freeBanner.events_${form}`)).toBe(true);
  });

  it('keeps the §8 payment messages word for word in English', () => {
    for (const key of [
      'paymentFailed',
      'paymentCancelled',
      'invalidPlan',
      'initializePaymentFailed',
      'verifySubscriptionFailed',
      'loadSubscriptionPricesFailed',
      'startCheckoutFailed',
      'createPaymentIntentFailed',
      'activateSubscriptionFailed',
      'updateSubscriptionFailed',
      'openBillingPortalFailed',
    ] as const)
      expect(enMain.errors[key]).toBe(MESSAGES[key]);
  });
});

describe('money', () => {
  it('turns minor units into the amount, written the language’s way', () => {
    expect(formatMoney({ amount: 999, currency: 'usd' }, 'en')).toBe('$9.99');
    expect(formatMoney({ amount: 9900, currency: 'eur' }, 'de')).toBe('99,00\u00a0€');
    expect(formatMoney({ amount: 500, currency: 'jpy' }, 'en')).toBe('¥500');
  });
});
