/**
 * One staff member must not be able to take a player's prize (issue 13; docs/rules/lotteries-and-sales.md#11-prize-claims,
 * docs/rules/accounts-and-codes.md#12-staff-and-superusers, docs/decisions/023-four-eyes-on-money-out.md):
 * - only a superuser changes a player's phone, e-mail or password;
 * - a change of them (by anyone) is recorded, told to the old phone and e-mail, and holds claims and payouts 72 hours;
 * - the staff member who changed the account never approves or completes its transfer; above PAYOUT_SECOND_APPROVAL_TK a
 *   second, different staff member approves before another completes; both audited.
 * The attack of the issue runs end to end: as ordinary staff it stops at the first step, as a superuser at the hold,
 * then at the four eyes. On PGlite and PostgreSQL.
 */
import type { TestApp } from '../helpers/app.ts';
import { to, type Caller } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, buy, drawByHand, insertLottery, purchase, type Player, approveByHand } from './purchase-fixtures.ts';

import { startTestAppWithBkash } from './purchase-fixtures.ts';

let t: TestApp;
/** The winner; ordinary staff; a superuser; two more staff members. */
let winner: Player, staff: Player, superuser: Player, second: Player, third: Player;

beforeAll(async () => {
  t = await startTestAppWithBkash();
  winner = await account(t, { name: 'Rahim Uddin', email: 'rahim@example.com' });
  staff = await account(t, { name: 'Desk Officer', is_staff: true });
  superuser = await account(t, { name: 'Head Office', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
  second = await account(t, { name: 'Second Officer', is_staff: true });
  third = await account(t, { name: 'Third Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
let winnerHash: string;
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
  winnerHash ??= (await t.db.one<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [winner.id]))!.h;
  // Every test starts from the winner's own account, never changed.
  await t.db.query(
    `UPDATE users SET phone = $2, email = 'rahim@example.com', password_hash = $3, contact_changed_at = NULL, contact_changed_by = NULL, language = 'bn'
      WHERE id = $1`,
    [winner.id, winner.phone, winnerHash],
  );
  t.messages.length = 0;
  t.sent.length = 0;
  // A new password ends the account's sessions: the winner logs in afresh.
  const login = await to(t, api.login).send({ phone: winner.phone, password: 'secret-pass-1' });
  expect(login.status).toBe(200);
  winner = { ...winner, token: login.body.access, auth: ['Authorization', `Bearer ${login.body.access as string}`] };
});

const T1 = '05-12-23-34-45-07';
/** The attacker's own bKash number and the phone he moves the account to. */
const THIEF_PHONE = '01899999999';

const patchUser = (p: Player | null, body: object, lng = 'en') =>
  to(t, api.updateUser, { params: { id: winner.id }, as: p, lang: lng }).send(body);
const sendCode = (p: Caller, prize: number, lng = 'en') => to(t, api.sendClaimCode, { as: p, lang: lng }).send({ prize_id: prize });
const submit = (p: Caller, prize: number, otp: string, lng = 'en') =>
  to(t, api.submitClaim, { as: p, lang: lng }).send({
    prize,
    payment_method: 'bkash',
    account_number: THIEF_PHONE,
    account_holder_name: 'Rahim Uddin',
    otp,
  });
const approve = (p: Player | null, claim: number | string, lng = 'en') =>
  to(t, api.approveTransfer, { params: { id: claim }, as: p, lang: lng });
/** The last step of paying a prize to a bKash wallet: Pay now (paid by the simulator's bKash; payouts.test.ts). */
const complete = (p: Player | null, claim: number | string, lng = 'en') => to(t, api.payNow, { params: { id: claim }, as: p, lang: lng });

let trx = 0;

/** A drawn lottery whose only prize (TK. 100,000 unless told) is the winner's ticket T1. */
async function drawn(prizeMoney?: number): Promise<number> {
  const lottery = await insertLottery(t);
  // Paid: staff approve a purchase once it has its bKash TrxID.
  const res = await buy(t, winner, purchase(lottery, T1, { trx_id: `TRX${String(++trx).padStart(7, '0')}` }));
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
  const d = await drawByHand(t, lottery, [T1]);
  expect(d.status).toBe(201);
  const prize = d.body.prizes[0].id as number;
  if (prizeMoney !== undefined) await t.db.query('UPDATE prizes SET prize_money = $2 WHERE id = $1', [prize, prizeMoney]);
  return prize;
}

/** The winner's claim with payout details submitted (no change of his account). */
async function submitted(prizeMoney?: number): Promise<{ prize: number; claim: number }> {
  const prize = await drawn(prizeMoney);
  expect((await sendCode(winner, prize)).status).toBe(200);
  const res = await submit(winner, prize, await t.lastCode(winner.phone, 'claim'));
  expect(res.status).toBe(200);
  return { prize, claim: res.body.claim.id as number };
}

/** Moves the last change of the winner's account this many hours into the past (the hold is 72 hours). */
const changedHoursAgo = (hours: number) =>
  t.db.query(`UPDATE users SET contact_changed_at = now() - make_interval(secs => $2::float8) WHERE id = $1`, [winner.id, hours * 3600]);

const winnerRow = () =>
  t.db.one<{
    phone: string;
    email: string | null;
    password_hash: string;
    contact_changed_at: string | null;
    contact_changed_by: number | null;
  }>('SELECT phone, email, password_hash, contact_changed_at, contact_changed_by FROM users WHERE id = $1', [winner.id]);
/** The audit records of users and claims (the purchase's approval and the draw are left out). */
const audit = () =>
  t.db.query<{ action: string; actor_id: number; entity_id: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
    "SELECT action, actor_id, entity_id, before, after FROM audit_log WHERE entity IN ('user', 'prize_claim') ORDER BY id",
  );

describe('the attack of the issue', () => {
  test('as ordinary staff it fails at the first step: 403, nothing changed, nobody told', async () => {
    const prize = await drawn();
    const res = await patchUser(staff, { phone: THIEF_PHONE, password: 'stolen-pass-1' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'permission_denied',
      detail: "Only a superuser may change a user's phone number, email address or password.",
    });
    const row = await winnerRow();
    expect(row).toMatchObject({ phone: winner.phone, password_hash: winnerHash, contact_changed_at: null });
    expect(await audit()).toEqual([]);
    expect(t.messages).toEqual([]);
    // The thief cannot log in as the winner; the winner still can.
    expect((await to(t, api.login).send({ phone: THIEF_PHONE, password: 'stolen-pass-1' })).status).toBe(401);
    expect((await sendCode(winner, prize)).status).toBe(200);
  });

  test('as a superuser: held 72 hours, then the superuser cannot pay himself, and a large prize needs a second approval', async () => {
    const prize = await drawn();
    // 1. The superuser moves the winner's account to his own phone, with a password he knows.
    const changed = await patchUser(superuser, { phone: THIEF_PHONE, password: 'stolen-pass-1' });
    expect(changed.status).toBe(200);
    const row = await winnerRow();
    expect(row).toMatchObject({ phone: THIEF_PHONE, contact_changed_by: superuser.id });
    expect(row?.contact_changed_at).not.toBeNull();
    // Recorded, and told to the old phone and the e-mail (in his messages' language, Bengali here); the new phone hears
    // nothing.
    const [record] = await audit();
    expect(record).toMatchObject({ action: 'user.update', actor_id: superuser.id, entity_id: String(winner.id) });
    expect(record!.after).toMatchObject({ phone: THIEF_PHONE, password_changed: true, held_until: expect.any(String) });
    expect(t.messages.map((m) => [m.channel, m.to, m.purpose])).toEqual([
      ['sms', winner.phone, 'account_changed'],
      ['email', 'rahim@example.com', 'account_changed'],
    ]);
    const notice = t.messages[0]!.text;
    expect(notice).toContain('ভাগ্য-এর কর্মী আপনার অ্যাকাউন্টের ফোন নম্বর এবং পাসওয়ার্ড বদলেছেন');
    expect(notice).not.toContain('Bhagya staff changed');
    expect(notice).not.toMatch(/stolen-pass/);
    expect(t.messages.some((m) => m.to === THIEF_PHONE)).toBe(false);

    // 2. He logs in as the winner; for 72 hours no claim code is sent and no payout details are taken.
    const login = await to(t, api.login).send({ phone: THIEF_PHONE, password: 'stolen-pass-1' });
    expect(login.status).toBe(200);
    const thief = { auth: ['Authorization', `Bearer ${login.body.access as string}`] as [string, string] };
    const held = await sendCode(thief, prize);
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('claim_held');
    expect(held.body.detail).toMatch(
      /^Prize claims and payouts of this account are held until \d+ \w+ \d{4}, \d+:\d\d [AP]M \(Dhaka time\)/,
    );
    const heldBn = await sendCode(thief, prize, 'bn');
    expect(heldBn.body.detail).toMatch(/^এই অ্যাকাউন্টের পুরস্কার দাবি ও পরিশোধ .+ \(ঢাকার সময়\) পর্যন্ত স্থগিত/);
    expect(heldBn.body.detail).not.toMatch(/[0-9]/);
    const early = await submit(thief, prize, '123456');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('claim_held');
    expect(t.sent).toEqual([]);
    await changedHoursAgo(71.95);
    expect((await sendCode(thief, prize)).status).toBe(409);

    // 3. After the hold the code goes to the new phone and the details are taken.
    await changedHoursAgo(72);
    expect((await sendCode(thief, prize)).status).toBe(200);
    const claimed = await submit(thief, prize, await t.lastCode(THIEF_PHONE, 'claim'));
    expect(claimed.status).toBe(200);
    const claim = claimed.body.claim.id as number;

    // 4. The staff list shows who changed the account and that a second approval is needed.
    const listed = (await to(t, api.staffClaims, { as: second })).body[0];
    expect(listed).toMatchObject({
      id: claim,
      approval_required: true,
      approved_by: null,
      approved_at: null,
      held_until: null,
      contact_changed_by: superuser.id,
    });

    // 5. The superuser cannot approve or complete the transfer of an account he changed.
    for (const res of [await approve(superuser, claim), await complete(superuser, claim)]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('four_eyes');
      expect(res.body.detail).toContain("You changed this player's phone number, email address or password");
    }
    // 6. Above the threshold nobody completes without a second staff member's approval.
    const unapproved = await complete(second, claim);
    expect(unapproved.status).toBe(409);
    expect(unapproved.body).toEqual({
      code: 'approval_required',
      detail: 'This prize is above TK. 10,000: a second staff member must approve the transfer before it can be completed.',
    });
    const approved = await approve(second, claim);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approved_by: { id: second.id, name: 'Second Officer' }, approved_at: expect.any(String) });
    // The approver does not complete; the superuser still cannot; a third staff member can.
    const self = await complete(second, claim);
    expect(self.status).toBe(403);
    expect(self.body.detail).toBe('You approved this transfer: another staff member must complete it.');
    expect((await complete(superuser, claim)).status).toBe(403);
    const done = await complete(third, claim);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('transfer_completed');

    // Both steps audited, each by its own staff member; nothing recorded for the refusals.
    expect((await audit()).map((r) => [r.action, r.actor_id])).toEqual([
      ['user.update', superuser.id],
      ['claim.transfer_approved', second.id],
      ['claim.payout_sent', third.id],
      ['claim.payout_completed', third.id],
    ]);
  });

  test('a superuser who changes only the password holds the claims too, and the notice names the password', async () => {
    const { claim } = await submitted();
    expect((await patchUser(superuser, { password: 'another-pass-1' })).status).toBe(200);
    expect(t.messages).toHaveLength(2);
    expect(t.messages[0]!.text).toContain('ভাগ্য-এর কর্মী আপনার অ্যাকাউন্টের পাসওয়ার্ড বদলেছেন'); // his messages' language
    // Details submitted before the change: the payout waits for the hold all the same.
    expect((await approve(second, claim)).body.code).toBe('claim_held');
    const res = await complete(third, claim, 'bn');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('claim_held');
    expect(res.body.detail).toMatch(/^এই পরিশোধ .+ \(ঢাকার সময়\) পর্যন্ত স্থগিত: খেলোয়াড়ের .+ ৭২ ঘণ্টার কম আগে/);
    await changedHoursAgo(73);
    expect((await approve(second, claim)).status).toBe(200);
    expect((await complete(third, claim)).status).toBe(200);
  });
});

describe('PATCH /api/v1/admin-users/{id}/: phone, e-mail and password are a superuser’s', () => {
  test('other staff: 403 for each of them (in both languages); the same values, the name and the active flag stay theirs', async () => {
    for (const body of [{ phone: THIEF_PHONE }, { email: 'thief@example.com' }, { email: '' }, { password: 'stolen-pass-1' }]) {
      const res = await patchUser(staff, body);
      expect({ body, status: res.status }).toEqual({ body, status: 403 });
    }
    const bn = await patchUser(staff, { phone: THIEF_PHONE }, 'bn');
    expect(bn.body.detail).toBe('কোনো ব্যবহারকারীর ফোন নম্বর, ইমেইল ঠিকানা বা পাসওয়ার্ড কেবল সুপারইউজার বদলাতে পারেন।');
    // The edit form posts the phone and e-mail as they are: that is no change.
    const same = await patchUser(staff, { name: 'Rahim Uddin Khan', phone: winner.phone, email: 'rahim@example.com', password: '' });
    expect(same.status).toBe(200);
    expect(same.body.name).toBe('Rahim Uddin Khan');
    expect((await patchUser(staff, { is_active: true })).status).toBe(200);
    expect(await winnerRow()).toMatchObject({ phone: winner.phone, email: 'rahim@example.com', contact_changed_at: null });
    expect(t.messages).toEqual([]);
    // Nor his own, through the back office (his profile page asks for his password).
    expect((await to(t, api.updateUser, { params: { id: staff.id }, as: staff }).send({ password: 'own-new-pass-1' })).status).toBe(403);
    await t.db.query("UPDATE users SET name = 'Rahim Uddin' WHERE id = $1", [winner.id]);
  });

  test('anonymous 401, a player 403 (also on himself)', async () => {
    expect((await patchUser(null, { phone: THIEF_PHONE })).status).toBe(401);
    expect((await patchUser(winner, { phone: THIEF_PHONE })).status).toBe(403);
    expect((await winnerRow())?.phone).toBe(winner.phone);
  });

  test('a superuser’s e-mail change: the old e-mail and the phone are told; a name change tells nobody and holds nothing', async () => {
    expect((await patchUser(superuser, { name: 'Rahim U.' })).status).toBe(200);
    expect(t.messages).toEqual([]);
    expect((await winnerRow())?.contact_changed_at).toBeNull();
    expect((await patchUser(superuser, { email: 'rahim.new@example.com', name: 'Rahim Uddin' })).status).toBe(200);
    expect(t.messages.map((m) => [m.channel, m.to])).toEqual([
      ['sms', winner.phone],
      ['email', 'rahim@example.com'],
    ]);
    expect(t.messages[1]!.text).toContain('ভাগ্য-এর কর্মী আপনার অ্যাকাউন্টের ইমেইল ঠিকানা বদলেছেন');
    expect(await winnerRow()).toMatchObject({ email: 'rahim.new@example.com', contact_changed_by: superuser.id });
  });
});

describe("the player's own change of phone or e-mail (update-profile)", () => {
  const update = (body: object) => to(t, api.updateProfile, { as: winner }).send({ password: 'secret-pass-1', ...body });

  test('recorded as his, told to his old phone and e-mail, and his claims held 72 hours', async () => {
    const prize = await drawn();
    // He reads his messages in English (docs/rules/messages.md): the notice is in English alone.
    await t.db.query(`UPDATE users SET language = 'en' WHERE id = $1`, [winner.id]);
    const res = await update({ phone: '01712340000' });
    expect(res.status).toBe(200);
    expect(await winnerRow()).toMatchObject({ phone: '01712340000', contact_changed_by: winner.id });
    expect(t.messages.map((m) => [m.channel, m.to, m.purpose])).toEqual([
      ['sms', winner.phone, 'account_changed'],
      ['email', 'rahim@example.com', 'account_changed'],
    ]);
    expect(t.messages[0]!.text).toContain('Bhagya: the phone number of your account was changed');
    expect(t.messages[0]!.text).toContain('Prize claims and payouts of the account are held until');
    expect(t.messages[0]!.text).not.toMatch(/[\u0980-\u09FF]/);
    const held = await sendCode(winner, prize);
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('claim_held');
    await changedHoursAgo(72);
    expect((await sendCode(winner, prize)).status).toBe(200);
  });

  test('his winning tickets say until when his claims are held: can_claim false meanwhile, null after 72 hours', async () => {
    const prize = await drawn();
    const list = () => to(t, api.myWinningTickets, { as: winner });
    const one = () => to(t, api.myWinningTicket, { params: { id: prize }, as: winner });
    expect((await list()).body[0]).toMatchObject({ prize: { id: prize }, can_claim: true, held_until: null });

    expect((await update({ phone: '01712340000' })).status).toBe(200);
    const changedAt = new Date((await winnerRow())!.contact_changed_at!).getTime();
    const until = new Date(changedAt + 72 * 3600 * 1000).toISOString();
    for (const res of [await list(), await one()]) {
      expect(res.status).toBe(200);
      const w = Array.isArray(res.body) ? res.body[0] : res.body;
      expect(w).toMatchObject({ prize: { id: prize }, can_claim: false, held_until: until, claim: null });
    }
    // Nobody else's tickets are held by it.
    expect((await to(t, api.myWinningTickets, { as: staff })).body).toEqual([]);

    await changedHoursAgo(71.95);
    expect((await one()).body).toMatchObject({ can_claim: false, held_until: expect.any(String) });
    await changedHoursAgo(72);
    for (const res of [await list(), await one()]) {
      const w = Array.isArray(res.body) ? res.body[0] : res.body;
      expect(w).toMatchObject({ can_claim: true, held_until: null });
    }
  });

  test('his own change does not stop staff from paying him after the hold (no approval needed at or below the threshold)', async () => {
    const { claim } = await submitted(10_000);
    expect((await update({ email: 'rahim2@example.com' })).status).toBe(200);
    expect((await complete(staff, claim)).body.code).toBe('claim_held');
    await changedHoursAgo(80);
    const nothing = await approve(second, claim);
    expect(nothing.status).toBe(409);
    expect(nothing.body).toEqual({
      code: 'approval_not_required',
      detail: 'This prize is not above TK. 10,000: its transfer needs no second approval.',
    });
    expect((await complete(staff, claim)).status).toBe(200);
  });
});

describe('POST /api/v1/admin/prize-claims/{id}/approve-transfer/', () => {
  test('anonymous 401, a player 403 (the winner too); nothing approved', async () => {
    const { claim } = await submitted();
    expect((await approve(null, claim)).status).toBe(401);
    const res = await approve(winner, claim);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    expect(await t.db.one('SELECT transfer_approved_by FROM prize_claims WHERE id = $1', [claim])).toEqual({ transfer_approved_by: null });
    expect(await audit()).toEqual([]);
  });

  test('unknown or malformed claim 404; a claim without details 409; approving again changes nothing', async () => {
    expect((await approve(staff, 999999)).status).toBe(404);
    expect((await approve(staff, 'abc')).status).toBe(404);
    const prize = await drawn();
    expect((await sendCode(winner, prize)).status).toBe(200);
    const pending = (await t.db.one<{ id: number }>('SELECT id FROM prize_claims'))!.id;
    const early = await approve(staff, pending);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('transfer_not_ready');
    const claim = (await submit(winner, prize, await t.lastCode(winner.phone, 'claim'))).body.claim.id as number;
    expect((await approve(staff, claim)).status).toBe(200);
    const again = await approve(second, claim);
    expect(again.status).toBe(200);
    expect(again.body.approved_by).toEqual({ id: staff.id, name: 'Desk Officer' });
    expect((await audit()).map((r) => r.action)).toEqual(['claim.transfer_approved']);
  });

  test('staff never approve or complete their own prize', async () => {
    const { claim } = await submitted();
    await t.db.query('UPDATE users SET is_staff = true WHERE id = $1', [winner.id]);
    try {
      const login = await to(t, api.login).send({ phone: winner.phone, password: 'secret-pass-1' });
      const self = { ...winner, auth: ['Authorization', `Bearer ${login.body.access as string}`] as [string, string] };
      for (const res of [await approve(self, claim), await complete(self, claim)]) {
        expect(res.status).toBe(403);
        expect(res.body.detail).toBe('Staff cannot approve or complete the transfer of their own prize.');
      }
    } finally {
      await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [winner.id]);
    }
  });

  test('new payout details after a failed transfer need a new approval', async () => {
    const { prize, claim } = await submitted();
    expect((await approve(second, claim)).status).toBe(200);
    expect((await to(t, api.failTransfer, { params: { id: claim }, as: staff })).status).toBe(200);
    await t.db.query(`UPDATE one_time_codes SET created_at = created_at - interval '1 minute'`);
    expect((await sendCode(winner, prize)).status).toBe(200);
    expect((await submit(winner, prize, await t.lastCode(winner.phone, 'claim'))).status).toBe(200);
    const listed = (await to(t, api.staffClaims, { as: staff })).body[0];
    expect(listed).toMatchObject({ id: claim, status: 'payment_info_submitted', approved_by: null, approval_required: true });
    expect((await complete(staff, claim)).body.code).toBe('approval_required');
  });
});
