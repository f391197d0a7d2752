/**
 * Prize claims (docs/rules/lotteries-and-sales.md#11-prize-claims): my-winning-tickets, send-prize-claim-otp,
 * submit-prize-claim, and the staff's transfer actions. Only the owner claims, once per prize (again after a failed
 * transfer), within 30 days of the draw, with a 6-digit code that cannot be guessed by trying. On PGlite and PostgreSQL.
 */
import { NotifyError } from '../../server/notify/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, drawByHand, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player, approver: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Payout Officer', is_staff: true });
  // The prizes here (TK. 100,000) are above PAYOUT_SECOND_APPROVAL_TK: a second staff member approves before one completes.
  approver = await account(t, { name: 'Second Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
    'one_time_codes',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';

const winning = (p: Player | null, query: Record<string, string> = {}) => to(t, api.myWinningTickets, { query, as: p });
const one = (p: Player | null, prize: number | string) => to(t, api.myWinningTicket, { params: { id: prize }, as: p });
const sendCode = (p: Player | null, body: unknown, lang = 'en') => to(t, api.sendClaimCode, { as: p, lang }).send(body as object);
const submit = (p: Player | null, body: unknown, lang = 'en') => to(t, api.submitClaim, { as: p, lang }).send(body as object);
/** The staff's two transfer actions: completed (toggle-transfer) or failed (transfer-failed). */
const TRANSFER = { 'toggle-transfer': api.completeTransfer, 'transfer-failed': api.failTransfer } as const;
/** A transfer by hand is recorded with its reference (TransferBody); failing one sends nothing. */
const REFERENCE = 'NGD8812345';
const transfer = (p: Player | null, claim: number, how: keyof typeof TRANSFER, lang = 'en') =>
  how === 'toggle-transfer'
    ? to(t, TRANSFER[how], { params: { id: claim }, as: p, lang }).send({ reference: REFERENCE })
    : to(t, TRANSFER[how], { params: { id: claim }, as: p, lang });
const approve = (p: Player | null, claim: number) => to(t, api.approveTransfer, { params: { id: claim }, as: p });
const transactions = (p: Player) => to(t, api.myTransactions, { as: p });

/** A lottery drawn with a's ticket T1 winning (b holds T2, which does not win); the prize's id. */
async function drawnWith(o: { drawnDaysAgo?: number } = {}): Promise<{ lottery: number; prize: number }> {
  const lottery = await insertLottery(t);
  for (const [p, ticket] of [
    [a, T1],
    [b, T2],
  ] as const) {
    const res = await buy(t, p, purchase(lottery, ticket, { trx_id: trxId() }));
    const approved = await approveByHand(t, res.body.id);
    expect(approved.status).toBe(200);
  }
  const d = await drawByHand(t, lottery, [T1]);
  expect(d.status).toBe(201);
  if (o.drawnDaysAgo)
    await t.db.query(`UPDATE lotteries SET drawn_at = now() - make_interval(days => $2) WHERE id = $1`, [lottery, o.drawnDaysAgo]);
  return { lottery, prize: d.body.prizes[0].id as number };
}

const payout = (prize: number, otp: string, extra: Record<string, unknown> = {}) => ({
  prize,
  payment_method: 'bkash',
  account_number: '01712345678',
  account_holder_name: 'Rahim Uddin',
  otp,
  ...extra,
});

/** Sends a claim code to a and returns it. */
async function codeFor(prize: number, p: Player = a): Promise<string> {
  const res = await sendCode(p, { prize_id: prize });
  expect(res.status).toBe(200);
  return t.lastCode(p.phone, 'claim');
}

/** Lets the 30 s resend wait of every code pass. */
const afterResendWait = () => t.db.query(`UPDATE one_time_codes SET created_at = created_at - interval '1 minute'`);

const claimRow = () => t.db.one<{ id: number; status: string; account_number: string; bank_name: string }>('SELECT * FROM prize_claims');

describe('my-winning-tickets', () => {
  test('the owner sees his winning ticket, its prize and deadline; others see nothing; anonymous 401', async () => {
    const { lottery, prize } = await drawnWith();
    const res = await winning(a);
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.body).toHaveLength(1);
    const w = res.body[0];
    expect(w).toMatchObject({ prize: { id: prize, prize_money: 100000 }, ticket: T1, can_claim: true, claim: null });
    expect(w.lottery.id).toBe(lottery);
    expect(new Date(w.claim_deadline).getTime() - new Date(w.lottery.drawn_at).getTime()).toBe(30 * 24 * 3600 * 1000);
    expect((await winning(b)).body).toEqual([]);
    expect((await winning(null)).status).toBe(401);
    expect((await one(a, prize)).body.prize.id).toBe(prize);
    for (const res of [await one(b, prize), await one(a, 99999)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: "Prize not found or you don't have access to it.", code: 'not_found' });
    }
    expect((await one(a, 'abc')).status).toBe(404);
    expect((await winning(a, { limit: '0' })).status).toBe(400);
  });

  test('results taken back by staff take the prize out of view', async () => {
    const { lottery, prize } = await drawnWith();
    await t.db.query('UPDATE lotteries SET is_result_published = false WHERE id = $1', [lottery]);
    expect((await winning(a)).body).toEqual([]);
    expect((await one(a, prize)).status).toBe(404);
    const asked = await sendCode(a, { prize_id: prize });
    expect([asked.status, asked.body.code]).toEqual([404, 'not_found']);
  });

  test('my-transactions shows the win, then the claim state', async () => {
    const { prize } = await drawnWith();
    const before = (await transactions(a)).body[0];
    expect(before).toMatchObject({
      is_winning_ticket: true,
      prize: { id: prize, prize_money: 100000 },
      has_claimed: false,
      claim_status: null,
    });
    expect(before.lottery.drawn_at).toEqual(expect.any(String));
    const code = await codeFor(prize);
    // A code sent is not a claim made.
    expect((await transactions(a)).body[0]).toMatchObject({ has_claimed: false, claim_status: null });
    expect((await submit(a, payout(prize, code))).status).toBe(200);
    expect((await transactions(a)).body[0]).toMatchObject({
      has_claimed: true,
      claim_status: 'payment_info_submitted',
    });
    const loser = (await transactions(b)).body[0];
    expect(loser).toMatchObject({ is_winning_ticket: false, prize: null, has_claimed: false });
  });
});

