/**
 * A published result is not taken back by one person (docs/rules/lotteries-and-sales.md#9-the-draw,
 * docs/decisions/055-withholding-by-two.md): a superuser proposes withholding a prize with a reason, a different staff
 * member approves or rejects it, the author may withdraw it; a withheld prize stays in the results and the proof,
 * marked withheld with the reason, its claim is refused and its winner told. Taking results back is a superuser's act
 * with a reason. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, approveByHand, buy, drawByHand, insertLottery, purchase, trxId, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player, superuser: Player, superuser2: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Draw Officer', is_staff: true });
  superuser = await account(t, { name: 'Head Office', is_staff: true });
  superuser2 = await account(t, { name: 'Second Office', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = ANY($1::bigint[])', [[superuser.id, superuser2.id]]);
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'player_messages',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const REASON = 'Court order 12/2026 of the Dhaka court';

const propose = (p: Player | null, prizeId: number | string, body: object = { reason: REASON }, lang = 'en') =>
  to(t, api.proposeWithholding, { params: { prizeId }, as: p, lang }).send(body);
const approve = (p: Player | null, proposalId: number | string, body: object = { reason: 'Order seen' }, lang = 'en') =>
  to(t, api.approveWithholding, { params: { proposalId }, as: p, lang }).send(body);
const reject = (p: Player | null, proposalId: number | string, body: object = { reason: 'No order' }, lang = 'en') =>
  to(t, api.rejectWithholding, { params: { proposalId }, as: p, lang }).send(body);
const audit = (action: string) =>
  t.db.query<{ actor_id: number; entity_id: string; before: unknown; after: Record<string, unknown> }>(
    'SELECT actor_id, entity_id, before, after FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );
const withheld = () => t.db.query('SELECT id, withheld_reason FROM prizes WHERE withheld_at IS NOT NULL ORDER BY id');

async function sold(p: Player, lottery: number, ticket: string): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, { trx_id: trxId() }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status} ${JSON.stringify(res.body)}`);
  const put = await approveByHand(t, res.body.id as number);
  if (put.status !== 200) throw new Error(`approval failed: ${put.status}`);
  return res.body.id as number;
}

/** A lottery of two winners drawn with T1 (player a's) and T2 (player b's): its prizes, TK. 50,000 each. */
async function drawn(): Promise<{ lottery: number; p1: number; p2: number }> {
  const lottery = await insertLottery(t, { name: 'Autumn Jackpot' });
  await sold(a, lottery, T1);
  await sold(b, lottery, T2);
  const res = await drawByHand(t, lottery, [T1, T2]);
  expect(res.status).toBe(201);
  const [p1, p2] = res.body.prizes as { id: number }[];
  return { lottery, p1: p1!.id, p2: p2!.id };
}

