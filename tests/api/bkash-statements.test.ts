/**
 * The bKash statement import (docs/rules/payments.md#8-send-money-reconciled-with-the-statement), end to end through
 * the API: the realistic merchant statement of tests/fixtures/bkash-statement with purchases made for its TrxIDs;
 * an upload approves nothing until a second staff member confirms it, then its approve rows confirm their purchases
 * (audited with both), the others are listed with their reasons and nothing else changes; discarding an upload; the
 * same file again; every way a person resolves a row (an approval proposed by one, confirmed by another); the 48-hour
 * flag; every endpoint by role; bad files.
 */
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf, type Endpoint } from '../../shared/api/endpoint.ts';
import { account, buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';

const FIXTURES = new URL('../fixtures/bkash-statement/', import.meta.url);
const STATEMENT = readFileSync(new URL('merchant-statement.csv', FIXTURES));
const NOT_A_STATEMENT = readFileSync(new URL('not-a-statement.csv', FIXTURES));

let t: TestApp;
let staff: Player;
let staff2: Player;
/** A superuser: staff too, and a third person when two are not enough (neither may approve his own purchase). */
let boss: Player;
let player: Player;

beforeAll(async () => {
  // The fixture's merchant wallet is our receiver number.
  t = await startTestApp({ BKASH_RECEIVER_NUMBER: '01811000000' });
  staff = await account(t, { name: 'Desk Staff', is_staff: true });
  staff2 = await account(t, { name: 'Second Staff', is_staff: true });
  boss = await account(t, { name: 'Super User', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [boss.id]);
  player = await account(t, { name: 'Plain Player' });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'bkash_statement_rows',
    'bkash_statements',
    'bkash_payments',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const upload = (who: Player | null, body: Buffer, name = 'merchant-statement.csv', type = 'text/csv', lng = 'en') =>
  to(t, api.uploadStatement, { query: { name }, as: who, lang: lng }).set('Content-Type', type).send(body);
const confirm = (who: Player | null, id: number | string, lng = 'en') =>
  to(t, api.confirmStatement, { params: { id }, as: who, lang: lng });
const discard = (who: Player | null, id: number, body: object, lng = 'en') =>
  to(t, api.discardStatement, { params: { id }, as: who, lang: lng }).send(body);
/** An upload by `who` that a second staff member (`by`) confirms: its approve rows carried out. */
async function uploadConfirmed(who: Player, body: Buffer, by: Player, name = 'merchant-statement.csv') {
  const up = await upload(who, body, name).expect(201);
  const done = await confirm(by, up.body.id as number).expect(200);
  return done.body as { id: number; counts: Record<string, number>; status: string };
}
const resolve = (who: Player, rowId: number | string, body: object, lng = 'en') =>
  to(t, api.resolveStatementRow, { params: { id: rowId }, as: who, lang: lng }).send(body);

const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;
const statuses = async () =>
  Object.fromEntries(
    (await t.db.query<{ id: number; status: string }>('SELECT id, status FROM transactions ORDER BY id')).map((r) => [r.id, r.status]),
  );
const counts = async () => ({
  statements: (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM bkash_statements'))?.n,
  rows: (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM bkash_statement_rows'))?.n,
  audit: (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))?.n,
});

let ticketSeq = 0;
const nextTicket = () => `01-02-03-04-${String(10 + (++ticketSeq % 40)).padStart(2, '0')}-0${1 + Math.floor(ticketSeq / 40)}`;

/** A purchase by this player with this TrxID (and the number he paid from; '' for none), as the player makes it. */
async function bought(p: Player, lottery: number, trxId: string | null, paymentNumber: string, amount = 100): Promise<number> {
  const body = purchase(lottery, nextTicket(), { amount, trx_id: trxId ?? undefined, payment_number: paymentNumber || undefined });
  const res = await buy(t, p, body);
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/**
 * A purchase a staff member holds. Staff do not play (403 `staff_cannot_play`, docs/decisions/047-staff-do-not-play.md):
 * the one way he holds a ticket is one he bought as a player before he was made staff. So it is made: without staff
 * rights in the database, he buys as the player he then was; then he is made staff (rights are read from the database
 * on every request).
 */
async function boughtBeforeStaff(p: Player, lottery: number, trxId: string, paymentNumber: string): Promise<number> {
  await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [p.id]);
  try {
    return await bought(p, lottery, trxId, paymentNumber);
  } finally {
    await t.db.query('UPDATE users SET is_staff = true WHERE id = $1', [p.id]);
  }
}

const withPhone = new Map<string, Player>();

/** A player whose account phone is this number (made once). */
async function playerWithPhone(phone: string): Promise<Player> {
  const known = withPhone.get(phone);
  if (known) return known;
  const p = await account(t, { phone });
  withPhone.set(phone, p);
  return p;
}

/**
 * The purchases the fixture's rows speak of (its lines: 9 is SL 1 … 24 is SL 16):
 * SL1 matches (the number he gave), SL2 matches a ৳1,000 ticket, SL3 matches the account phone (no number given),
 * SL5 is ৳150 for a ৳100 ticket, SL6 is masked, SL7 has no purchase, SL8/SL12 the same TrxID twice, SL10 (a fraction)
 * cannot be read, SL13 came from another number, SL14 is a prize paid out that a player claims as his payment, SL15 is
 * the uploading staff member's own (bought before he was made staff), SL16 was approved already.
 */
async function purchasesOfTheFixture() {
  const padma = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
  const jamuna = await insertLottery(t, { name: 'Jamuna Grand', price: 1000 });
  const a = await account(t, { name: 'Rahim Uddin' });
  const p = {
    matches: await bought(a, padma, 'CKD4A7F2QX', '01712345678'),
    thousand: await bought(a, jamuna, 'CKD8B1L0ZM', '01898765432', 1000),
    accountPhone: await bought(await playerWithPhone('01555123456'), padma, 'CKE2H5N9TA', ''),
    wrongAmount: await bought(a, padma, 'CKF7K2R4VC', '01911223344'),
    masked: await bought(a, padma, 'CKG1M8S5WD', '01711119012'),
    twice: await bought(a, padma, 'CKH3P7V2YF', '01822334455'),
    fraction: await bought(a, padma, 'CKJ2R5X3AH', '01555666777'),
    otherSender: await bought(a, padma, 'CKK4T9Z0CK', '01799999999'),
    claimsPrize: await bought(a, padma, 'CKK7U3A5DL', '01712345678'),
    staffOwn: await boughtBeforeStaff(staff, padma, 'CKL1V6B8EM', '01312456789'),
    approved: await bought(a, padma, 'CKL5W0C2FN', '01411223344'),
    noTrxId: await bought(a, padma, null, ''),
  };
  await t.db.query("UPDATE transactions SET status = 'success' WHERE id = $1", [p.approved]);
  await t.db.query('DELETE FROM rate_limits'); // a test may buy more
  return { ...p, padma, player: a };
}

type Row = { id: number; line: number; decision: string; reason: string | null; trx_id: string | null; purchase: { id: number } | null };

async function rowsOf(who: Player, id: number, query: { decision?: string } = {}): Promise<Row[]> {
  const r = await to(t, api.statement, { params: { id }, query: { limit: 100, ...query }, as: who }).expect(200);
  return r.body.rows as Row[];
}
const byLine = (rows: Row[], line: number) => rows.find((r) => r.line === line) as Row;

describe('uploading the merchant statement', () => {
  test('an upload lists what it would approve and approves nothing; a second staff member confirms it: the matching rows approve their purchases (audited with both), the others are listed with their reasons', async () => {
    const p = await purchasesOfTheFixture();
    const before = await statuses();
    const res = await upload(staff, STATEMENT).expect(201);
    expect(res.body).toMatchObject({
      file_name: 'merchant-statement.csv',
      repeated: false,
      size_bytes: STATEMENT.length,
      uploaded_by: { id: staff.id, name: 'Desk Staff' },
      status: 'awaiting_confirmation',
      confirmation: null,
      discard: null,
      // Line 23 (the uploader's own purchase) matches too: the confirmation finds it his own.
      counts: { rows_read: 17, approved: 4, review: 7, ignored: 4, problems: 2, open: 7 },
    });
    expect(res.body.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Nothing approved yet: only the upload is audited.
    expect(await statuses()).toEqual(before);
    expect((await t.db.query<{ action: string }>('SELECT action FROM audit_log')).map((a) => a.action)).toEqual(['statement.upload']);
    expect((await rowsOf(staff, res.body.id, { decision: 'approve' })).map((r) => r.line)).toEqual([9, 10, 11, 23]);

    const done = await confirm(staff2, res.body.id).expect(200);
    expect(done.body).toMatchObject({
      id: res.body.id,
      status: 'confirmed',
      uploaded_by: { id: staff.id, name: 'Desk Staff' },
      confirmation: { by: { id: staff2.id, name: 'Second Staff' } },
      discard: null,
      counts: { rows_read: 17, approved: 3, review: 8, ignored: 4, problems: 2, open: 8 },
    });

    // Exactly the three matching purchases changed, to success.
    const after = await statuses();
    const changed = Object.keys(after).filter((id) => after[id] !== before[id]);
    expect(changed.map(Number).sort((x, y) => x - y)).toEqual([p.matches, p.thousand, p.accountPhone].sort((x, y) => x - y));
    for (const id of changed) expect(after[id]).toBe('success');

    const rows = await rowsOf(staff, res.body.id);
    const brief = rows.map((r) => [r.line, r.decision, r.reason, r.purchase?.id ?? null]);
    expect(brief).toEqual([
      [9, 'approve', null, p.matches],
      [10, 'approve', null, p.thousand],
      [11, 'approve', null, p.accountPhone],
      [12, 'ignore', 'outgoing', null],
      [13, 'review', 'amount_differs', p.wrongAmount],
      [14, 'review', 'sender_masked', p.masked],
      [15, 'review', 'no_purchase', null],
      [16, 'review', 'trx_id_twice', p.twice],
      [17, 'ignore', 'outgoing', null],
      [18, 'problem', 'amount_not_whole', null],
      [19, 'ignore', 'outgoing', null],
      [20, 'review', 'trx_id_twice', p.twice],
      [21, 'review', 'sender_differs', p.otherSender],
      [22, 'review', 'not_received', p.claimsPrize],
      [23, 'review', 'own_purchase', p.staffOwn],
      [24, 'ignore', 'already_approved', p.approved],
      [26, 'problem', 'trx_id_invalid', null],
    ]);
    expect(byLine(rows, 18)).toMatchObject({ trx_id: null });
    expect((byLine(rows, 18) as unknown as { raw: string }).raw).toContain('CKJ2R5X3AH');

    // Audited: the upload by the first, each approval and the confirmation by the second, with both named.
    const audit = await t.db.query<{ actor_id: number; action: string; entity: string; entity_id: string; after: Record<string, unknown> }>(
      'SELECT actor_id, action, entity, entity_id, after FROM audit_log ORDER BY id',
    );
    expect(audit.map((a) => [a.action, a.entity, a.actor_id])).toEqual([
      ['statement.upload', 'statement', staff.id],
      ['transaction.approve', 'transaction', staff2.id],
      ['transaction.approve', 'transaction', staff2.id],
      ['transaction.approve', 'transaction', staff2.id],
      ['statement.confirm', 'statement', staff2.id],
    ]);
    expect(audit[0]).toMatchObject({
      entity_id: String(res.body.id),
      after: { approved: 4, review: 7, file_name: 'merchant-statement.csv', status: 'awaiting_confirmation' },
    });
    expect(audit[1]?.after).toMatchObject({
      status: 'success',
      statement_id: res.body.id,
      statement_line: 9,
      trx_id: 'CKD4A7F2QX',
      proposed_by: staff.id,
      confirmed_by: staff2.id,
    });
    expect(audit[4]).toMatchObject({
      entity_id: String(res.body.id),
      after: {
        status: 'confirmed',
        uploaded_by: staff.id,
        confirmed_by: staff2.id,
        approved: 3,
        review: 8,
        refused: [{ transaction_id: p.staffOwn, reason: 'own_purchase' }],
      },
    });

    // Filters: the review rows, the open ones, the problems.
    expect((await rowsOf(staff, res.body.id, { decision: 'review' })).map((r) => r.line)).toEqual([13, 14, 15, 16, 20, 21, 22, 23]);
    expect((await rowsOf(staff, res.body.id, { decision: 'problem' })).map((r) => r.line)).toEqual([18, 26]);
    const page = await to(t, api.statement, { params: { id: res.body.id }, query: { limit: 5, offset: 5 }, as: staff }).expect(200);
    expect(page.body.total).toBe(17);
    expect(page.body.rows.map((r: Row) => r.line)).toEqual([14, 15, 16, 17, 18]);
  });

  test('the same file again answers its earlier upload (200, repeated) and changes nothing; an overlapping one approves nothing twice', async () => {
    const p = await purchasesOfTheFixture();
    const first = await uploadConfirmed(staff, STATEMENT, staff2);
    const before = { ...(await counts()), statuses: await statuses() };
    const again = await upload(staff2, STATEMENT, 'renamed.csv').expect(200);
    expect(again.body).toMatchObject({
      id: first.id,
      repeated: true,
      file_name: 'merchant-statement.csv',
      uploaded_by: { id: staff.id },
      status: 'confirmed',
      confirmation: { by: { id: staff2.id } },
    });
    expect({ ...(await counts()), statuses: await statuses() }).toEqual(before);

    // The same rows in another file (a wider period: a line added at the end) approve nothing twice.
    const wider = Buffer.concat([
      STATEMENT,
      Buffer.from('17,CKM0X1D3GO,05-Dec-26 11:30:00 AM,Cash Out,01811000000,01300111222,৳10.00,৳0.18,"৳1,757.57",\n'),
    ]);
    // Only the first uploader's own purchase (line 23): another staff member uploads this one, a third confirms it.
    const second = await uploadConfirmed(staff2, wider, boss, 'wider.csv');
    expect(second.counts).toMatchObject({ approved: 1 });
    const rows = await rowsOf(staff2, second.id);
    expect(byLine(rows, 9)).toMatchObject({ decision: 'ignore', reason: 'already_approved', purchase: { id: p.matches } });
    // The staff member's own purchase is approvable when neither the uploader nor the confirmer is he.
    expect(byLine(rows, 23)).toMatchObject({ decision: 'approve' });
    expect(await statusOf(p.staffOwn)).toBe('success');
  });
});

describe('after the end of sales (the tickets frozen)', () => {
  test('the confirmation approves no purchase of a closed lottery: its rows are listed for review (tickets_frozen); approving one is refused', async () => {
    const p = await purchasesOfTheFixture();
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [p.padma]);
    const { body: s } = await upload(staff, STATEMENT).expect(201);
    // The upload approves nothing; a second staff member's confirmation finds the lottery frozen.
    expect(await statusOf(p.matches)).toBe('pending');
    const done = await confirm(staff2, s.id).expect(200);
    expect(done.body.counts).toMatchObject({ approved: 1, review: 10 });
    const rows = await rowsOf(staff2, s.id);
    expect(byLine(rows, 9)).toMatchObject({ decision: 'review', reason: 'tickets_frozen', purchase: { id: p.matches } });
    expect(byLine(rows, 11)).toMatchObject({ decision: 'review', reason: 'tickets_frozen', purchase: { id: p.accountPhone } });
    expect(await statusOf(p.matches)).toBe('pending');
    // Another lottery still on sale: its row approves as before.
    expect(byLine(rows, 10)).toMatchObject({ decision: 'approve' });
    expect(await statusOf(p.thousand)).toBe('success');
    const [confirmed] = await t.db.query<{ after: { refused: { transaction_id: number; reason: string }[] } }>(
      "SELECT after FROM audit_log WHERE action = 'statement.confirm'",
    );
    expect(confirmed?.after.refused).toContainEqual({ transaction_id: p.matches, reason: 'tickets_frozen' });
    // A person's approval is refused already when it is proposed, as the confirmation would be, in either language:
    // nothing is recorded.
    await t.db.query('DELETE FROM audit_log');
    const en = await resolve(staff2, byLine(rows, 9).id, { action: 'approve', note: 'checked' }).expect(409);
    expect(en.body).toEqual({
      code: 'tickets_frozen',
      detail: expect.stringMatching(
        /^Sales of this lottery closed on .+: its tickets are frozen for the draw, so no ticket's status can change/,
      ),
    });
    const bn = await resolve(staff, byLine(rows, 9).id, { action: 'approve', note: 'checked' }, 'bn').expect(409);
    expect(bn.body.code).toBe('tickets_frozen');
    expect(bn.body.detail).toContain('তাই কোনো টিকিটের অবস্থা আর বদলানো যায় না');
    expect(byLine(await rowsOf(staff2, s.id), 9)).toMatchObject({ proposal: null, resolution: null });
    expect(await statusOf(p.matches)).toBe('pending');
    expect(await t.db.query('SELECT 1 FROM audit_log')).toEqual([]);
    // Dismissing it changes no ticket: still allowed.
    await resolve(staff2, byLine(rows, 9).id, { action: 'dismiss', note: 'Sales had closed; refunded by hand.' }).expect(200);
  });

  test('a proposal made before the close is refused at its confirmation after it (tickets_frozen, in either language); nothing changes', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 13); // ৳150 paid for a ৳100 ticket
    await resolve(staff2, row.id, { action: 'approve', note: 'Paid 150 by mistake.' }).expect(200);
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1`, [p.padma]);
    await t.db.query('DELETE FROM audit_log');
    const en = await resolve(boss, row.id, { action: 'approve', note: 'agreed' }).expect(409);
    expect(en.body).toEqual({
      code: 'tickets_frozen',
      detail: expect.stringMatching(/^Sales of this lottery closed on .+: its tickets are frozen/),
    });
    const bn = await resolve(staff, row.id, { action: 'approve', note: 'agreed' }, 'bn').expect(409);
    expect(bn.body).toEqual({ code: 'tickets_frozen', detail: expect.stringContaining('ড্র-এর জন্য এর টিকিট চূড়ান্ত') });
    expect(await statusOf(p.wrongAmount)).toBe('pending');
    expect(byLine(await rowsOf(staff, s.id), 13)).toMatchObject({ proposal: { by: { id: staff2.id } }, resolution: null });
    expect(await t.db.query('SELECT 1 FROM audit_log')).toEqual([]);
  });
});

describe('resolving a row listed for review', () => {
  test('approve with a note: one staff member proposes, another confirms; then the purchase becomes success, audited with both; the row says who, when and why', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 13); // ৳150 paid for a ৳100 ticket
    await t.db.query('DELETE FROM audit_log');
    const proposed = await resolve(staff2, row.id, { action: 'approve', note: 'Paid 150 by mistake; the 50 goes back by hand.' }).expect(
      200,
    );
    expect(proposed.body).toMatchObject({
      id: row.id,
      decision: 'review',
      proposal: { by: { id: staff2.id, name: 'Second Staff' }, note: 'Paid 150 by mistake; the 50 goes back by hand.' },
      resolution: null,
      purchase: { id: p.wrongAmount, status: 'pending' },
    });
    expect(await statusOf(p.wrongAmount)).toBe('pending');
    // The proposer cannot confirm his own proposal, in either language; nothing changes.
    const own = await resolve(staff2, row.id, { action: 'approve', note: 'Again.' }).expect(403);
    expect(own.body).toEqual({ detail: 'You proposed this approval: another staff member must confirm it.', code: 'own_proposal' });
    const ownBn = await resolve(staff2, row.id, { action: 'approve', note: 'Again.' }, 'bn').expect(403);
    expect(ownBn.body.detail).toBe('এই অনুমোদনের প্রস্তাব আপনি দিয়েছেন: অন্য একজন কর্মীকে এটি নিশ্চিত করতে হবে।');
    expect(await statusOf(p.wrongAmount)).toBe('pending');

    const res = await resolve(boss, row.id, { action: 'approve', note: 'Checked the statement: agreed.' }).expect(200);
    expect(res.body).toMatchObject({
      id: row.id,
      decision: 'review',
      reason: 'amount_differs',
      proposal: { by: { id: staff2.id } },
      resolution: {
        action: 'approved',
        by: { id: boss.id, name: 'Super User' },
        note: 'Checked the statement: agreed.',
      },
      purchase: { id: p.wrongAmount, status: 'success' },
    });
    expect(await statusOf(p.wrongAmount)).toBe('success');
    const audit = await t.db.query<{ actor_id: number; action: string; entity_id: string; after: Record<string, unknown> }>(
      'SELECT actor_id, action, entity_id, after FROM audit_log ORDER BY id',
    );
    expect(audit.map((a) => [a.action, a.actor_id])).toEqual([
      ['statement.propose', staff2.id],
      ['transaction.approve', boss.id],
      ['statement.resolve', boss.id],
    ]);
    expect(audit[0]?.after).toMatchObject({ row_id: row.id, note: 'Paid 150 by mistake; the 50 goes back by hand.' });
    expect(audit[1]?.after).toMatchObject({
      statement_id: s.id,
      statement_line: 13,
      proposed_by: staff2.id,
      confirmed_by: boss.id,
      note: 'Checked the statement: agreed.',
    });
    expect(audit[2]).toMatchObject({
      entity_id: String(s.id),
      after: {
        row_id: row.id,
        resolution: 'approved',
        transaction_id: p.wrongAmount,
        proposed_by: staff2.id,
        proposal_note: 'Paid 150 by mistake; the 50 goes back by hand.',
      },
    });
    expect((await to(t, api.statement, { params: { id: s.id }, as: staff }).expect(200)).body.statement.counts.open).toBe(7);

    // Once per row.
    const again = await resolve(staff2, row.id, { action: 'dismiss', note: 'again' }, 'bn').expect(409);
    expect(again.body).toEqual({ detail: 'এই সারির সিদ্ধান্ত আগেই নেওয়া হয়েছে।', code: 'already_resolved' });
  });

  test('dismiss with a note changes nothing but the row', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 14); // masked sender
    const before = await statuses();
    const res = await resolve(staff2, row.id, { action: 'dismiss', note: 'Asked the player: not his number.' }).expect(200);
    expect(res.body.resolution).toMatchObject({ action: 'dismissed', by: { id: staff2.id } });
    expect(await statuses()).toEqual(before);
    expect(await statusOf(p.masked)).toBe('pending');
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'statement.resolve'");
    expect(audit).toHaveLength(1);
  });

  test('a TrxID with no purchase: approving is refused until the player gives it, then approves his purchase', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 15);
    const refused = await resolve(staff2, row.id, { action: 'approve', note: 'checked' }).expect(409);
    expect(refused.body.code).toBe('no_purchase');
    expect(refused.body.detail).toMatch(/No purchase carries this TrxID/);
    // The player gives the TrxID afterwards, from the number the statement shows.
    const later = await bought(p.player, p.padma, null, '');
    await to(t, api.setTrxId, { params: { id: later }, as: p.player })
      .send({ trx_id: 'CKG9N4T1XE', payment_number: '01611000111' })
      .expect(200);
    const proposed = await resolve(staff2, row.id, { action: 'approve', note: 'TrxID given after the upload.' }).expect(200);
    expect(proposed.body).toMatchObject({ resolution: null, purchase: { id: later, status: 'pending' } });
    const ok = await resolve(staff, row.id, { action: 'approve', note: 'Agreed.' }).expect(200);
    expect(ok.body).toMatchObject({ resolution: { action: 'approved' }, purchase: { id: later, status: 'success' } });
  });

  test('the same TrxID twice: one row approves the purchase, the other then finds it approved', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const rows = await rowsOf(staff, s.id);
    await resolve(staff2, byLine(rows, 16).id, { action: 'approve', note: 'One payment, shown twice.' }).expect(200);
    // A proposal on the other row while the purchase is still pending; it is then approved through the first row.
    await resolve(staff2, byLine(rows, 20).id, { action: 'approve', note: 'Or this one.' }).expect(200);
    await resolve(staff, byLine(rows, 16).id, { action: 'approve', note: 'Agreed.' }).expect(200);
    expect(await statusOf(p.twice)).toBe('success');
    const second = await resolve(staff, byLine(rows, 20).id, { action: 'approve', note: 'x' }).expect(409);
    expect(second.body.code).toBe('not_pending');
    // No proposal on a purchase that is no longer pending either.
    expect((await resolve(staff, byLine(rows, 16).id, { action: 'approve', note: 'x' }).expect(409)).body.code).toBe('already_resolved');
    await resolve(staff2, byLine(rows, 20).id, { action: 'dismiss', note: 'The same payment as line 16.' }).expect(200);
  });

  test("money paid out never approves; a row that is not for review, and a staff member's own purchase, are refused", async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const rows = await rowsOf(staff, s.id);
    const out = await resolve(staff2, byLine(rows, 22).id, { action: 'approve', note: 'x' }).expect(409);
    expect(out.body.code).toBe('not_received');
    expect(await statusOf(p.claimsPrize)).toBe('pending');
    expect((await resolve(staff2, byLine(rows, 9).id, { action: 'dismiss', note: 'x' }).expect(409)).body.code).toBe('not_review');
    expect((await resolve(staff2, byLine(rows, 18).id, { action: 'dismiss', note: 'x' }).expect(409)).body.code).toBe('not_review');

    // The row of the uploader's own purchase: he may neither approve nor dismiss it; another staff member approves it.
    const own = byLine(rows, 23);
    for (const action of ['approve', 'dismiss']) {
      const en = await resolve(staff, own.id, { action, note: 'mine' }).expect(403);
      expect(en.body).toEqual({ detail: 'This is your own purchase: another staff member must decide it.', code: 'own_purchase' });
    }
    const bn = await resolve(staff, own.id, { action: 'approve', note: 'mine' }, 'bn').expect(403);
    expect(bn.body.detail).toBe('এটি আপনার নিজের কেনাকাটা: অন্য একজন কর্মীকে সিদ্ধান্ত নিতে হবে।');
    expect(await statusOf(p.staffOwn)).toBe('pending');
    // Another staff member proposes it; the owner may not confirm it; a third person does.
    await resolve(staff2, own.id, { action: 'approve', note: 'Checked by a second person.' }).expect(200);
    expect((await resolve(staff, own.id, { action: 'approve', note: 'mine' }).expect(403)).body.code).toBe('own_purchase');
    expect(await statusOf(p.staffOwn)).toBe('pending');
    await resolve(boss, own.id, { action: 'approve', note: 'Checked by a third person.' }).expect(200);
    expect(await statusOf(p.staffOwn)).toBe('success');
  });

  test('bad bodies and unknown rows: 4xx in both languages, nothing changed', async () => {
    await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 13);
    const before = await counts();
    expect((await resolve(staff2, row.id, { action: 'approve' }).expect(400)).body).toEqual({ note: ['This field is required.'] });
    expect((await resolve(staff2, row.id, { action: 'approve', note: '  ' }).expect(400)).body).toEqual({
      note: ['Please give the reason.'],
    });
    expect((await resolve(staff2, row.id, { action: 'approve', note: '  ' }, 'bn').expect(400)).body).toEqual({ note: ['কারণটি লিখুন।'] });
    expect((await resolve(staff2, row.id, { action: 'approve', note: 'x'.repeat(501) }).expect(400)).body.note).toHaveLength(1);
    expect((await resolve(staff2, row.id, { action: 'pay', note: 'x' }).expect(400)).body.action).toHaveLength(1);
    expect((await resolve(staff2, row.id, { action: 'approve', note: 'x', extra: 1 }).expect(400)).body).toHaveProperty('extra');
    const missing = await resolve(staff2, 99_999_999, { action: 'dismiss', note: 'x' }, 'bn').expect(404);
    expect(missing.body).toEqual({ detail: 'স্টেটমেন্টের এই সারিটি পাওয়া যায়নি।', code: 'not_found' });
    await to(t, api.resolveStatementRow, { params: { id: 'abc' }, as: staff })
      .send({ action: 'dismiss', note: 'x' })
      .expect(404);
    await to(t, api.statement, { params: { id: 99999999 }, as: staff }).expect(404);
    await to(t, api.statement, { params: { id: s.id }, query: { decision: 'maybe' }, as: staff }).expect(400);
    expect(await counts()).toEqual(before);
    expect(await statusOf(row.purchase!.id)).toBe('pending');
  });
});

describe('the 48-hour flag', () => {
  test('a pending Send Money purchase whose TrxID is in no statement 48 hours after it was given is flagged, never approved', async () => {
    const p = await purchasesOfTheFixture();
    await uploadConfirmed(staff, STATEMENT, staff2);
    const missing = await bought(p.player, p.padma, 'ZZZ99999ZZ', '01712345678');
    const young = await bought(p.player, p.padma, 'YYY88888YY', '01712345678');
    // The TrxID time is set when it is given (the purchase, or the TrxID entry afterwards).
    const given = await t.db.one<{ trx_id_at: string | null }>('SELECT trx_id_at FROM transactions WHERE id = $1', [missing]);
    expect(Date.now() - Date.parse(given!.trx_id_at!)).toBeLessThan(60_000);
    expect((await to(t, api.flaggedPurchases, { as: staff }).expect(200)).body).toEqual([]);

    const back = (id: number, hours: number) =>
      t.db.query(`UPDATE transactions SET trx_id_at = now() - make_interval(hours => $2), updated_at = now() WHERE id = $1`, [id, hours]);
    await back(missing, 49);
    await back(young, 47);
    await back(p.fraction, 50); // its row could not be read (a fraction of a taka): no statement shows the TrxID
    await back(p.twice, 72); // in the statement (listed for review): not flagged
    await back(p.noTrxId, 100); // no TrxID: nothing to look for
    await back(p.approved, 100); // approved already
    const res = await to(t, api.flaggedPurchases, { as: staff }).expect(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body.map((f: { id: number }) => f.id)).toEqual([p.fraction, missing]);
    expect(res.body[1]).toMatchObject({
      trx_id: 'ZZZ99999ZZ',
      status: 'pending',
      amount: 100,
      user: { name: 'Rahim Uddin' },
      lottery: { name: 'Padma Weekly' },
    });
    expect(await statusOf(missing)).toBe('pending');

    const flaggedIds = async () => (await to(t, api.flaggedPurchases, { as: staff }).expect(200)).body.map((f: { id: number }) => f.id);
    // A discarded upload that shows it does not end the flag: its rows take no part.
    const set = Buffer.from(
      'Trx ID,Date Time,Transaction Type,From,To,Amount\nZZZ99999ZZ,06-Dec-26 09:00 AM,Send Money,01712345678,01811000000,100\n',
    );
    const setAside = await upload(staff, set, 'set-aside.csv').expect(201);
    await discard(staff2, setAside.body.id, { reason: 'Not from the merchant portal.' }).expect(200);
    expect(await flaggedIds()).toEqual([p.fraction, missing]);

    // A statement that shows it ends the flag (here it is listed for review: no purchase matches its amount).
    const later = Buffer.from(
      'Trx ID,Date Time,Transaction Type,From,To,Amount\nZZZ99999ZZ,06-Dec-26 10:00 AM,Send Money,01712345678,01811000000,120\n',
    );
    await upload(staff, later, 'later.csv').expect(201);
    expect((await to(t, api.flaggedPurchases, { as: staff }).expect(200)).body.map((f: { id: number }) => f.id)).toEqual([p.fraction]);
  });
});

describe('on the transactions list and the dashboard', () => {
  test('each Send Money purchase says where it stands with the statements; the dashboard counts what waits for a person', async () => {
    const p = await purchasesOfTheFixture();
    await uploadConfirmed(staff, STATEMENT, staff2);
    const missing = await bought(p.player, p.padma, 'ZZZ99999ZZ', '01712345678');
    const young = await bought(p.player, p.padma, 'YYY88888YY', '01712345678');
    await t.db.query(`UPDATE transactions SET trx_id_at = now() - interval '49 hours' WHERE id = $1`, [missing]);
    const list = await to(t, api.transactions, { query: { limit: 100 }, as: staff }).expect(200);
    const state = (id: number) => (list.body as { id: number; statement: string | null }[]).find((x) => x.id === id)?.statement;
    expect(state(p.approved)).toBe('matched');
    expect(state(p.twice)).toBe('review');
    expect(state(missing)).toBe('flagged');
    expect(state(young)).toBe('waiting');
    expect(state(p.noTrxId)).toBeNull();

    const open =
      (
        await t.db.one<{ n: number }>(
          `SELECT count(*)::int AS n FROM bkash_statement_rows WHERE decision = 'review' AND resolution IS NULL`,
        )
      )?.n ?? 0;
    const flagged = await to(t, api.flaggedPurchases, { as: staff }).expect(200);
    const dashboard = await to(t, api.dashboard, { as: staff }).expect(200);
    expect(open).toBeGreaterThan(0);
    expect(dashboard.body.statement_to_decide).toBe(open + Number(flagged.headers['x-total-count']));

    // An upload awaiting a second person counts too, and its approve rows wait: the purchase is not yet matched.
    const waitingUpload = await upload(
      staff,
      Buffer.from(
        'Trx ID,Date Time,Transaction Type,From,To,Amount\nYYY88888YY,06-Dec-26 10:00 AM,Send Money,01712345678,01811000000,100\n',
      ),
      'waiting.csv',
    ).expect(201);
    expect(waitingUpload.body.counts).toMatchObject({ approved: 1, open: 0 });
    const withWaiting = await to(t, api.dashboard, { as: staff }).expect(200);
    expect(withWaiting.body.statement_to_decide).toBe(dashboard.body.statement_to_decide + 1);
    const stateNow = async (id: number) =>
      (
        (await to(t, api.transactions, { query: { limit: 100 }, as: staff }).expect(200)).body as { id: number; statement: string | null }[]
      ).find((x) => x.id === id)?.statement;
    expect(await stateNow(young)).toBe('review');
    await confirm(staff2, waitingUpload.body.id).expect(200);
    expect(await stateNow(young)).toBe('matched');
    expect(await statusOf(young)).toBe('success');

    // A person dismisses the row of the TrxID twice: it is decided.
    const rows = await t.db.query<{ id: number }>(
      `SELECT r.id FROM bkash_statement_rows r JOIN transactions x ON x.trx_id = r.trx_id WHERE x.id = $1`,
      [p.twice],
    );
    for (const r of rows) await resolve(staff2, r.id, { action: 'dismiss', note: 'Asked the player: sent twice by mistake' });
    const after = await to(t, api.transactions, { query: { limit: 100 }, as: staff }).expect(200);
    expect((after.body as { id: number; statement: string | null }[]).find((x) => x.id === p.twice)?.statement).toBe('dismissed');
  });
});

describe('bad files: 400 with a clear message in both languages, nothing stored', () => {
  const refused = async (body: Buffer, name: string, type = 'text/csv') => {
    const before = await counts();
    const en = await upload(staff, body, name, type, 'en');
    const bn = await upload(staff, body, name, type, 'bn');
    expect(await counts()).toEqual(before);
    return { en, bn };
  };

  test('empty', async () => {
    const { en, bn } = await refused(Buffer.alloc(0), 'empty.csv');
    expect(en.status).toBe(400);
    expect(en.body).toEqual({ detail: 'The file is empty. Export the statement again and upload the CSV.', code: 'empty' });
    expect(bn.body.detail).toBe('ফাইলটি খালি। স্টেটমেন্টটি আবার এক্সপোর্ট করে CSV ফাইলটি আপলোড করুন।');
    const blank = await refused(Buffer.from('\n\n  \n'), 'blank.csv');
    expect(blank.en.body.code).toBe('empty');
  });

  test('not a statement: the columns it lacks are named', async () => {
    const { en, bn } = await refused(NOT_A_STATEMENT, 'bank.csv');
    expect(en.status).toBe(400);
    expect(en.body.code).toBe('not_a_statement');
    expect(en.body.detail).toMatch(/^This is not a bKash statement: no header row names the columns /);
    expect(en.body.missing.length).toBeGreaterThan(0);
    expect(bn.body.detail).toMatch(/^এটি বিকাশ স্টেটমেন্ট নয়/);
    expect(bn.body).toMatchObject({ code: 'not_a_statement', missing: en.body.missing });
    // Each missing column by its name in the caller's language.
    const names: Record<string, [string, string]> = {
      trx_id: ['TrxID', 'ট্রানজেকশন আইডি (TrxID)'],
      date: ['Date', 'তারিখ'],
      type: ['Type', 'ধরন'],
      sender: ['From (sender)', 'প্রেরক'],
      amount: ['Amount', 'পরিমাণ'],
    };
    const missing = en.body.missing as string[];
    expect(en.body.detail).toContain(`columns ${missing.map((c) => names[c]?.[0]).join(', ')}.`);
    expect(bn.body.detail).toContain(`সারিতে ${missing.map((c) => names[c]?.[1]).join(', ')} কলামগুলো`);
  });

  test('XLSX, XLS and PDF: save it as CSV first', async () => {
    const xlsx = Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1');
    const { en, bn } = await refused(xlsx, 'statement.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(en.status).toBe(400);
    expect(en.body).toEqual({
      detail: 'We do not read XLSX files. Open it in a spreadsheet, save it as CSV (Save As → CSV UTF-8) and upload that.',
      code: 'format_not_supported',
    });
    expect(bn.body.detail).toMatch(/^XLSX ফাইল আমরা পড়ি না।/);
    const pdf = await refused(Buffer.from('%PDF-1.7 ...'), 'statement.pdf', 'application/pdf');
    expect(pdf.en.body.detail).toMatch(/^We do not read PDF files/);
  });

  test('binary, and a quoted cell that never ends', async () => {
    const binary = await refused(Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x41]), 'x.csv', 'application/octet-stream');
    expect(binary.en.status).toBe(400);
    expect(binary.en.body.code).toBe('unreadable');
    const open = await refused(Buffer.from('Trx ID,Date,Type,From,Amount\nABCDEFGH12,05-Dec-26,Send Money,"01712345678,100\n'), 'open.csv');
    expect(open.en.body).toMatchObject({ code: 'unreadable', line: 2 });
    expect(open.en.body.detail).toBe('The file cannot be read: a quoted cell that starts on line 2 never ends.');
  });

  test('too large (over 2 MB): refused before it is read', async () => {
    const big = Buffer.concat([STATEMENT, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const { en, bn } = await refused(big, 'big.csv');
    expect(en.status).toBe(400);
    expect(en.body.code).toBe('body_too_large');
    expect(bn.status).toBe(400);
  });

  test('no file name, or a body of another type', async () => {
    const before = await counts();
    const noName = await to(t, api.uploadStatement, { as: staff }).set('Content-Type', 'text/csv').send(STATEMENT);
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ name: ['This field is required.'] });
    const json = await to(t, api.uploadStatement, { query: { name: 'a.csv' }, as: staff }).send({ file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.code).toBe('no_file');
    const image = await upload(staff, STATEMENT, 'a.csv', 'image/png', 'bn');
    expect(image.status).toBe(400);
    expect(image.body.detail).toBe('স্টেটমেন্ট ফাইলটি (CSV) অনুরোধের বডি হিসেবে পাঠান।');
    expect(await counts()).toEqual(before);
  });
});

describe('who may call', () => {
  test('every endpoint: anonymous 401, a player 403, staff allowed', async () => {
    await purchasesOfTheFixture();
    const { body: s } = await upload(staff, STATEMENT).expect(201);
    const row = byLine(await rowsOf(staff, s.id), 14);
    const calls: [Endpoint, { params?: Record<string, unknown>; query?: Record<string, unknown> }, (r: request.Test) => request.Test][] = [
      [api.uploadStatement, { query: { name: 'x.csv' } }, (r) => r.set('Content-Type', 'text/csv').send(Buffer.from('x'))],
      [api.statements, {}, (r) => r],
      [api.statement, { params: { id: s.id } }, (r) => r],
      [api.resolveStatementRow, { params: { id: row.id } }, (r) => r.send({ action: 'dismiss', note: 'x' })],
      [api.confirmStatement, { params: { id: s.id } }, (r) => r],
      [api.discardStatement, { params: { id: s.id } }, (r) => r.send({ reason: 'x' })],
      [api.flaggedPurchases, {}, (r) => r],
    ];
    const before = await counts();
    for (const [e, where, send] of calls) {
      const path = urlOf(e, where.params, where.query);
      const anon = await send(to(t, e, { ...where, lang: 'en' }));
      expect([path, anon.status, anon.body.code]).toEqual([path, 401, 'not_authenticated']);
      const pl = await send(to(t, e, { ...where, as: player, lang: 'bn' }));
      expect([path, pl.status, pl.body.code]).toEqual([path, 403, 'permission_denied']);
    }
    expect(await counts()).toEqual(before);
    const list = await to(t, api.statements, { as: staff2 }).expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body[0]).toMatchObject({ id: s.id, status: 'awaiting_confirmation', counts: { approved: 4, open: 7 } });
    // A superuser is staff: he confirms (staff2 and the superuser are both not the uploader).
    const done = await confirm(boss, s.id).expect(200);
    expect(done.body).toMatchObject({ status: 'confirmed', confirmation: { by: { id: boss.id } } });
  });
});

describe('confirming and discarding an upload', () => {
  test('the uploader cannot confirm his own upload (403 own_upload, both languages); unknown uploads 404; nothing changes', async () => {
    const p = await purchasesOfTheFixture();
    const { body: s } = await upload(staff, STATEMENT).expect(201);
    const before = { ...(await counts()), statuses: await statuses() };
    const en = await confirm(staff, s.id).expect(403);
    expect(en.body).toEqual({ detail: 'You uploaded this statement: another staff member must confirm it.', code: 'own_upload' });
    const bn = await confirm(staff, s.id, 'bn').expect(403);
    expect(bn.body).toEqual({ detail: 'এই স্টেটমেন্ট আপনি আপলোড করেছেন: অন্য একজন কর্মীকে এটি নিশ্চিত করতে হবে।', code: 'own_upload' });
    expect((await confirm(staff2, 99_999_999, 'bn').expect(404)).body).toEqual({ detail: 'স্টেটমেন্টটি পাওয়া যায়নি।', code: 'not_found' });
    await confirm(staff2, 'abc').expect(404);
    expect({ ...(await counts()), statuses: await statuses() }).toEqual(before);
    expect(await statusOf(p.matches)).toBe('pending');
    // Its rows wait too: none is decided before the upload is confirmed.
    const row = byLine(await rowsOf(staff2, s.id), 13);
    const early = await resolve(staff2, row.id, { action: 'dismiss', note: 'x' }).expect(409);
    expect(early.body).toEqual({
      detail: 'This upload waits for a second staff member to confirm it: its rows are decided after that.',
      code: 'awaiting_confirmation',
    });
  });

  test('confirmed once: again, or after a discard, is 409 not_awaiting and approves nothing twice', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const before = { ...(await counts()), statuses: await statuses() };
    const again = await confirm(boss, s.id).expect(409);
    expect(again.body).toEqual({ detail: 'This upload has already been confirmed.', code: 'not_awaiting' });
    const late = await discard(boss, s.id, { reason: 'Too late.' }, 'bn').expect(409);
    expect(late.body).toEqual({ detail: 'এই আপলোড আগেই নিশ্চিত করা হয়েছে।', code: 'not_awaiting' });
    expect({ ...(await counts()), statuses: await statuses() }).toEqual(before);
    expect(await statusOf(p.matches)).toBe('success');
  });

  test('a discarded upload (any staff member, with a reason; audited) approves nothing; its rows take no part; the same bytes answer it', async () => {
    const p = await purchasesOfTheFixture();
    const { body: s } = await upload(staff, STATEMENT).expect(201);
    const before = await statuses();
    expect((await discard(staff2, s.id, {}).expect(400)).body).toEqual({ reason: ['This field is required.'] });
    expect((await discard(staff2, s.id, { reason: '  ' }, 'bn').expect(400)).body).toEqual({ reason: ['কারণটি লিখুন।'] });
    expect((await discard(staff2, s.id, { reason: 'x'.repeat(501) }).expect(400)).body.reason).toHaveLength(1);
    expect((await discard(staff2, s.id, { reason: 'x', extra: 1 }).expect(400)).body).toHaveProperty('extra');
    expect((await discard(staff2, 99_999_999, { reason: 'x' }).expect(404)).body.code).toBe('not_found');
    // The uploader himself may set his upload aside.
    const res = await discard(staff, s.id, { reason: 'Wrong wallet exported.' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'discarded',
      confirmation: null,
      discard: { by: { id: staff.id, name: 'Desk Staff' }, reason: 'Wrong wallet exported.' },
      counts: { open: 0 },
    });
    const audit = await t.db.query<{ actor_id: number; action: string; after: Record<string, unknown> }>(
      "SELECT actor_id, action, after FROM audit_log WHERE action = 'statement.discard'",
    );
    expect(audit).toEqual([
      {
        actor_id: staff.id,
        action: 'statement.discard',
        after: { status: 'discarded', uploaded_by: staff.id, discarded_by: staff.id, reason: 'Wrong wallet exported.' },
      },
    ]);
    const c = await confirm(staff2, s.id).expect(409);
    expect(c.body).toEqual({ detail: 'This upload has been discarded: it approves nothing.', code: 'not_awaiting' });
    expect((await discard(staff2, s.id, { reason: 'again' }).expect(409)).body.code).toBe('not_awaiting');
    const row = byLine(await rowsOf(staff2, s.id), 13);
    expect((await resolve(staff2, row.id, { action: 'dismiss', note: 'x' }).expect(409)).body.code).toBe('statement_discarded');
    expect(await statuses()).toEqual(before);
    expect(await statusOf(p.matches)).toBe('pending');
    const again = await upload(staff2, STATEMENT).expect(200);
    expect(again.body).toMatchObject({ id: s.id, repeated: true, status: 'discarded' });
  });

  test("the confirmation checks each purchase at that moment: the confirmer's own, results out, tickets frozen, off sale, changed meanwhile", async () => {
    const open = await insertLottery(t, { name: 'Open' });
    const results = await insertLottery(t, { name: 'Results soon' });
    const closing = await insertLottery(t, { name: 'Closing' });
    const withdrawn = await insertLottery(t, { name: 'Withdrawn' });
    const a = await account(t, { name: 'Karim' });
    const ok = await bought(a, open, 'OKAY1234AB', '01712345678');
    const mine = await boughtBeforeStaff(staff2, open, 'MINE1234AB', '01712345678');
    const published = await bought(a, results, 'RSLT1234AB', '01712345678');
    const closed = await bought(a, closing, 'CLSD1234AB', '01712345678');
    const offSale = await bought(a, withdrawn, 'WDRN1234AB', '01712345678');
    const changed = await bought(a, open, 'CHNG1234AB', '01712345678');
    const csv = Buffer.from(
      'Trx ID,Date Time,Transaction Type,From,To,Amount\n' +
        ['OKAY1234AB', 'MINE1234AB', 'RSLT1234AB', 'CLSD1234AB', 'WDRN1234AB', 'CHNG1234AB']
          .map((x) => `${x},06-Dec-26 10:00 AM,Send Money,01712345678,01811000000,100`)
          .join('\n'),
    );
    const { body: s } = await upload(staff, csv, 'moment.csv').expect(201);
    expect(s.counts).toMatchObject({ approved: 6, review: 0 });
    // Meanwhile: results out, sales closed (its tickets frozen), a lottery taken off sale, the purchase rejected.
    await t.db.query('UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1', [results]);
    await t.db.query("UPDATE lotteries SET end_date = now() - interval '1 minute' WHERE id = $1", [closing]);
    await t.db.query('UPDATE lotteries SET published = false WHERE id = $1', [withdrawn]);
    await t.db.query("UPDATE transactions SET status = 'failed' WHERE id = $1", [changed]);
    const done = await confirm(staff2, s.id).expect(200);
    expect(done.body.counts).toMatchObject({ approved: 1, review: 5, open: 5 });
    const rows = await rowsOf(staff2, s.id);
    expect(rows.map((r) => [r.trx_id, r.decision, r.reason])).toEqual([
      ['OKAY1234AB', 'approve', null],
      ['MINE1234AB', 'review', 'own_purchase'],
      ['RSLT1234AB', 'review', 'results_published'],
      ['CLSD1234AB', 'review', 'tickets_frozen'],
      ['WDRN1234AB', 'review', 'sales_closed'],
      ['CHNG1234AB', 'review', 'changed_meanwhile'],
    ]);
    expect([
      await statusOf(ok),
      await statusOf(mine),
      await statusOf(published),
      await statusOf(closed),
      await statusOf(offSale),
      await statusOf(changed),
    ]).toEqual(['success', 'pending', 'pending', 'pending', 'pending', 'failed']);
    expect(
      (await t.db.query<{ entity_id: string }>("SELECT entity_id FROM audit_log WHERE action = 'transaction.approve'")).map((a) =>
        Number(a.entity_id),
      ),
    ).toEqual([ok]);
    // A person's approval of a row whose lottery closed is refused (already when proposed) in the caller's language: its
    // tickets are frozen; of one taken off sale, its sales are closed.
    const closedRow = rows.find((r) => r.trx_id === 'CLSD1234AB') as Row;
    const frozen = await resolve(boss, closedRow.id, { action: 'approve', note: 'Paid before the close.' }, 'bn').expect(409);
    expect(frozen.body.code).toBe('tickets_frozen');
    expect(frozen.body.detail).toMatch(
      /^এই লটারির বিক্রি .+ বন্ধ হয়েছে: ড্র-এর জন্য এর টিকিট চূড়ান্ত, তাই কোনো টিকিটের অবস্থা আর বদলানো যায় না।$/,
    );
    expect(await statusOf(closed)).toBe('pending');
    const offSaleRow = rows.find((r) => r.trx_id === 'WDRN1234AB') as Row;
    const refused = await resolve(boss, offSaleRow.id, { action: 'approve', note: 'Paid while on sale.' }, 'bn').expect(409);
    expect(refused.body).toEqual({ detail: 'এই লটারির বিক্রি বন্ধ হয়ে গেছে: এর কেনাকাটা আর অনুমোদন করা যায় না।', code: 'sales_closed' });
    expect(await statusOf(offSale)).toBe('pending');
  });

  test('20 staff members confirm at once: exactly one confirmation, one approval per purchase, one audit row each', async () => {
    const lottery = await insertLottery(t, { name: 'Race' });
    const a = await account(t, { name: 'Racer' });
    const ids = [await bought(a, lottery, 'RACE1111AA', '01712345678'), await bought(a, lottery, 'RACE2222BB', '01712345678')];
    const csv = Buffer.from(
      'Trx ID,Date Time,Transaction Type,From,To,Amount\n' +
        'RACE1111AA,06-Dec-26 10:00 AM,Send Money,01712345678,01811000000,100\n' +
        'RACE2222BB,06-Dec-26 10:05 AM,Send Money,01712345678,01811000000,100\n',
    );
    const { body: s } = await upload(staff, csv, 'race.csv').expect(201);
    const others: Player[] = [staff2, boss];
    while (others.length < 20) others.push(await account(t, { name: `Staff ${others.length}`, is_staff: true }));
    const answers = await Promise.all(others.map((o) => confirm(o, s.id)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.code).toBe('not_awaiting');
    for (const id of ids) expect(await statusOf(id)).toBe('success');
    const audit = await t.db.query<{ action: string; entity_id: string }>(
      "SELECT action, entity_id FROM audit_log WHERE action IN ('transaction.approve', 'statement.confirm') ORDER BY id",
    );
    expect(audit.filter((x) => x.action === 'statement.confirm')).toHaveLength(1);
    expect(
      audit
        .filter((x) => x.action === 'transaction.approve')
        .map((x) => Number(x.entity_id))
        .sort((x, y) => x - y),
    ).toEqual(ids);
    const messages = await t.db.one<{ n: number }>(
      "SELECT count(*)::int AS n FROM player_messages WHERE kind = 'ticket_confirmed' AND user_id = $1",
      [a.id],
    );
    expect(messages?.n).toBe(2);
  });

  test('20 staff members confirm a proposed approval at once: one approval, one audit row; the rest 409', async () => {
    const p = await purchasesOfTheFixture();
    const s = await uploadConfirmed(staff, STATEMENT, staff2);
    const row = byLine(await rowsOf(staff, s.id), 13);
    await resolve(staff2, row.id, { action: 'approve', note: 'Proposed.' }).expect(200);
    const others: Player[] = [staff, boss];
    while (others.length < 20) others.push(await account(t, { name: `Desk ${others.length}`, is_staff: true }));
    const answers = await Promise.all(others.map((o) => resolve(o, row.id, { action: 'approve', note: 'Agreed.' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.body.code).toBe('already_resolved');
    expect(await statusOf(p.wrongAmount)).toBe('success');
    const approvals = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'transaction.approve' AND entity_id = $1",
      [String(p.wrongAmount)],
    );
    expect(approvals[0]?.n).toBe(1);
    expect((await t.db.query("SELECT 1 FROM audit_log WHERE action = 'statement.resolve'")).length).toBe(1);
  });
});