describe('claiming', () => {
  test('code, then payout details: the claim is submitted once', async () => {
    const { prize } = await drawnWith();
    const sent = await sendCode(a, { prize_id: prize });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ detail: 'We sent a 6-digit claim code to your phone or email.', wait: 30 });
    const code = await t.lastCode(a.phone, 'claim');
    expect(code).toMatch(/^\d{6}$/);
    expect((await claimRow())?.status).toBe('pending');
    const res = await submit(a, payout(prize, code, { account_number: '+8801712-345678' }));
    expect(res.status).toBe(200);
    expect(res.body.can_claim).toBe(false);
    expect(res.body.claim).toMatchObject({ status: 'payment_info_submitted', payment_method: 'bkash', account_number: '01712345678' });
    // Submitted details are not replaced: another code is refused, and so is another submit.
    await afterResendWait();
    const again = await sendCode(a, { prize_id: prize });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_claimed');
    const second = await submit(a, payout(prize, code, { account_number: '01812345678' }));
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: 'The payment details for this prize have already been submitted.', code: 'already_claimed' });
    expect((await claimRow())?.account_number).toBe('01712345678');
  });

  test("the code is written in the player's language; a code that cannot be sent is a 503 he can retry", async () => {
    const { prize } = await drawnWith();
    const sent = await sendCode(a, { prize_id: prize }, 'bn');
    expect(sent.body).toEqual({ detail: 'আপনার ফোন বা ইমেইলে ৬ অঙ্কের দাবির কোড পাঠানো হয়েছে।', wait: 30 });
    expect(t.sent.at(-1)).toMatchObject({ to: a.phone, purpose: 'claim', text: expect.stringMatching(/^ভাগ্য পুরস্কার দাবির কোড: \d{6}।/) });
    await afterResendWait();
    const sendCodeBefore = t.notifier.sendCode;
    t.notifier.sendCode = async () => {
      throw new NotifyError('the SMS gateway is down');
    };
    try {
      const down = await sendCode(a, { prize_id: prize }, 'bn');
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ detail: 'এই মুহূর্তে কোডটি পাঠানো যায়নি। কয়েক মিনিট পর আবার চেষ্টা করুন।', code: 'send_failed' });
    } finally {
      t.notifier.sendCode = sendCodeBefore;
    }
  });

  test('a bank account needs bank and branch; a wallet stores none', async () => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const missing = await submit(a, payout(prize, code, { payment_method: 'bank', account_number: '1234567890123' }));
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ bank_name: ['This field is required'], branch_name: ['This field is required'] });
    const ok = await submit(
      a,
      payout(prize, code, {
        payment_method: 'bank',
        account_number: '1234 5678 90123',
        bank_name: 'Sonali Bank',
        branch_name: 'Motijheel',
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.claim).toMatchObject({
      payment_method: 'bank',
      account_number: '1234567890123',
      bank_name: 'Sonali Bank',
      branch_name: 'Motijheel',
    });
  });

  test.each([
    ['no method', { payment_method: '' }, 'payment_method', 'This field is required'],
    ['an unknown method', { payment_method: 'paypal' }, 'payment_method', 'Choose bKash, Nagad, Rocket or a bank account.'],
    ['no account number', { account_number: '' }, 'account_number', 'This field is required'],
    ['a wallet number that is no phone', { account_number: '12345' }, 'account_number', expect.stringContaining('11-digit')],
    ['no holder name', { account_holder_name: '  ' }, 'account_holder_name', 'This field is required'],
    ['no code', { otp: '' }, 'otp', 'Please enter OTP'],
    ['a code too long', { otp: '1234567' }, 'otp', 'OTP must be at most 6 digits'],
    ['control characters', { account_holder_name: 'Rahim\u0000' }, 'account_holder_name', expect.any(String)],
    ['an unknown field', { amount: 5 }, 'amount', expect.any(String)],
  ])('400 for %s, and the code still works', async (_name, extra, field, message) => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const res = await submit(a, payout(prize, code, extra));
    expect(res.status).toBe(400);
    expect(res.body[field]).toEqual([message]);
    expect((await claimRow())?.status).toBe('pending');
    expect((await submit(a, payout(prize, code))).status).toBe(200);
  });

  test('Bengali callers get Bengali messages; Bengali digits are read', async () => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const res = await submit(a, payout(prize, code, { account_holder_name: '' }), 'bn');
    expect(res.body.account_holder_name).toEqual(['এই ঘরটি পূরণ করা আবশ্যক']);
    const bn = code.replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)] as string);
    expect((await submit(a, payout(prize, bn, { account_number: '০১৭১২৩৪৫৬৭৮' }), 'bn')).status).toBe(200);
  });

  test('another player can neither get a code for the prize nor claim it', async () => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const sent = t.sent.length;
    const asked = await sendCode(b, { prize_id: prize });
    expect(asked.status).toBe(404);
    expect(asked.body.detail).toBe("Prize not found or you don't have access to it.");
    expect(t.sent.length).toBe(sent);
    const claimed = await submit(b, payout(prize, code));
    expect(claimed.status).toBe(404);
    expect(claimed.body.code).toBe('not_found');
    expect((await claimRow())?.status).toBe('pending');
    expect((await sendCode(null, { prize_id: prize })).status).toBe(401);
    expect((await submit(null, payout(prize, code))).status).toBe(401);
    expect((await sendCode(a, { prize_id: 'x' })).status).toBe(400);
    expect((await sendCode(a, {})).status).toBe(400);
  });

  test('a new code only after 30 s; the old one stops working', async () => {
    const { prize } = await drawnWith();
    const first = await codeFor(prize);
    const early = await sendCode(a, { prize_id: prize });
    expect(early.status).toBe(429);
    expect(early.body).toMatchObject({ code: 'throttled', wait: Number(early.headers['retry-after']) });
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    await afterResendWait();
    const second = await codeFor(prize);
    if (first !== second) expect((await submit(a, payout(prize, first))).status).toBe(400);
    expect((await submit(a, payout(prize, second))).status).toBe(200);
  });

  test('the claim period: 30 days after the draw', async () => {
    const { prize } = await drawnWith({ drawnDaysAgo: 29 });
    const code = await codeFor(prize);
    await t.db.query(`UPDATE lotteries SET drawn_at = now() - interval '31 days'`);
    const late = await submit(a, payout(prize, code));
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('claim_period_over');
    expect(late.body.detail).toMatch(/^The claim period for this prize ended on \d+ \w{3} \d{4}, /);
    const bn = await submit(a, payout(prize, code), 'bn');
    expect(bn.body.code).toBe('claim_period_over');
    expect(bn.body.detail).toMatch(/^এই পুরস্কার দাবির সময় শেষ হয়েছে [০-৯]+ /);
    await afterResendWait();
    const asked = await sendCode(a, { prize_id: prize });
    expect([asked.status, asked.body.code]).toEqual([409, 'claim_period_over']);
    const w = (await winning(a)).body[0];
    expect(w.can_claim).toBe(false);
  });

  test('guessing codes: five wrong tries end the code, then the player waits', async () => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(a, payout(prize, wrong));
      answers.push(`${res.status} ${res.body.code}`);
    }
    // The fifth wrong try ends the code: it says so.
    expect(answers).toEqual([...Array(4).fill('400 otp_wrong'), '400 otp_exhausted']);
    const blocked = await submit(a, payout(prize, code));
    expect([blocked.status, blocked.body.code]).toEqual([429, 'throttled']);
    await t.db.query('DELETE FROM rate_limits');
    const dead = await submit(a, payout(prize, code));
    expect(dead.status).toBe(400);
    expect(dead.body).toEqual({ otp: ['Too many wrong tries for this code. Please ask for a new one.'], code: 'otp_exhausted' });
    expect((await claimRow())?.status).toBe('pending');
  });

  test('two submits of the same code at once: one set of details is stored', async () => {
    const { prize } = await drawnWith();
    const code = await codeFor(prize);
    const results = await Promise.all([
      submit(a, payout(prize, code, { account_number: '01711111111' })),
      submit(a, payout(prize, code, { account_number: '01722222222' })),
      submit(a, payout(prize, code, { account_number: '01733333333' })),
    ]);
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect([400, 409]).toContain(r.status);
    expect((await claimRow())?.account_number).toBe(ok[0]?.body.claim.account_number);
  });
});