describe('proposing', () => {
  test('a superuser proposes with a reason: 201, pending, audited; nothing withheld yet', async () => {
    const { p1 } = await drawn();
    const res = await propose(superuser, p1, { reason: `  ${REASON}  ` });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      prize_id: p1,
      ticket: T1,
      prize_money: 50000,
      reason: REASON,
      status: 'pending',
      proposed_by: { id: superuser.id, name: 'Head Office' },
      decided_by: null,
      decision_reason: null,
    });
    expect(await withheld()).toEqual([]);
    const [record] = await audit('prize.withholding_proposed');
    expect(record).toMatchObject({ actor_id: superuser.id, entity_id: String(p1), after: { proposal_id: res.body.id, reason: REASON } });
    // A second proposal of the same prize waits for the first.
    const again = await propose(superuser2, p1);
    expect([again.status, again.body.code, again.body.proposal_id]).toEqual([409, 'proposal_pending', res.body.id]);
  });

  test('anonymous 401, a player 403, staff who are not superusers 403 (read from the database); nothing recorded', async () => {
    const { p1 } = await drawn();
    expect((await propose(null, p1)).status).toBe(401);
    expect((await propose(a, p1)).body).toMatchObject({ code: 'permission_denied' });
    for (const [lng, detail] of [
      ['en', 'Only a superuser may propose withholding a prize.'],
      ['bn', 'কেবল সুপারইউজার পুরস্কার আটকে রাখার প্রস্তাব করতে পারেন।'],
    ] as const) {
      const res = await propose(staff, p1, { reason: REASON }, lng);
      expect([res.status, res.body]).toEqual([403, { code: 'permission_denied', detail }]);
    }
    await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [superuser.id]);
    try {
      expect((await propose(superuser, p1)).status).toBe(403);
    } finally {
      await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
    }
    expect(await t.db.query('SELECT id FROM prize_withholding_proposals')).toEqual([]);
    expect(await audit('prize.withholding_proposed')).toEqual([]);
  });

  test('bad input: the reason required, one line, at most 500 characters; unknown prize 404; nothing recorded', async () => {
    const { p1 } = await drawn();
    for (const [body, errors] of [
      [{}, { reason: ['This field is required.'] }],
      [{ reason: '   ' }, { reason: ['Please give the reason.'] }],
      [{ reason: 'x'.repeat(501) }, { reason: ['Ensure this value has at most 500 characters or digits.'] }],
      [{ reason: 'line one\u0000' }, { reason: ['This field contains characters that are not allowed.'] }],
      [{ reason: 'ok', extra: 1 }, { extra: ['Unknown field.'] }],
    ] as [object, Record<string, unknown>][]) {
      const res = await propose(superuser, p1, body);
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors });
    }
    expect((await propose(superuser, p1, { reason: ' ' }, 'bn')).body).toEqual({ reason: ['কারণটি লিখুন।'] });
    expect((await propose(superuser, 999999)).status).toBe(404);
    expect((await propose(superuser, '0')).status).toBe(404);
    expect((await propose(superuser, 'x')).status).toBe(404);
    expect(await t.db.query('SELECT id FROM prize_withholding_proposals')).toEqual([]);
  });

  test('a prize whose winner submitted payout details is refused (claim_in_progress), a paid one too (prize_paid)', async () => {
    const { p1 } = await drawn();
    for (const [status, code] of [
      ['payment_info_submitted', 'claim_in_progress'],
      ['transfer_failed', 'claim_in_progress'],
      ['transfer_completed', 'prize_paid'],
    ]) {
      await t.db.query('DELETE FROM prize_payouts');
      await t.db.query('DELETE FROM prize_claims');
      await t.db.query(
        `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name)
         VALUES ($1, $2, $3, 'bkash', '01711111111', 'Rahim Uddin')`,
        [p1, a.id, status],
      );
      const res = await propose(superuser, p1);
      expect([res.status, res.body.code]).toEqual([409, code]);
      expect(res.body.detail).toContain('This prize cannot be withheld');
      // The claim's state is named in the caller's language.
      if (status === 'payment_info_submitted') {
        expect(res.body.detail).toBe(
          'This prize cannot be withheld: its winner has submitted payout details and is being paid (payment details submitted).',
        );
        expect((await propose(superuser, p1, undefined, 'bn')).body.detail).toContain('টাকা পাঠানো চলছে (পেমেন্টের তথ্য জমা হয়েছে)।');
      }
    }
    expect(await t.db.query('SELECT id FROM prize_withholding_proposals')).toEqual([]);
  });
});

