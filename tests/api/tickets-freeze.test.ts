/**
 * The tickets freeze at the end of sales (docs/rules/lotteries-and-sales.md#8-transaction-states,
 * docs/rules/draws.md#3-the-tickets): from `end_date` no ticket of the lottery changes its status, whoever asks (staff,
 * a superuser, a player giving his TrxID); the freeze job rejects the tickets still pending, tells their players and
 * records `T` and `n` once whatever the number of runs; the proof shows them before the draw; the draw freezes first
 * when no job did, and refuses a set that no longer gives the frozen `T`; 20 approvals racing the close have one
 * outcome each. On PGlite and PostgreSQL.
 */
import { freezeDue } from '../../server/draws/freeze-job.ts';
import { ticketsDigest } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { REAL_BEACONS } from '../helpers/fake-drand.ts';
import { account, approveByHand, insertLottery, trxId, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let staff: Player;
/** A second staff member: a payment approved by hand is proposed by one and approved by another. */
let staff2: Player;
let superuser: Player;
let player: Player;
let other: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Desk Staff', is_staff: true });
  staff2 = await account(t, { name: 'Second Staff', is_staff: true });
  superuser = await account(t, { name: 'Owner', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
  player = await account(t, { name: 'Plain Player' });
  other = await account(t, { name: 'Other Player' });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'player_messages',
    'bkash_payments',
    'prizes',
    'generated_tickets',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const TICKETS = ['05-12-23-34-45-07', '01-02-03-04-05-06', '13-21-34-40-51-01'];

/** A transaction of `who` for the lottery, straight in the database. */
async function ticket(
  lottery: number,
  tk: string,
  status: 'pending' | 'success' | 'failed',
  o: { who?: Player; trx?: string | null } = {},
) {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, trx_id, status) VALUES ($1, $2, $3, 100, 'bkash', $4, $5) RETURNING id`,
    [(o.who ?? player).id, lottery, tk, o.trx === undefined ? trxId() : o.trx, status],
  );
  return row!.id;
}
const close = (lottery: number, ago = "interval '1 minute'") =>
  t.db.query(`UPDATE lotteries SET end_date = now() - ${ago} WHERE id = $1`, [lottery]);
const statusOf = async (id: number) => (await t.db.one<{ status: string }>('SELECT status FROM transactions WHERE id = $1', [id]))?.status;
const put = (who: Player | null, id: number, status: string, lang = 'en') =>
  to(t, api.updateTransaction, { params: { id }, as: who, lang }).send({ status });
const giveTrxId = (who: Player, id: number, trx: string, lang = 'en') =>
  to(t, api.setTrxId, { params: { id }, as: who, lang }).send({ trx_id: trx, payment_number: '01712345678' });
const proof = (id: number) => to(t, api.drawProof, { params: { id } }).expect(200);
const audit = (action: string) =>
  t.db.query<{ actor_id: number | null; entity_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
    'SELECT actor_id, entity_id, before, after FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );
const freezeRow = (lottery: number) =>
  t.db.one<{ tickets_digest: string; tickets_count: number; rejected: number; frozen_at: string }>(
    'SELECT tickets_digest, tickets_count, rejected, frozen_at FROM ticket_freezes WHERE lottery_id = $1',
    [lottery],
  );

describe('no status changes from the end of sales', () => {
  test('staff, and a superuser, are refused every change (409 tickets_frozen, in English and Bengali); nothing changes', async () => {
    const lottery = await insertLottery(t);
    const pending = await ticket(lottery, TICKETS[0]!, 'pending');
    const paid = await ticket(lottery, TICKETS[1]!, 'success');
    const failed = await ticket(lottery, TICKETS[2]!, 'failed');
    // Before the close the same changes are allowed (the control): approve (by two), then take it back (by one).
    expect((await approveByHand(t, pending)).status).toBe(200);
    expect(await statusOf(pending)).toBe('success');
    expect((await put(staff, pending, 'pending')).status).toBe(200);
    await t.db.query('DELETE FROM audit_log');
    await close(lottery);
    for (const who of [staff, superuser])
      for (const [id, status] of [
        [pending, 'success'],
        [pending, 'failed'],
        [paid, 'pending'],
        [failed, 'pending'],
      ] as const) {
        const res = await put(who, id, status);
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('tickets_frozen');
        expect(res.body.detail).toMatch(/^Sales of this lottery closed on .+: its tickets are frozen for the draw/);
      }
    const bn = await put(staff, pending, 'success', 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body).toEqual({ code: 'tickets_frozen', detail: expect.stringContaining('ড্র-এর জন্য এর টিকিট চূড়ান্ত') });
    expect(bn.body.detail).not.toMatch(/[0-9]/);
    // Nor is an approval by two begun after the close: the proposal is refused (docs/rules/payments.md#1-who-may-do-what).
    const proposal = await approveByHand(t, pending);
    expect([proposal.status, proposal.body.code]).toEqual([409, 'tickets_frozen']);
    expect([await statusOf(pending), await statusOf(paid), await statusOf(failed)]).toEqual(['pending', 'success', 'failed']);
    expect(await t.db.query('SELECT 1 FROM audit_log')).toEqual([]);
    // Asking for the status it has changes nothing, as before.
    expect((await put(staff, paid, 'success')).status).toBe(200);
    // Who may is unchanged: anonymous 401, a player 403.
    expect((await put(null, pending, 'success')).status).toBe(401);
    expect((await put(player, pending, 'success')).status).toBe(403);
  });

  test('a freeze on record refuses even while the end of sales reads as ahead (another instance froze it)', async () => {
    const lottery = await insertLottery(t);
    const pending = await ticket(lottery, TICKETS[0]!, 'pending');
    await t.db.query(`INSERT INTO ticket_freezes (lottery_id, frozen_at, tickets_digest, tickets_count) VALUES ($1, now(), $2, 0)`, [
      lottery,
      ticketsDigest([]),
    ]);
    const res = await put(staff, pending, 'success');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('tickets_frozen');
    expect(await statusOf(pending)).toBe('pending');
  });

  test('a player giving his TrxID after the close: 409 tickets_frozen; another player’s purchase is still not found', async () => {
    const lottery = await insertLottery(t);
    const before = await ticket(lottery, TICKETS[0]!, 'pending', { trx: null });
    const after = await ticket(lottery, TICKETS[1]!, 'pending', { trx: null });
    expect((await giveTrxId(player, before, 'FRZ0000001')).status).toBe(200);
    await close(lottery);
    for (const lng of ['en', 'bn']) {
      const res = await giveTrxId(player, after, 'FRZ0000002', lng);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('tickets_frozen');
    }
    expect((await giveTrxId(other, after, 'FRZ0000003')).status).toBe(404);
    // The same TrxID again is no change, and says so as before.
    expect((await giveTrxId(player, before, 'FRZ0000001')).status).toBe(200);
    expect((await t.db.one<{ trx_id: string | null }>('SELECT trx_id FROM transactions WHERE id = $1', [after]))?.trx_id).toBeNull();
  });
});

describe('the freeze at the close', () => {
  test('pending tickets rejected (no actor, sales_closed) and their players told; T and n recorded once, audited', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    const open = await insertLottery(t);
    const paid = [await ticket(lottery, TICKETS[0]!, 'success'), await ticket(lottery, TICKETS[1]!, 'success')];
    const pending = await ticket(lottery, TICKETS[2]!, 'pending', { who: other });
    const failed = await ticket(lottery, '02-09-18-27-55-15', 'failed');
    const stillOpen = await ticket(open, TICKETS[0]!, 'pending');
    // A checkout payment bKash has not settled yet: left to the payments code.
    await t.db.query(`INSERT INTO bkash_payments (payment_id, transaction_id, amount) VALUES ('TR0011FRZ', $1, 100)`, [pending]);
    expect(await freezeDue(t.db)).toBe(0);
    expect((await proof(lottery)).body).not.toHaveProperty('frozen');

    await close(lottery);
    // Instances running at once: one freeze, one audit record.
    const runs = await Promise.all([freezeDue(t.db), freezeDue(t.db), freezeDue(t.db)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await freezeDue(t.db)).toBe(0);

    expect(await statusOf(pending)).toBe('failed');
    expect(await statusOf(failed)).toBe('failed');
    expect(await statusOf(stillOpen)).toBe('pending');
    for (const id of paid) expect(await statusOf(id)).toBe('success');
    const digest = ticketsDigest([TICKETS[0]!, TICKETS[1]!]);
    expect(await freezeRow(lottery)).toMatchObject({ tickets_digest: digest, tickets_count: 2, rejected: 1 });
    expect(await freezeRow(open)).toBeUndefined();

    const rejected = await audit('transaction.reject');
    expect(rejected).toEqual([
      expect.objectContaining({
        actor_id: null,
        entity_id: String(pending),
        after: expect.objectContaining({ status: 'failed', reason: 'sales_closed' }),
      }),
    ]);
    const frozen = await audit('lottery.freeze');
    expect(frozen).toEqual([
      expect.objectContaining({
        actor_id: null,
        entity_id: String(lottery),
        after: expect.objectContaining({ tickets_digest: digest, tickets: 2, rejected: [pending] }),
      }),
    ]);
    const messages = await t.db.query<{ user_id: number; kind: string; params: { reason: string } }>(
      'SELECT user_id, kind, params FROM player_messages',
    );
    expect(messages).toEqual([{ user_id: other.id, kind: 'ticket_rejected', params: expect.objectContaining({ reason: 'sales_closed' }) }]);
    // The payment stays for the payments code to settle with bKash.
    expect((await t.db.one<{ state: string }>(`SELECT state FROM bkash_payments WHERE payment_id = 'TR0011FRZ'`))?.state).toBe('created');

    // The proof shows T and n at once, before the draw.
    const p = (await proof(lottery)).body;
    expect(p.frozen).toEqual({ at: expect.any(String), tickets: 2, tickets_digest: digest });
    expect(p).not.toHaveProperty('seed');
  });

  test('the player’s message says why, in his language', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    await ticket(lottery, TICKETS[0]!, 'pending');
    await close(lottery);
    await freezeDue(t.db);
    const en = await to(t, api.notifications, { as: player, lang: 'en' });
    const bn = await to(t, api.notifications, { as: player, lang: 'bn' });
    expect(JSON.stringify(en.body)).toContain('sales closed before its payment');
    expect(JSON.stringify(bn.body)).toContain('বিক্রি বন্ধ হয়েছে');
  });

  test('a drawn lottery and an unpublished one are not frozen by the job', async () => {
    const drawn = await insertLottery(t, { results: true });
    const hidden = await insertLottery(t, { published: false });
    await ticket(drawn, TICKETS[0]!, 'pending');
    await ticket(hidden, TICKETS[0]!, 'pending');
    await close(drawn);
    await close(hidden);
    expect(await freezeDue(t.db)).toBe(0);
    expect(await t.db.query('SELECT 1 FROM ticket_freezes')).toEqual([]);
  });
});

describe('the draw uses the frozen set', () => {
  /** A real quicknet round with its signature: only drand's signed value draws (decision 046). */
  const SIGNED = REAL_BEACONS[1];
  const draw = (id: number, lang = 'en') => to(t, api.verifiableDraw, { params: { id }, as: staff, lang });
  /** A lottery with paid tickets and one pending, its sales closed, its commitment announced and its beacon known (signed). */
  async function ready(): Promise<{ id: number; pending: number }> {
    const id = await insertLottery(t);
    for (const tk of TICKETS) await ticket(id, tk, 'success');
    const pending = await ticket(id, '02-09-18-27-55-15', 'pending');
    await proof(id); // announces the draw (a lottery made in the database)
    await close(id, "interval '1 hour'");
    await t.db.query('UPDATE draw_commitments SET beacon_round = $2, beacon_value = $3, beacon_signature = $4 WHERE lottery_id = $1', [
      id,
      SIGNED.round,
      SIGNED.randomness,
      SIGNED.signature,
    ]);
    return { id, pending };
  }

  test('a lottery no job froze is frozen by the draw first; the proof’s T is the frozen one', async () => {
    const { id, pending } = await ready();
    await draw(id).expect(201);
    expect(await statusOf(pending)).toBe('failed');
    const f = await freezeRow(id);
    expect(f).toMatchObject({ tickets_digest: ticketsDigest(TICKETS), tickets_count: 3, rejected: 1 });
    expect((await proof(id)).body.tickets_digest).toBe(f!.tickets_digest);
    const order = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action IN ('lottery.freeze', 'lottery.draw') ORDER BY id",
    );
    expect(order.map((r) => r.action)).toEqual(['lottery.freeze', 'lottery.draw']);
  });

  test('tickets that no longer give the frozen T: 409 frozen_differs, in both languages, nothing drawn', async () => {
    const { id, pending } = await ready();
    expect(await freezeDue(t.db)).toBe(1);
    // Written past every rule, straight in the database: the draw must notice.
    await t.db.query("UPDATE transactions SET status = 'success' WHERE id = $1", [pending]);
    for (const lng of ['en', 'bn']) {
      const res = await draw(id, lng);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('frozen_differs');
    }
    expect(await t.db.query('SELECT 1 FROM prizes WHERE lottery_id = $1', [id])).toEqual([]);
    expect(
      (await t.db.one<{ revealed_at: string | null }>('SELECT revealed_at FROM draw_commitments WHERE lottery_id = $1', [id]))?.revealed_at,
    ).toBeNull();
  });
});

describe('20 approvals racing the close', () => {
  test('each ticket has one outcome: approved before the freeze and in T, or refused (the proposal lapsed) and rejected by it', async () => {
    const propose = (id: number) => to(t, api.proposeApproval, { params: { id }, as: staff }).send({ reason: 'Receipt shown' }).expect(201);
    const approve = (proposalId: number) =>
      to(t, api.approveApprovalProposal, { params: { proposalId }, as: staff2 }).send({ reason: 'Receipt checked' });
    // A warm server first (the first approval of a file compiles its path), so that the close falls among the 20.
    const warm = await insertLottery(t);
    await approve((await propose(await ticket(warm, TICKETS[0]!, 'pending'))).body.id).expect(200);
    const lottery = await insertLottery(t);
    const tickets = Array.from({ length: 20 }, (_, i) => `01-02-03-04-${String(10 + i).padStart(2, '0')}-01`);
    const ids: number[] = [];
    for (const tk of tickets) ids.push(await ticket(lottery, tk, 'pending'));
    // Each purchase proposed by one staff member while on sale; a second one's approvals race the close.
    const proposals: number[] = [];
    for (const id of ids) proposals.push((await propose(id)).body.id as number);
    await t.db.query(`UPDATE lotteries SET end_date = now() + interval '500 milliseconds' WHERE id = $1`, [lottery]);
    const freezer = (async () => {
      await new Promise((r) => setTimeout(r, 450));
      for (let i = 0; i < 400; i++) {
        if (await freezeDue(t.db)) return;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const answers = await Promise.all(
      proposals.map(async (proposalId, i) => {
        await new Promise((r) => setTimeout(r, i * 30));
        return approve(proposalId);
      }),
    );
    await freezer;
    const f = await freezeRow(lottery);
    expect(f).toBeDefined();
    const approved: string[] = [];
    for (const [i, res] of answers.entries()) {
      const status = await statusOf(ids[i]!);
      if (res.status === 200) {
        expect(status).toBe('success');
        approved.push(tickets[i]!);
      } else {
        expect([res.status, res.body.code, status]).toEqual([409, 'tickets_frozen', 'failed']);
      }
    }
    // Every proposal decided once: approved, or lapsed (recorded) by the refused approval.
    const decided = await t.db.query<{ status: string }>(
      'SELECT status FROM transaction_approval_proposals WHERE transaction_id = ANY($1::bigint[]) ORDER BY transaction_id',
      [ids],
    );
    expect(decided.map((d) => d.status)).toEqual(answers.map((r) => (r.status === 200 ? 'approved' : 'lapsed')));
    expect(Number(f!.tickets_count)).toBe(approved.length);
    expect(f!.tickets_digest).toBe(ticketsDigest(approved));
    expect(Number(f!.rejected)).toBe(20 - approved.length);
  });
});