describe('staff and the transfer by hand', () => {
  /** Claims to Nagad: paid by hand (a bKash wallet's are paid by bKash: payouts.test.ts). */
  async function submitted(method = 'nagad'): Promise<{ prize: number; claim: number }> {
    const { prize } = await drawnWith();
    const res = await submit(a, payout(prize, await codeFor(prize), { payment_method: method }));
    expect(res.status).toBe(200);
    return { prize, claim: res.body.claim.id as number };
  }
  const audit = () =>
    t.db.query<{ action: string; actor_id: number; before: { status: string }; after: { status: string } }>(
      "SELECT action, actor_id, before, after FROM audit_log WHERE entity = 'prize_claim' ORDER BY id",
    );

  test('anonymous 401, a player 403; nothing changes', async () => {
    const { claim } = await submitted();
    for (const how of ['toggle-transfer', 'transfer-failed'] as const) {
      expect((await transfer(null, claim, how)).status).toBe(401);
      expect((await transfer(a, claim, how)).status).toBe(403);
    }
    expect((await approve(null, claim)).status).toBe(401);
    expect((await approve(a, claim)).status).toBe(403);
    expect((await claimRow())?.status).toBe('payment_info_submitted');
    expect(await audit()).toEqual([]);
  });

  test('complete: final, audited, shown to the player; pressing again changes nothing', async () => {
    const { claim } = await submitted();
    const unapproved = await transfer(staff, claim, 'toggle-transfer');
    expect(unapproved.status).toBe(409);
    expect(unapproved.body.code).toBe('approval_required');
    const approved = await approve(approver, claim);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approval_required: true, approved_by: { id: approver.id, name: 'Second Officer' } });
    const res = await transfer(staff, claim, 'toggle-transfer');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: claim,
      status: 'transfer_completed',
      account_number: '01712345678',
      transfer_reference: REFERENCE,
      user: { id: a.id, name: 'Rahim Uddin' },
    });
    expect(res.body.prize).toMatchObject({ ticket: T1, prize_money: 100000 });
    expect((await transfer(staff, claim, 'toggle-transfer')).status).toBe(200);
    const failed = await transfer(staff, claim, 'transfer-failed');
    expect(failed.status).toBe(409);
    expect(failed.body.code).toBe('transfer_not_ready');
    expect(await audit()).toEqual([
      expect.objectContaining({ action: 'claim.transfer_approved', actor_id: approver.id }),
      expect.objectContaining({
        action: 'claim.transfer_completed',
        actor_id: staff.id,
        before: expect.objectContaining({ status: 'payment_info_submitted' }),
        after: expect.objectContaining({ status: 'transfer_completed' }),
      }),
    ]);
    expect((await transactions(a)).body[0].claim_status).toBe('transfer_completed');
    // The winner sees the reference on his claim.
    expect((await winning(a)).body[0].claim).toMatchObject({ status: 'transfer_completed', transfer_reference: REFERENCE });
  });

  test('a transfer by hand needs its reference; a bKash wallet is paid by bKash, never marked paid by hand', async () => {
    const { claim } = await submitted();
    await approve(approver, claim).expect(200);
    for (const body of [{}, { reference: '' }, { reference: 'x'.repeat(41) }, { reference: 'NGD1', extra: 1 }]) {
      const res = await to(t, api.completeTransfer, { params: { id: claim }, as: staff }).send(body);
      expect(res.status).toBe(400);
    }
    const none = await to(t, api.completeTransfer, { params: { id: claim }, as: staff });
    expect(none.status).toBe(400);
    expect((await claimRow())?.status).toBe('payment_info_submitted');
    await t.db.query(`UPDATE prize_claims SET payment_method = 'bkash'`);
    const bkash = await transfer(staff, claim, 'toggle-transfer', 'bn');
    expect([bkash.status, bkash.body.code]).toEqual([409, 'transfer_by_bkash']);
    expect(bkash.body.detail).toContain('এখনই পরিশোধ');
    expect((await claimRow())?.status).toBe('payment_info_submitted');
    expect((await audit()).map((r) => r.action)).toEqual(['claim.transfer_approved']);
  });

  test('failed: the player submits details again with a new code', async () => {
    const { prize, claim } = await submitted();
    expect((await transfer(staff, claim, 'transfer-failed')).body.status).toBe('transfer_failed');
    const w = (await one(a, prize)).body;
    expect(w).toMatchObject({ can_claim: true, claim: { status: 'transfer_failed' } });
    await afterResendWait();
    const res = await submit(a, payout(prize, await codeFor(prize), { payment_method: 'nagad', account_number: '01912345678' }));
    expect(res.status).toBe(200);
    expect(res.body.claim).toMatchObject({ status: 'payment_info_submitted', payment_method: 'nagad', account_number: '01912345678' });
    expect((await audit()).map((r) => r.action)).toEqual(['claim.transfer_failed']);
  });

  test('a claim without details cannot be completed; an unknown claim is 404', async () => {
    const { prize } = await drawnWith();
    await codeFor(prize);
    const row = await claimRow();
    const res = await transfer(staff, row?.id as number, 'toggle-transfer');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      detail: 'The transfer can only change while payment details are submitted; this claim is waiting for payment details.',
      code: 'transfer_not_ready',
    });
    // The claim's state is named in the caller's language too.
    const bn = await transfer(staff, row?.id as number, 'transfer-failed', 'bn');
    expect(bn.body).toEqual({
      detail: 'পেমেন্টের তথ্য জমা থাকা অবস্থাতেই কেবল ট্রান্সফার বদলানো যায়; এই দাবিটি এখন: পেমেন্টের তথ্যের অপেক্ষায়।',
      code: 'transfer_not_ready',
    });
    for (const res of [await transfer(staff, 999999, 'toggle-transfer'), await approve(staff, 999999)])
      expect(res.body).toEqual({ detail: 'Prize claim not found', code: 'not_found' });
    expect(await audit()).toEqual([]);
  });
});