describe('deciding', () => {
  test("another staff member approves: withheld with the proposal's reason, audited, the winner told; decided for good", async () => {
    const { p1, p2 } = await drawn();
    // The winner had asked for his claim code: a claim only started does not stop the withholding.
    await t.db.query('INSERT INTO prize_claims (prize_id, user_id) VALUES ($1, $2)', [p1, a.id]);
    const proposal = (await propose(superuser, p1)).body as { id: number };
    const res = await approve(staff, proposal.id, { reason: 'Order seen by me' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      decided_by: { id: staff.id, name: 'Draw Officer' },
      decision_reason: 'Order seen by me',
    });
    expect(await withheld()).toEqual([{ id: p1, withheld_reason: REASON }]);
    // The prize stays, with its money; the other keeps its own.
    expect(await t.db.query('SELECT id, prize_money FROM prizes ORDER BY id')).toEqual([
      { id: p1, prize_money: 50000 },
      { id: p2, prize_money: 50000 },
    ]);
    const [record] = await audit('prize.withhold');
    expect(record).toMatchObject({
      actor_id: staff.id,
      entity_id: String(p1),
      after: { withheld: true, proposal_id: proposal.id, proposed_by: superuser.id, proposal_reason: REASON, reason: 'Order seen by me' },
    });
    // One message to the winner, queued for his SMS, with the reason.
    expect(await t.db.query("SELECT user_id, kind, params, sms_state FROM player_messages WHERE kind = 'prize_withheld'")).toEqual([
      expect.objectContaining({ user_id: a.id, sms_state: 'queued', params: expect.objectContaining({ prize_id: p1, reason: REASON }) }),
    ]);
    const twice = await approve(superuser2, proposal.id);
    expect([twice.status, twice.body.code]).toEqual([409, 'proposal_decided']);
    expect((await reject(superuser2, proposal.id)).body.code).toBe('proposal_decided');
    // The state is named in the caller's language.
    expect(twice.body.detail).toBe('This proposal is no longer waiting: it was approved.');
    expect((await reject(superuser2, proposal.id, undefined, 'bn')).body.detail).toBe('এই প্রস্তাবটি আর অপেক্ষায় নেই: এটি অনুমোদিত হয়েছে।');
    // Withheld is withheld: a new proposal is refused.
    expect((await propose(superuser2, p1)).body.code).toBe('prize_withheld');
  });

  test('the author cannot approve his own proposal, superuser or not (403 same_person); he may withdraw it', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    for (const [lng, detail] of [
      ['en', 'You proposed withholding this prize: a second staff member must approve it.'],
      ['bn', 'এই পুরস্কার আটকে রাখার প্রস্তাব আপনিই করেছেন: দ্বিতীয় একজন কর্মীকে অনুমোদন করতে হবে।'],
    ] as const) {
      const res = await approve(superuser, proposal.id, { reason: 'Mine' }, lng);
      expect([res.status, res.body]).toEqual([403, { code: 'same_person', detail }]);
    }
    expect(await withheld()).toEqual([]);
    const back = await reject(superuser, proposal.id, { reason: 'Order lifted' });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'withdrawn', decided_by: { id: superuser.id }, decision_reason: 'Order lifted' });
    expect(await audit('prize.withholding_withdrawn')).toHaveLength(1);
    expect(await withheld()).toEqual([]);
    expect(await t.db.query("SELECT id FROM player_messages WHERE kind = 'prize_withheld'")).toEqual([]);
  });

  test('another staff member rejects: the prize stays as it is, audited; it can be proposed again', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    const res = await reject(staff, proposal.id, { reason: 'No court order was shown' });
    expect(res.body).toMatchObject({ status: 'rejected', decided_by: { id: staff.id } });
    expect(await audit('prize.withholding_rejected')).toHaveLength(1);
    expect(await withheld()).toEqual([]);
    expect((await propose(superuser, p1)).status).toBe(201);
  });

  test('who may decide, and bad input: anonymous 401, a player 403, unknown 404, a reason required; nothing changes', async () => {
    const { p1, lottery } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    for (const call of [approve, reject]) {
      expect((await call(null, proposal.id)).status).toBe(401);
      expect((await call(a, proposal.id)).body.code).toBe('permission_denied');
      expect((await call(staff, 999999)).status).toBe(404);
      expect((await call(staff, '0')).status).toBe(404);
      expect((await call(staff, proposal.id, {})).body).toEqual({ reason: ['This field is required.'] });
      expect((await call(staff, proposal.id, { reason: 'x'.repeat(501) })).status).toBe(400);
    }
    const proposals = (p: Player | null) => to(t, api.lotteryWithholdings, { params: { id: lottery }, as: p });
    expect((await proposals(null)).status).toBe(401);
    expect((await proposals(a)).status).toBe(403);
    const list = await proposals(staff);
    expect(list.body).toEqual([expect.objectContaining({ id: proposal.id, status: 'pending' })]);
    expect(await withheld()).toEqual([]);
  });

  test('a claim submitted after the proposal: the approval is refused (claim_in_progress), nothing withheld', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    await t.db.query(
      `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name)
       VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01711111111', 'Rahim Uddin')`,
      [p1, a.id],
    );
    const res = await approve(staff, proposal.id);
    expect([res.status, res.body.code]).toEqual([409, 'claim_in_progress']);
    expect(await withheld()).toEqual([]);
  });

  test('20 staff approving at once: exactly one withholds, the others 409 proposal_decided; one message, one audit', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    const approvers = await Promise.all(Array.from({ length: 20 }, (_, i) => account(t, { name: `Approver ${i}`, is_staff: true })));
    const answers = await Promise.all(approvers.map((p) => approve(p, proposal.id)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(answers.filter((r) => r.status === 409).every((r) => r.body.code === 'proposal_decided')).toBe(true);
    expect(await withheld()).toHaveLength(1);
    expect(await audit('prize.withhold')).toHaveLength(1);
    expect(await t.db.query("SELECT id FROM player_messages WHERE kind = 'prize_withheld'")).toHaveLength(1);
  });
});

