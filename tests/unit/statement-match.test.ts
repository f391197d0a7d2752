/**
 * Matching statement rows to purchases (server/payments/statement-match.ts, docs/rules/payments.md "Matching the
 * statement to purchases"): one decision per row; only a received row whose TrxID, amount and sender all agree with
 * one pending purchase approves it.
 */
import { readFileSync } from 'node:fs';
import { matchStatement, type Decision, type PendingPurchase } from '../../server/payments/statement-match.ts';
import { readStatement, type StatementRow } from '../../server/payments/statement-parser.ts';

const row = (over: Partial<StatementRow> = {}): StatementRow => {
  const r: StatementRow = {
    line: 2,
    trxId: 'CKD4A7F2QX',
    amount: 100,
    sender: '01712345678',
    senderMasked: false,
    at: '2026-12-05T14:15:30.000Z',
    type: 'Send Money',
    direction: 'in',
    incoming: true,
    ...over,
  };
  return { ...r, incoming: r.direction === 'in' };
};
const purchase = (over: Partial<PendingPurchase> = {}): PendingPurchase => ({
  id: 7,
  trxId: 'CKD4A7F2QX',
  amount: 100,
  paymentNumber: '01712345678',
  accountPhone: '01900000000',
  status: 'pending',
  createdAt: '2026-12-05T14:00:00.000Z',
  ...over,
});
/** Decisions without the rows, for comparing. */
const brief = (ds: Decision[]) =>
  ds.map((d) => (d.kind === 'approve' ? [d.row.line, 'approve', d.transactionId] : [d.row.line, d.kind, d.reason, d.transactionId]));
const one = (rows: StatementRow[], purchases: PendingPurchase[]) => brief(matchStatement(rows, purchases))[0];

describe('approve', () => {
  test('TrxID, amount and the number the player said he paid from all agree with one pending purchase', () => {
    const r = row();
    expect(matchStatement([r], [purchase()])).toEqual([{ kind: 'approve', row: r, transactionId: 7 }]);
  });

  test('when the player gave no number, his account phone is the one the money must come from', () => {
    expect(one([row()], [purchase({ paymentNumber: '', accountPhone: '01712345678' })])).toEqual([2, 'approve', 7]);
  });

  test("a purchase's TrxID in another case still matches", () => {
    expect(one([row()], [purchase({ trxId: 'ckd4a7f2qx' })])).toEqual([2, 'approve', 7]);
  });
});

describe('review: a person decides', () => {
  test('a TrxID twice in the statement: every such row, even identical ones', () => {
    const rows = [row({ line: 5 }), row({ line: 9, trxId: 'CKD8B1L0ZM', sender: '01898765432' }), row({ line: 12 })];
    const purchases = [purchase(), purchase({ id: 8, trxId: 'CKD8B1L0ZM', paymentNumber: '01898765432' })];
    expect(brief(matchStatement(rows, purchases))).toEqual([
      [5, 'review', 'trx_id_twice', 7],
      [9, 'approve', 8],
      [12, 'review', 'trx_id_twice', 7],
    ]);
    expect(brief(matchStatement([row({ line: 5 }), row({ line: 6 })], []))).toEqual([
      [5, 'review', 'trx_id_twice', null],
      [6, 'review', 'trx_id_twice', null],
    ]);
  });

  test('a TrxID on two purchases (the database forbids it; still never approved)', () => {
    expect(one([row()], [purchase(), purchase({ id: 8, trxId: 'ckd4a7f2qx' })])).toEqual([2, 'review', 'trx_id_in_two_purchases', null]);
  });

  test('an amount that differs, more or less', () => {
    expect(one([row({ amount: 150 })], [purchase()])).toEqual([2, 'review', 'amount_differs', 7]);
    expect(one([row({ amount: 99 })], [purchase()])).toEqual([2, 'review', 'amount_differs', 7]);
  });

  test('a sender that differs from the number the player gave, even if it is his account phone', () => {
    expect(one([row({ sender: '01799999999' })], [purchase()])).toEqual([2, 'review', 'sender_differs', 7]);
    expect(one([row({ sender: '01900000000' })], [purchase()])).toEqual([2, 'review', 'sender_differs', 7]);
  });

  test('a masked sender whose shown digits agree; one whose shown digits differ', () => {
    expect(one([row({ sender: '017****5678', senderMasked: true })], [purchase()])).toEqual([2, 'review', 'sender_masked', 7]);
    expect(one([row({ sender: '018****5678', senderMasked: true })], [purchase()])).toEqual([2, 'review', 'sender_differs', 7]);
    expect(one([row({ sender: '017****5679', senderMasked: true })], [purchase()])).toEqual([2, 'review', 'sender_differs', 7]);
  });

  test('nothing to compare the sender with: no number given and no account phone', () => {
    expect(one([row()], [purchase({ paymentNumber: '', accountPhone: '' })])).toEqual([2, 'review', 'sender_not_given', 7]);
  });

  test('the amount is checked before the sender', () => {
    expect(one([row({ amount: 150, sender: '01799999999' })], [purchase()])).toEqual([2, 'review', 'amount_differs', 7]);
  });

  test('money received with a TrxID no purchase carries', () => {
    expect(one([row()], [])).toEqual([2, 'review', 'no_purchase', null]);
    expect(one([row()], [purchase({ trxId: null })])).toEqual([2, 'review', 'no_purchase', null]);
  });

  test('an approved purchase the row does not agree with', () => {
    expect(one([row({ amount: 150 })], [purchase({ status: 'success' })])).toEqual([2, 'review', 'already_settled', 7]);
    expect(one([row({ sender: '01799999999' })], [purchase({ status: 'success' })])).toEqual([2, 'review', 'already_settled', 7]);
  });

  test('a rejected purchase whose money arrived', () => {
    expect(one([row()], [purchase({ status: 'failed' })])).toEqual([2, 'review', 'purchase_failed', 7]);
  });

  test('a purchase carrying the TrxID of money paid out (a refund, a prize sent) or of a row of unknown direction', () => {
    expect(one([row({ direction: 'out', type: 'Refund' })], [purchase()])).toEqual([2, 'review', 'not_received', 7]);
    expect(one([row({ direction: 'unknown' })], [purchase()])).toEqual([2, 'review', 'direction_unknown', 7]);
  });
});

