import type { i18n, TFunction } from 'i18next';
import { CODE_TTL_SEC } from '../../shared/one-time-codes.ts';
import { createI18n, loadResources, localiseValue } from '../../server/i18n.ts';

/**
 * The server's messages in Bengali (docs/rules/bengali.md): numbers in Bengali digits, type names as Bengali words,
 * the code SMS in one message. English is left as it is.
 */
let i18next: i18n;
let bn: TFunction;
let en: TFunction;
const resources = loadResources();

beforeAll(async () => {
  i18next = await createI18n(resources);
  bn = i18next.getFixedT('bn');
  en = i18next.getFixedT('en');
});

describe('numbers in messages', () => {
  test.each<[string, Record<string, unknown>, string, string]>([
    [
      'api:tooManyRequests',
      { seconds: 42 },
      'অনেকবার চেষ্টা করা হয়েছে। ৪২ সেকেন্ড পর আবার চেষ্টা করুন।',
      'Too many attempts. Please try again in 42 seconds.',
    ],
    [
      'api:tooManyRequests',
      { seconds: 3600 },
      'অনেকবার চেষ্টা করা হয়েছে। ৩,৬০০ সেকেন্ড পর আবার চেষ্টা করুন।',
      'Too many attempts. Please try again in 3600 seconds.',
    ],
    ['validation:tooBig', { max: 254 }, 'সর্বোচ্চ ২৫৪টি অক্ষর বা অঙ্ক দেওয়া যাবে।', 'Ensure this value has at most 254 characters or digits.'],
    ['validation:tooSmall', { min: 0 }, 'মানটি কমপক্ষে ০ হতে হবে।', 'Ensure this value is at least 0.'],
    ['validation:tooSmall', { min: 100000n }, 'মানটি কমপক্ষে ১,০০,০০০ হতে হবে।', 'Ensure this value is at least 100000.'],
  ])('%s %o', (key, vars, bnText, enText) => {
    expect(bn(key, vars)).toBe(bnText);
    expect(en(key, vars)).toBe(enText);
    // As the accounts service asks: the language as an option rather than a fixed translator.
    expect(i18next.t(key, { ...vars, lng: 'bn' })).toBe(bnText);
  });

  test('strings are left as they are: the code stays in ASCII digits', () => {
    expect(bn('api:codeTextReset', { code: '012345', minutes: 10 })).toContain('012345');
    expect(localiseValue('017', 'bn', 'phone')).toBe('017');
    expect(localiseValue(Number.NaN, 'bn', 'n')).toBeNaN();
    expect(localiseValue(7, 'en', 'n')).toBe(7);
  });

  test('no Bengali text shows an ASCII digit, with every variable a number', () => {
    const found: string[] = [];
    const walk = (ns: string, tree: unknown, path: string[]): void => {
      if (typeof tree === 'string') {
        const vars = Object.fromEntries([...tree.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => [m[1], 1234567890]));
        const key = `${ns}:${path.join('.')}`;
        const text = String(bn(key, { ...vars, count: 2 }));
        if (/[0-9]/.test(text)) found.push(`${key}: ${text}`);
      } else if (tree && typeof tree === 'object') {
        for (const [k, v] of Object.entries(tree)) walk(ns, v, [...path, k]);
      }
    };
    for (const [ns, tree] of Object.entries(resources.bn ?? {})) walk(ns, tree, []);
    expect(found).toEqual([]);
  });
});

describe('validation:wrongType names the type in Bengali', () => {
  test.each([
    ['string', 'এখানে লেখা দিন।'],
    ['number', 'এখানে একটি সংখ্যা দিন।'],
    ['int', 'এখানে একটি পূর্ণসংখ্যা দিন।'],
    ['boolean', 'এখানে হ্যাঁ/না (true বা false) দিন।'],
    ['array', 'এখানে একটি তালিকা দিন।'],
    ['symbol', 'এখানে সঠিক ধরনের মান দিন।'],
  ])('%s', (expected, bnText) => {
    expect(bn('validation:wrongType', { expected })).toBe(bnText);
  });

  test('English keeps the type name', () => {
    expect(en('validation:wrongType', { expected: 'string' })).toBe('Expected a string.');
  });
});

describe('the code texts', () => {
  const minutes = CODE_TTL_SEC / 60;
  // A Bengali SMS is sent as UCS-2: one message holds 70 characters (UTF-16 units; Bengali is all in the BMP).
  // An English one is GSM-7: 160 characters, none of them from the extension table (those count twice).
  test.each(['api:codeTextAccount', 'api:codeTextReset'])('%s fits one SMS in both languages', (key) => {
    expect(minutes).toBe(10);
    for (const code of ['12345', '123456']) {
      const bnText = bn(key, { code, minutes });
      expect(bnText).toContain(code);
      expect(bnText).toContain('১০ মিনিট');
      expect(bnText.length).toBeLessThanOrEqual(70);
      const enText = en(key, { code, minutes });
      expect(enText).toContain(code);
      expect(enText.length).toBeLessThanOrEqual(160);
      expect(enText).toMatch(/^[A-Za-z0-9 .,:;!?'()-]+$/);
    }
  });

  test('the Bengali texts read as a Bangladeshi SMS', () => {
    expect(bn('api:codeTextAccount', { code: '48291', minutes })).toBe('ভাগ্য যাচাই কোড: 48291। মেয়াদ ১০ মিনিট। কাউকে জানাবেন না।');
    expect(bn('api:codeTextReset', { code: '482913', minutes })).toBe('ভাগ্য পাসওয়ার্ড রিসেট কোড: 482913। মেয়াদ ১০ মিনিট। কাউকে জানাবেন না।');
  });
});