describe('a withheld prize', () => {
  async function withheldPrize() {
    const d = await drawn();
    const proposal = (await propose(superuser, d.p1)).body as { id: number };
    expect((await approve(staff, proposal.id)).status).toBe(200);
    return d;
  }

  test('its claim is refused (409 prize_withheld, in the caller language); its winner reads why', async () => {
    const { p1 } = await withheldPrize();
    for (const [lng, detail] of [
      ['en', `This prize was withheld and cannot be claimed: ${REASON}`],
      ['bn', `এই পুরস্কারটি আটকে রাখা হয়েছে, দাবি করা যাবে না: ${REASON}`],
    ] as const) {
      const res = await to(t, api.sendClaimCode, { as: a, lang: lng }).send({ prize_id: p1 });
      expect([res.status, res.body]).toEqual([409, { code: 'prize_withheld', detail }]);
    }
    const mine = await to(t, api.myWinningTickets, { as: a });
    expect(mine.body[0]).toMatchObject({ prize: { id: p1 }, can_claim: false, withheld_reason: REASON });
    const tx = await to(t, api.myTransactions, { as: a });
    expect(tx.body.find((x: { ticket: string }) => x.ticket === T1)).toMatchObject({
      is_winning_ticket: true,
      prize: { id: p1, prize_money: 50000, withheld_reason: REASON },
    });
    // The other winner is not touched.
    const other = await to(t, api.myWinningTickets, { as: b });
    expect(other.body[0]).toMatchObject({ can_claim: true, withheld_reason: null });
  });

  test('stays in the results with its reason; the total prize stays the draw’s, with what was withheld beside it', async () => {
    const { lottery } = await withheldPrize();
    const res = await to(t, api.resultsArchive);
    const item = res.body.find((r: { lottery: { id: number } }) => r.lottery.id === lottery);
    expect(item).toMatchObject({
      lottery: { total_prize: 100000 },
      withheld: 50000,
      winners: [
        { ticket: T1, prize_money: 50000, withheld_reason: REASON },
        { ticket: T2, prize_money: 50000, withheld_reason: null },
      ],
    });
  });

  test('the latest results and "check my numbers" mark it too, with its reason; the other prize is not marked', async () => {
    const { lottery } = await withheldPrize();
    const latest = await to(t, api.lotteryResults).expect(200);
    const item = latest.body.find((r: { lottery: { id: number } }) => r.lottery.id === lottery);
    expect(item.prizes.map((p: { ticket: string; withheld_reason: string | null }) => [p.ticket, p.withheld_reason])).toEqual([
      [T1, REASON],
      [T2, null],
    ]);
    for (const [ticket, reason] of [
      [T1, REASON],
      [T2, null],
    ] as const) {
      const checked = await to(t, api.checkNumbers, { query: { ticket } }).expect(200);
      expect(checked.body.hits).toEqual([
        expect.objectContaining({ lottery: expect.objectContaining({ id: lottery }), prize: 50000, withheld_reason: reason }),
      ]);
    }
  });
});