describe('ignore', () => {
  test('money paid out, or of unknown direction, that no purchase claims', () => {
    expect(one([row({ direction: 'out', type: 'Cash Out', sender: '' })], [])).toEqual([2, 'ignore', 'outgoing', null]);
    expect(one([row({ direction: 'unknown', type: 'Payment' })], [])).toEqual([2, 'ignore', 'direction_unknown', null]);
  });

  test('a purchase already approved with this TrxID, amount and sender (also masked, agreeing)', () => {
    expect(one([row()], [purchase({ status: 'success' })])).toEqual([2, 'ignore', 'already_approved', 7]);
    expect(one([row({ sender: '017****5678', senderMasked: true })], [purchase({ status: 'success' })])).toEqual([
      2,
      'ignore',
      'already_approved',
      7,
    ]);
  });
});

test("decisions come in the file's order, one per row, whatever order the rows arrive in", () => {
  const rows = [row({ line: 30, trxId: 'CKZZZZZZZ3' }), row({ line: 4 }), row({ line: 17, trxId: 'CKZZZZZZZ2' })];
  expect(brief(matchStatement(rows, [purchase()])).map((d) => d[0])).toEqual([4, 17, 30]);
  expect(matchStatement([], [purchase()])).toEqual([]);
});

describe('the merchant portal export, end to end', () => {
  const read = readStatement(
    readFileSync(new URL('../fixtures/bkash-statement/merchant-statement.csv', import.meta.url)),
    'merchant-statement.csv',
    { receiver: '01811000000' },
  );
  if (!read.ok) throw new Error('the fixture must read');
  const p = (id: number, trxId: string, over: Partial<PendingPurchase> = {}) =>
    purchase({ id, trxId, paymentNumber: '', accountPhone: '', ...over });
  const purchases = [
    p(101, 'CKD4A7F2QX', { paymentNumber: '01712345678' }),
    p(102, 'CKD8B1L0ZM', { amount: 1000, accountPhone: '01898765432' }),
    p(103, 'CKE2H5N9TA', { paymentNumber: '01555123456' }),
    p(105, 'CKF7K2R4VC', { paymentNumber: '01911223344' }), // paid 150 for a 100 ticket
    p(106, 'CKG1M8S5WD', { paymentNumber: '01755559012' }), // the statement masks the sender
    // CKG9N4T1XE: no purchase
    p(108, 'CKH3P7V2YF', { paymentNumber: '01822334455' }), // twice in the statement
    p(111, 'CKJ8S1Y6BJ', { paymentNumber: '01712345678' }), // the TrxID of our refund
    p(113, 'CKK4T9Z0CK', { paymentNumber: '01799999999' }), // paid from another number
    p(115, 'CKL1V6B8EM', { paymentNumber: '01312456789', status: 'success' }),
    p(116, 'CKL5W0C2FN', { accountPhone: '01411223344', status: 'failed' }),
  ];

  test('each row decided: approvals, the duplicate TrxID, the wrong amount, the unknown TrxID and the outgoing rows', () => {
    expect(brief(matchStatement(read.rows, purchases))).toEqual([
      [9, 'approve', 101],
      [10, 'approve', 102],
      [11, 'approve', 103],
      [12, 'ignore', 'outgoing', null], // Cash Out
      [13, 'review', 'amount_differs', 105],
      [14, 'review', 'sender_masked', 106],
      [15, 'review', 'no_purchase', null],
      [16, 'review', 'trx_id_twice', 108],
      [17, 'ignore', 'outgoing', null], // a payment we made
      [19, 'review', 'not_received', 111],
      [20, 'review', 'trx_id_twice', 108],
      [21, 'review', 'sender_differs', 113],
      [22, 'ignore', 'outgoing', null], // a prize we sent
      [23, 'ignore', 'already_approved', 115],
      [24, 'review', 'purchase_failed', 116],
    ]);
  });

  test('uploading the same statement again after the approvals approves nothing twice', () => {
    const approved = new Set(matchStatement(read.rows, purchases).flatMap((d) => (d.kind === 'approve' ? [d.transactionId] : [])));
    const after = purchases.map((x) => (approved.has(x.id) ? { ...x, status: 'success' as const } : x));
    const again = matchStatement(read.rows, after);
    expect(again.filter((d) => d.kind === 'approve')).toEqual([]);
    expect(brief(again.filter((d) => d.transactionId !== null && approved.has(d.transactionId)))).toEqual([
      [9, 'ignore', 'already_approved', 101],
      [10, 'ignore', 'already_approved', 102],
      [11, 'ignore', 'already_approved', 103],
    ]);
  });
});
