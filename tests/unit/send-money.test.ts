/** The rule that confirms a Send Money purchase on bKash's word (server/payments/send-money.ts, docs/rules/payments.md#9-send-money-confirmed-by-bkash). */
import type { BkashTransaction } from '../../server/payments/bkash/client.ts';
import { judgeSendMoney, type SendMoneyPurchase } from '../../server/payments/send-money.ts';

const RECEIVER = '01700000000';
const purchase: SendMoneyPurchase = {
  amount: 100,
  createdAt: '2026-11-28T04:00:00.000Z',
  salesCloseAt: '2026-11-30T18:00:00.000Z',
  trxIdUsed: false,
};
const paid: BkashTransaction = {
  trxID: 'ABC123DEF4',
  transactionStatus: 'Completed',
  transactionType: 'Send Money',
  amount: 100,
  currency: 'BDT',
  customerMsisdn: '01770618575',
  receiver: RECEIVER,
  transactionReference: null,
  completedTime: '2026-11-28T04:03:00.000Z',
  initiationTime: '2026-11-28T04:02:59.000Z',
};
const judge = (bk: Partial<BkashTransaction> | null, p: Partial<SendMoneyPurchase> = {}) =>
  judgeSendMoney(bk === null ? null : { ...paid, ...bk }, { ...purchase, ...p }, RECEIVER);

test('a completed payment of the amount to our number, after the purchase and before the close, TrxID unused: confirmed', () => {
  expect(judge({})).toEqual({ ok: true });
  // The receiver as bKash may write it; no currency given; a Payment to our number is money to us too.
  expect(judge({ receiver: '8801700000000', currency: null, transactionType: 'Payment' })).toEqual({ ok: true });
  // Just inside both ends.
  expect(judge({ completedTime: '2026-11-28T04:00:00.001Z' })).toEqual({ ok: true });
  expect(judge({ completedTime: '2026-11-30T17:59:59.999Z' })).toEqual({ ok: true });
});

test.each<[string, Partial<BkashTransaction> | null, Partial<SendMoneyPurchase>]>([
  ['not_found', null, {}],
  ['not_completed', { transactionStatus: 'Initiated' }, {}],
  ['not_completed', { transactionStatus: 'Failed' }, {}],
  ['not_completed', { transactionStatus: 'completed' }, {}],
  ['not_completed', { completedTime: null }, {}],
  ['wrong_receiver', { receiver: '01711111111' }, {}],
  ['wrong_receiver', { receiver: null }, {}],
  ['wrong_receiver', { receiver: 'BHAGYA' }, {}],
  ['amount_differs', { amount: 99 }, {}],
  ['amount_differs', { amount: 101 }, {}],
  ['amount_differs', { amount: null }, {}],
  ['amount_differs', { currency: 'USD' }, {}],
  ['before_purchase', { completedTime: '2026-11-28T03:59:59.999Z' }, {}],
  ['before_purchase', { completedTime: '2026-11-28T04:00:00.000Z' }, {}],
  ['after_close', { completedTime: '2026-11-30T18:00:00.000Z' }, {}],
  ['after_close', { completedTime: '2026-12-01T00:00:00.000Z' }, {}],
  ['trx_id_used', {}, { trxIdUsed: true }],
])('%s: %j %j', (reason, bk, p) => {
  expect(judge(bk, p)).toEqual({ ok: false, reason });
});

test('the first check that fails is the reason: not found before anything, the receiver before the amount', () => {
  expect(judge(null, { trxIdUsed: true })).toEqual({ ok: false, reason: 'not_found' });
  expect(judge({ receiver: '01711111111', amount: 5 })).toEqual({ ok: false, reason: 'wrong_receiver' });
  expect(judge({ amount: 5, completedTime: '2020-01-01T00:00:00.000Z' })).toEqual({ ok: false, reason: 'amount_differs' });
  expect(judge({ completedTime: '2027-01-01T00:00:00.000Z' }, { trxIdUsed: true })).toEqual({ ok: false, reason: 'after_close' });
});