describe('the pages of a withheld prize', () => {
  test('/results: the total prize stays, with what was withheld beside it, and the ticket marked with its reason', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    expect((await approve(staff, proposal.id)).status).toBe(200);
    const en = await request(t.url).get('/results').expect(200);
    expect(en.text).toMatch(/Total prize .*100,000.*\(of which .*50,000.* withheld\)/s);
    expect(en.text).toContain(`Withheld: ${REASON}`);
    const bn = await request(t.url).get('/results').set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('আটকে রাখা হয়েছে)');
    expect(bn.text).toContain(`আটকে রাখা হয়েছে: ${REASON}`);
  });

  test('the home page\'s latest results and "check my numbers" mark the ticket withheld with its reason, in both languages', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    expect((await approve(staff, proposal.id)).status).toBe(200);
    const agent = await loginAs(t.url, b.phone, 'secret-pass-1');
    for (const [lng, home, check] of [
      ['en', `Prize withheld: ${REASON}`, `Withheld: ${REASON}`],
      ['bn', `পুরস্কার আটকে রাখা হয়েছে: ${REASON}`, `আটকে রাখা হয়েছে: ${REASON}`],
    ] as const) {
      const page = await agent.get('/').set('Cookie', `lang=${lng}`).expect(200);
      expect(page.text.split(home)).toHaveLength(2);
      const hit = await request(t.url).get(`/results/check?ticket=${T1}`).set('Cookie', `lang=${lng}`).expect(200);
      expect(hit.text).toContain(`<p class="result-card__withheld">${check}</p>`);
      const other = await request(t.url).get(`/results/check?ticket=${T2}`).set('Cookie', `lang=${lng}`).expect(200);
      expect(other.text).toContain('check-hit--won');
      expect(other.text).not.toContain('result-card__withheld');
    }
  });

  test('My Lotteries: "Your prize was withheld: <reason>", not "Better luck next time", no claim offered', async () => {
    const { p1 } = await drawn();
    const proposal = (await propose(superuser, p1)).body as { id: number };
    expect((await approve(staff, proposal.id)).status).toBe(200);
    const agent = await loginAs(t.url, a.phone, 'secret-pass-1');
    const page = await agent.get('/my-lotteries').expect(200);
    expect(page.text).toContain(`Your prize was withheld: ${REASON}`);
    expect(page.text).not.toContain('Better luck next time');
    expect(page.text).not.toContain('Add Payment Info');
    const other = await loginAs(t.url, b.phone, 'secret-pass-1');
    expect((await other.get('/my-lotteries').expect(200)).text).toContain('Add Payment Info');
  });
});

describe('taking results back', () => {
  const patch = (p: Player, lottery: number, body: object, lang = 'en') =>
    to(t, api.updateLottery, { params: { id: lottery }, as: p, lang }).send(body);

  test('a superuser with a reason: 200, audited with the reason', async () => {
    const { lottery } = await drawn();
    const res = await patch(superuser, lottery, { is_result_published: false, results_reason: 'Wrong tickets were drawn' });
    expect(res.status).toBe(200);
    expect(res.body.is_result_published).toBe(false);
    const [record] = (await audit('lottery.update')).filter((r) => r.entity_id === String(lottery));
    expect(record).toMatchObject({
      actor_id: superuser.id,
      after: { is_result_published: false, results_reason: 'Wrong tickets were drawn' },
    });
  });

  test('other staff 403 (read from the database), no reason 400 under results_reason; nothing changes', async () => {
    const { lottery } = await drawn();
    for (const [lng, detail] of [
      ['en', 'Only a superuser may take back the results of a drawn lottery.'],
      ['bn', 'ড্র হওয়া লটারির ফলাফল কেবল সুপারইউজার ফিরিয়ে নিতে পারেন।'],
    ] as const) {
      const res = await patch(staff, lottery, { is_result_published: false, results_reason: 'x' }, lng);
      expect([res.status, res.body]).toEqual([403, { code: 'permission_denied', detail }]);
    }
    await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [superuser.id]);
    try {
      expect((await patch(superuser, lottery, { is_result_published: false, results_reason: 'x' })).status).toBe(403);
    } finally {
      await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
    }
    const none = await patch(superuser, lottery, { is_result_published: false });
    expect([none.status, none.body]).toEqual([
      400,
      { results_reason: ['Please give the reason for taking back the results.'], code: 'unpublish_reason_required' },
    ]);
    const bn = await patch(superuser, lottery, { is_result_published: false }, 'bn');
    expect(bn.body).toEqual({ results_reason: ['ফলাফল ফিরিয়ে নেওয়ার কারণ লিখুন।'], code: 'unpublish_reason_required' });
    expect((await patch(superuser, lottery, { is_result_published: false, results_reason: '  ' })).status).toBe(400);
    // A reason for anything else is refused.
    const other = await patch(superuser, lottery, { name: 'Autumn Jackpot 2', results_reason: 'x' });
    expect([other.status, other.body]).toEqual([
      400,
      { results_reason: ['A reason is only given when taking back the results.'], code: 'unpublish_reason_only_then' },
    ]);
    expect(await t.db.one('SELECT name, is_result_published FROM lotteries WHERE id = $1', [lottery])).toEqual({
      name: 'Autumn Jackpot',
      is_result_published: true,
    });
    // Staff still edit what is theirs to edit, without a reason.
    expect((await patch(staff, lottery, { name: 'Autumn Jackpot 3' })).status).toBe(200);
  });
});