describe('GET /api/v1/admin/prize-claims/ and its summary', () => {
  const list = (p: Player | null, query: Record<string, string | undefined> = {}) => to(t, api.staffClaims, { query, as: p });

  test('staff only', async () => {
    for (const e of [api.staffClaims, api.claimsSummary]) {
      expect((await to(t, e)).status).toBe(401);
      expect((await to(t, e, { as: a })).status).toBe(403);
    }
  });

  test('every claim, newest change first, searched and filtered; the summary counts them all', async () => {
    const first = await drawnWith();
    const second = await drawnWith();
    await submit(a, payout(first.prize, await codeFor(first.prize)));
    await afterResendWait();
    await submit(
      a,
      payout(second.prize, await codeFor(second.prize), {
        payment_method: 'bank',
        account_number: '1234567890123',
        bank_name: 'Sonali Bank',
        branch_name: 'Motijheel',
      }),
    );
    const all = await list(staff);
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBe('2');
    expect(all.body.map((c: { prize: { id: number } }) => c.prize.id)).toEqual([second.prize, first.prize]);
    expect(all.body[0]).toMatchObject({
      status: 'payment_info_submitted',
      payment_method: 'bank',
      bank_name: 'Sonali Bank',
      user: { id: a.id, name: 'Rahim Uddin' },
      prize: { ticket: T1, prize_money: 100000 },
    });
    const ids = async (q: Record<string, string>) => (await list(staff, q)).body.map((c: { prize: { id: number } }) => c.prize.id);
    expect(await ids({ payment_method: 'bkash' })).toEqual([first.prize]);
    expect(await ids({ status: 'transfer_completed' })).toEqual([]);
    expect(await ids({ search: 'rahim' })).toHaveLength(2);
    expect(await ids({ search: a.phone.slice(1) })).toHaveLength(2);
    expect(await ids({ search: '5-12-23-34-45-7' })).toHaveLength(2);
    expect(await ids({ search: 'nobody' })).toEqual([]);
    expect((await list(staff, { limit: '1', offset: '1' })).body).toHaveLength(1);
    for (const q of [{ status: 'done' }, { payment_method: 'paypal' }, { limit: '0' }]) expect((await list(staff, q)).status).toBe(400);
    // The bank transfer is made by hand (the bKash one is paid by bKash: payouts.test.ts).
    expect((await approve(approver, all.body[0].id)).status).toBe(200);
    expect((await transfer(staff, all.body[0].id, 'toggle-transfer')).status).toBe(200);
    const summary = await to(t, api.claimsSummary, { as: staff });
    expect(summary.body).toEqual({ total_claims: 2, total_prize_amount: 200000, pending_transfers: 1 });
  });
});
