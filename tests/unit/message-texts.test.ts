/**
 * Players' messages in words (server/messages/texts.ts, shared/messages/kinds.ts; docs/rules/messages.md): every kind
 * and variant in both languages fits one SMS with the longest values it can carry, a short lottery name is kept whole,
 * Bengali ones are written with Bengali digits (a TrxID stays as bKash wrote it), and stored values that are not the
 * kind's make no message.
 */
import type { i18n, TFunction } from 'i18next';
import { createI18n, loadResources } from '../../server/i18n.ts';
import { renderMessage } from '../../server/messages/texts.ts';
import { fitSms, fitsOneSms, isGsm, MESSAGE_KINDS, REJECT_REASONS, type MessageKind } from '../../shared/messages/kinds.ts';
import { PAYOUT_REFUSAL_REASONS } from '../../shared/claims/payout.ts';
import { LOTTERY_NAME_MAX } from '../../shared/lotteries/schemas.ts';

let i18next: i18n;
let t: TFunction;
beforeAll(async () => {
  i18next = await createI18n(loadResources());
  t = i18next.t.bind(i18next);
});

const LONG_EN = 'Grand Victory Day Jackpot Special '.repeat(4).slice(0, LOTTERY_NAME_MAX);
const LONG_BN = 'বিজয় দিবস মহা জ্যাকপট বিশেষ লটারি '.repeat(4).slice(0, LOTTERY_NAME_MAX);
/** No amount has an upper bound in the schemas: this one (৳৯৯,৯৯,৯৯,৯৯,৯৯৯) is more than any lottery will pay. */
const BIG = 99_999_999_999;
/** A big but real prize: one crore taka (৳১,০০,০০,০০০). */
const CRORE = 10_000_000;

/** Every variant of every kind, with the longest values it may carry (`amount`: every amount). */
function samples(name: string, nameBn: string, amount = BIG): [MessageKind, Record<string, unknown>][] {
  const lottery = { lottery_id: 123456, lottery: name, lottery_bn: nameBn };
  const ticket = '55-54-53-52-51-15';
  const deadline = '2026-12-31T17:59:59.000Z';
  const out: [MessageKind, Record<string, unknown>][] = [
    ['ticket_confirmed', { ...lottery, ticket, transaction_id: 9_999_999, amount }],
    ['payment_refunded', { ...lottery, ticket, transaction_id: 9_999_999, amount, trx_id: 'TRX9XK2MN7Q4' }],
    ['prize_won', { ...lottery, ticket, prize_id: 9_999_999, amount, deadline }],
    // The reason is on the page only: the SMS names the lottery and the amount (one SMS, whatever the reason).
    ['prize_withheld', { ...lottery, ticket, prize_id: 9_999_999, amount, reason: 'x'.repeat(500) }],
    ['payout_sent', { ...lottery, ticket, prize_id: 9_999_999, amount }],
    ['payout_sent', { ...lottery, ticket, prize_id: 9_999_999, amount, trx_id: 'TRX9XK2MN7Q4' }],
    // A transfer by hand's reference (shared/claims/schemas.ts TransferBody) is on the page only.
    ['payout_sent', { ...lottery, ticket, prize_id: 9_999_999, amount, reference: 'TRX9XK2MN7Q4'.repeat(3) }],
    ['payout_failed', { ...lottery, ticket, prize_id: 9_999_999, amount }],
    ['claim_reminder', { ...lottery, ticket, prize_id: 9_999_999, amount, deadline, days: 7 }],
    ['claim_reminder', { ...lottery, ticket, prize_id: 9_999_999, amount, deadline, days: 1 }],
    ['new_lottery', { ...lottery, price: amount, draw_date: deadline }],
    ['run_last_draw', { ...lottery, run_id: 9_999_999, draws: 25, draw_date: deadline }],
  ];
  for (const refusal of PAYOUT_REFUSAL_REASONS) out.push(['payout_failed', { ...lottery, ticket, prize_id: 9_999_999, amount, refusal }]);
  for (const reason of REJECT_REASONS) out.push(['ticket_rejected', { ...lottery, ticket, transaction_id: 9_999_999, amount, reason }]);
  return out;
}

test('every kind has a sample here, so that a new kind cannot miss these checks', () => {
  expect(new Set(samples('', '').map(([k]) => k))).toEqual(new Set(MESSAGE_KINDS));
});

describe.each(['en', 'bn'] as const)('%s', (lng) => {
  test('every kind and variant fits one SMS with the longest lottery name and the largest amounts', () => {
    for (const [kind, params] of samples(LONG_EN, LONG_BN)) {
      const m = renderMessage(t, kind, params, lng);
      expect(m).not.toBeNull();
      const sms = m?.sms ?? '';
      expect({ kind, params: params.reason ?? params.days ?? '', fits: fitsOneSms(sms), sms }).toMatchObject({ fits: true });
    }
  });

  test('with a prize of one crore, the longest name is shortened, never dropped: its first word is there', () => {
    for (const [kind, params] of samples(LONG_EN, LONG_BN, CRORE)) {
      const sms = renderMessage(t, kind, params, lng)?.sms ?? '';
      expect(fitsOneSms(sms)).toBe(true);
      expect({ kind, sms }).toEqual({ kind, sms: expect.stringContaining(lng === 'bn' ? 'বিজয়' : 'Grand') });
      // English SMS are GSM (160 a message): no curly quotes, no dashes outside the alphabet.
      if (lng === 'en') expect(isGsm(sms)).toBe(true);
    }
  });

  test('a short name is kept whole, and the page text and title are there', () => {
    for (const [kind, params] of samples('Bhagya Weekly', 'সাপ্তাহিক', 500)) {
      const m = renderMessage(t, kind, params, lng);
      expect(m?.sms).toContain(lng === 'bn' ? 'সাপ্তাহিক' : 'Bhagya Weekly');
      expect(m?.text).toContain(lng === 'bn' ? 'সাপ্তাহিক' : 'Bhagya Weekly');
      expect(m?.title.length).toBeGreaterThan(3);
      expect(m?.link).toMatch(/^\//);
    }
  });
});

test('Bengali: amounts and tickets in Bengali digits, the TrxID as bKash wrote it; no key left untranslated', () => {
  for (const [kind, params] of samples('Weekly', '')) {
    const m = renderMessage(t, kind, params, 'bn');
    for (const s of [m?.title ?? '', m?.text ?? '', m?.sms ?? ''].map((x) => x.replaceAll('TRX9XK2MN7Q4', ''))) {
      expect(s).not.toMatch(/[0-9]/);
      expect(s).not.toMatch(/messages:|kinds\./);
    }
  }
  const refund = renderMessage(t, 'payment_refunded', samples('Weekly', '', 500)[1]?.[1], 'bn');
  expect(refund?.sms).toContain('TRX9XK2MN7Q4');
  // A lottery without a Bengali name is named in English in a Bengali message.
  expect(renderMessage(t, 'payout_sent', samples('Weekly', '', 500)[4]?.[1], 'bn')?.sms).toContain('Weekly');
});

test('a rejection says why; a reminder says how long is left', () => {
  const [unpaid, missing] = REJECT_REASONS.map((reason) =>
    renderMessage(
      t,
      'ticket_rejected',
      { lottery_id: 1, lottery: 'W', lottery_bn: '', ticket: '01-02-03-04-05-06', transaction_id: 1, amount: 100, reason },
      'en',
    ),
  );
  expect(unpaid?.text).toContain('no payment of TK. 100 was received');
  expect(missing?.text).toContain('could not find the bKash payment');
  const base = {
    lottery_id: 1,
    lottery: 'W',
    lottery_bn: '',
    ticket: '01-02-03-04-05-06',
    prize_id: 4,
    amount: 500,
    deadline: '2026-12-31T10:00:00.000Z',
  };
  expect(renderMessage(t, 'claim_reminder', { ...base, days: 7 }, 'en')?.sms).toContain('7 days left');
  expect(renderMessage(t, 'claim_reminder', { ...base, days: 1 }, 'en')?.sms).toContain('the last day to claim');
  expect(renderMessage(t, 'claim_reminder', { ...base, days: 1 }, 'en')?.link).toBe('/user/prize-claim/4');
});

test('stored values that are not the kind’s make no message (never a text with holes)', () => {
  expect(renderMessage(t, 'ticket_confirmed', { lottery: 'W' }, 'en')).toBeNull();
  expect(
    renderMessage(
      t,
      'claim_reminder',
      { lottery_id: 1, lottery: 'W', lottery_bn: '', ticket: 'x', prize_id: 1, amount: 1, deadline: 'x', days: 3 },
      'en',
    ),
  ).toBeNull();
  expect(renderMessage(t, 'new_lottery', null, 'bn')).toBeNull();
});

describe('fitSms', () => {
  test('GSM text: 160 characters; anything else: 70 UTF-16 units', () => {
    expect(fitsOneSms('a'.repeat(160))).toBe(true);
    expect(fitsOneSms('a'.repeat(161))).toBe(false);
    expect(fitsOneSms('অ'.repeat(70))).toBe(true);
    expect(fitsOneSms('অ'.repeat(71))).toBe(false);
    // One character outside the GSM alphabet makes the whole text UCS-2.
    expect(fitsOneSms(`${'a'.repeat(100)}’`)).toBe(false);
  });
  test('shortens the name with an ellipsis until the text fits; leaves it out only when nothing of it fits', () => {
    const render = (n: string) => `Bhagya: ${n} is on sale now.`;
    expect(fitSms(render, 'Weekly', 'en')).toBe('Bhagya: Weekly is on sale now.');
    const long = fitSms(render, 'x'.repeat(300), 'en');
    expect(long.length).toBe(160);
    expect(long).toMatch(/x\.\.\. is on sale now\.$/);
    expect(fitSms((n) => `${'অ'.repeat(69)}${n}`, 'নাম', 'bn')).toBe('অ'.repeat(69));
    expect(fitSms((n) => `${'অ'.repeat(60)}${n}`, 'ক'.repeat(20), 'bn')).toBe(`${'অ'.repeat(60)}${'ক'.repeat(9)}…`);
  });
});

test("a prize paid by bKash names bKash's TrxID; a refused one says why, in both languages", () => {
  const prize = { lottery_id: 1, lottery: 'Weekly', lottery_bn: 'সাপ্তাহিক', ticket: '01-02-03-04-05-06', prize_id: 7, amount: 5000 };
  for (const lng of ['en', 'bn'] as const) {
    const paid = renderMessage(t, 'payout_sent', { ...prize, trx_id: 'BK7QX2M9PA' }, lng);
    expect(paid?.text).toContain('BK7QX2M9PA');
    expect(paid?.sms).toContain('BK7QX2M9PA');
    const byHand = renderMessage(t, 'payout_sent', { ...prize, reference: 'NGD8812' }, lng);
    expect(byHand?.text).toContain('NGD8812');
    expect(byHand?.text).not.toBe(paid?.text);
  }
  expect(renderMessage(t, 'payout_failed', { ...prize, refusal: 'wallet' }, 'en')?.text).toContain('not a bKash customer wallet');
  expect(renderMessage(t, 'payout_failed', { ...prize, refusal: 'wallet' }, 'bn')?.text).toContain('বিকাশ গ্রাহক ওয়ালেট নয়');
  // Marked failed by staff: no reason of bKash's.
  expect(renderMessage(t, 'payout_failed', prize, 'en')?.text).toContain('contact support');
});
