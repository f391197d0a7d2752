/**
 * The specification's front ends are real clients (docs/rules/api.md#3-endpoints): a native app built to them must work
 * unchanged. Every call of the player side's and the back office's tables, sent with exactly the payload the
 * specification gives (its field names and shapes), and the fields its screens read checked in the answer. Where a call
 * is answered differently on purpose, the test asserts the documented behaviour and names the document.
 * One story, in order: a lottery created in the back office, bought, paid, approved, drawn, notified, claimed and paid
 * out; generated tickets; accounts. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { createUser, type TestApp } from '../helpers/app.ts';
import { closeSales } from './purchase-fixtures.ts';

import { startTestAppWithBkash } from './purchase-fixtures.ts';

let t: TestApp;
let su: string;
let suId: number;

beforeAll(async () => {
  t = await startTestAppWithBkash();
  // The staff caller is a superuser: some staff calls are a superuser's (docs/rules/security.md#1-the-api-enforces-every-permission).
  const u = await createUser(t, { name: 'Head Office', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [u.id]);
  suId = u.id;
  su = await token(u.phone, u.password);
});
afterAll(async () => {
  await t.close();
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A call as the specification's clients make it: JSON, a bearer token when logged in. */
function call(method: Method, path: string, bearer?: string, body?: unknown) {
  let r = request(t.url)[method](path).set('Accept-Language', 'en');
  if (bearer) r = r.set('Authorization', `Bearer ${bearer}`);
  return body === undefined ? r : r.send(body as object);
}

async function token(phone: string, password: string): Promise<string> {
  const res = await call('post', '/api/token/', undefined, { phone, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access as string;
}

/** The claims of a token's payload, read as the specification's session reads them (no check of the signature). */
const payloadOf = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** The resend wait of the account's latest code has passed (the waits are the specification's: 120 s, 60 s). */
async function waitOver(userId: number, identifier: string) {
  await t.settled();
  await t.db.query(`UPDATE one_time_codes SET created_at = created_at - interval '200 seconds' WHERE user_id = $1`, [userId]);
  await t.db.query(`UPDATE rate_limits SET window_start = window_start - interval '200 seconds' WHERE key LIKE '%-wait:' || $1`, [
    identifier,
  ]);
}

/** Today and a week later as a date input writes them (YYYY-MM-DD, Dhaka). */
const dhakaDate = (days: number) => new Date(Date.now() + 6 * 3600 * 1000 + days * 24 * 3600 * 1000).toISOString().slice(0, 10);

const TICKET = '05-12-23-34-45-07';
const PASSWORD = 'Karim-pass-2026';

// State carried from one call to the next, as the screens carry it.
let lotteryId: number;
let player: { id: number; phone: string; access: string };
let transactionId: number;
let prizeId: number;

describe('back office: lotteries', () => {
  test('POST /api/v1/lotteries/ with the create form (date inputs, the defaults the form offers)', async () => {
    const res = await call('post', '/api/v1/lotteries/', su, {
      name: 'Padma Weekly',
      description: 'A week of chances',
      winners: 1,
      ticket_price: 100,
      total_prize: 5000,
      start_date: dhakaDate(0),
      end_date: dhakaDate(7),
      published: true,
      featured: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Padma Weekly', ticket_price: 100, total_prize: 5000, published: true, featured: true });
    lotteryId = res.body.id as number;
  });

  test('GET /api/v1/lotteries/ and GET /api/v1/lotteries/{id}/: the lottery fields the list, cards and edit form read', async () => {
    const fields = {
      id: lotteryId,
      name: 'Padma Weekly',
      description: 'A week of chances',
      winners: 1,
      ticket_price: 100,
      total_prize: 5000,
      total_tickets: 10000,
      start_date: expect.any(String),
      end_date: expect.any(String),
      published: true,
      featured: true,
      is_result_published: false,
    };
    const list = await call('get', '/api/v1/lotteries/', su);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining(fields)]);
    const one = await call('get', `/api/v1/lotteries/${lotteryId}/`, su);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject(fields);
  });

  test('PATCH /api/v1/lotteries/{id}/ with every field of the edit form', async () => {
    const res = await call('patch', `/api/v1/lotteries/${lotteryId}/`, su, {
      name: 'Padma Weekly',
      description: 'A week of chances, every Saturday',
      start_date: dhakaDate(0),
      end_date: dhakaDate(7),
      ticket_price: 100,
      total_prize: 5000,
      published: true,
      featured: true,
      winners: 1,
      is_result_published: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: lotteryId, description: 'A week of chances, every Saturday', purchasable: true });
  });
});

describe('player side: accounts', () => {
  test('POST /api/v1/signup/ (e-mail null), POST /api/v1/resend-otp/, POST /api/v1/verify-otp/', async () => {
    const phone = '01711223344';
    const signup = await call('post', '/api/v1/signup/', undefined, {
      name: 'Karim Mia',
      email: null,
      phone,
      password: PASSWORD,
      date_of_birth: '1990-04-14',
    });
    expect(signup.status).toBe(201);
    const id = signup.body.user_id as number;
    // A login before verification: 401 account_not_active, which the login screen sends to /verify-otp.
    const early = await call('post', '/api/token/', undefined, { phone, password: PASSWORD });
    expect(early.status).toBe(401);
    expect(early.body.code).toBe('account_not_active');
    await waitOver(id, phone);
    const resend = await call('post', '/api/v1/resend-otp/', undefined, { identifier: phone });
    expect(resend.status).toBe(200);
    const otp = await t.lastCode(phone, 'account');
    expect(otp).toMatch(/^\d{6}$/);
    const verify = await call('post', '/api/v1/verify-otp/', undefined, { identifier: phone, otp });
    expect(verify.status).toBe(200);
    player = { id, phone, access: '' };
  });

  test('POST /api/token/ {phone, password}: access, and the payload fields the session reads', async () => {
    const res = await call('post', '/api/token/', undefined, { phone: player.phone, password: PASSWORD });
    expect(res.status).toBe(200);
    player.access = res.body.access as string;
    expect(payloadOf(player.access)).toMatchObject({
      is_staff: false,
      is_active: true,
      user_id: player.id,
      exp: expect.any(Number),
      name: 'Karim Mia',
      phone: player.phone,
    });
    // The identifier goes in `phone` whatever it is: an e-mail logs in too.
    const u = await createUser(t, { name: 'Mail Player', email: 'mail.player@example.com' });
    expect((await call('post', '/api/token/', undefined, { phone: 'mail.player@example.com', password: 'secret-pass-1' })).status).toBe(
      200,
    );
    expect(u.id).toBeGreaterThan(0);
  });

  test('GET /api/v1/users/{user_id}/: the profile fields', async () => {
    const res = await call('get', `/api/v1/users/${player.id}/`, player.access);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Karim Mia',
      email: null,
      phone: player.phone,
      date_joined: expect.any(String),
      user_id: player.id,
      is_staff: false,
    });
  });
});

describe('player side: lotteries and buying', () => {
  test('GET /api/v1/featured-lotteries/, /published-lotteries/ and /get-lottery/{lottery}/', async () => {
    const featured = await call('get', '/api/v1/featured-lotteries/');
    expect(featured.status).toBe(200);
    expect(featured.body[0]).toMatchObject({
      id: lotteryId,
      name: 'Padma Weekly',
      total_prize: 5000,
      description: 'A week of chances, every Saturday',
      ticket_price: 100,
      end_date: expect.any(String),
    });
    const published = await call('get', '/api/v1/published-lotteries/');
    expect(published.status).toBe(200);
    expect(published.body).toEqual([expect.objectContaining({ id: lotteryId, published: true, is_result_published: false })]);
    const one = await call('get', `/api/v1/get-lottery/${lotteryId}/`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: 'Padma Weekly',
      ticket_price: 100,
      end_date: expect.any(String),
      published: true,
      is_result_published: false,
    });
  });

  test('POST /api/v1/transactions-create/ with the purchase payload', async () => {
    const res = await call('post', '/api/v1/transactions-create/', player.access, {
      user_id: player.id,
      amount: 100,
      transaction_type: 'payment',
      payment_method: 'bkash',
      lottery_id: lotteryId,
      nid: '',
      ticket: TICKET,
      payment_number: '01812345678',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', amount: 100, ticket: TICKET, bkash_receiver_number: expect.any(String) });
    transactionId = res.body.id as number;
  });

  test('GET /api/v1/my-transactions/: the card fields before the draw', async () => {
    const res = await call('get', '/api/v1/my-transactions/', player.access);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        id: transactionId,
        transaction_type: 'payment',
        amount: 100,
        status: 'pending',
        ticket: TICKET,
        lottery: expect.objectContaining({
          name: 'Padma Weekly',
          end_date: expect.any(String),
          total_prize: 5000,
          is_result_published: false,
        }),
        is_winning_ticket: false,
        prize: null,
        has_claimed: false,
        claim_status: null,
      }),
    ]);
  });
});

describe('back office: transactions and the draw', () => {
  test('GET /api/v1/transactions/: the card fields, the paying phone under `phone`', async () => {
    const res = await call('get', '/api/v1/transactions/', su);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        id: transactionId,
        amount: 100,
        status: 'pending',
        payment_method: 'bkash',
        ticket: TICKET,
        phone: '01812345678',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        lottery: expect.objectContaining({ name: 'Padma Weekly', end_date: expect.any(String), total_prize: 5000 }),
        user: expect.objectContaining({ name: 'Karim Mia', email: null, is_active: true }),
      }),
    ]);
  });

  test('PUT /api/v1/transactions/{id}/ {id, status}: one person cannot approve; proposed with the TrxID, a second staff member approves', async () => {
    // Documented (docs/rules/payments.md#1-who-may-do-what, docs/decisions/048-approval-by-hand-needs-two.md): the
    // specification's one-call approval is refused with 409 `second_person_needed` and changes nothing, a deliberate
    // break of its contract; approval is proposed with a reason (after the TrxID, docs/rules/lotteries-and-sales.md#8-transaction-states)
    // and approved by a second staff member.
    const early = await call('put', `/api/v1/transactions/${transactionId}/`, su, { id: transactionId, status: 'success' });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'second_person_needed', detail: expect.any(String), proposal_id: null });
    const noTrx = await call('post', `/api/v1/transactions/${transactionId}/approval-proposals/`, su, { reason: 'Receipt shown' });
    expect(noTrx.body).toMatchObject({ code: 'trx_id_missing' });
    const trx = await call('patch', `/api/v1/transactions/${transactionId}/trx-id/`, player.access, { trx_id: 'BK7X2P9QLM' });
    expect(trx.status).toBe(200);
    const proposed = await call('post', `/api/v1/transactions/${transactionId}/approval-proposals/`, su, { reason: 'Receipt shown' });
    expect(proposed.status).toBe(201);
    const second = await createUser(t, { name: 'Desk Officer', is_staff: true });
    const res = await call(
      'post',
      `/api/v1/transaction-approval-proposals/${proposed.body.id}/approve/`,
      await token(second.phone, second.password),
      {
        reason: 'Receipt checked',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transaction_id: transactionId, status: 'approved', purchase: { status: 'success' } });
  });

  test('GET /api/v1/get-participators/{lotteryId}/: the draw page table', async () => {
    const res = await call('get', `/api/v1/get-participators/${lotteryId}/`, su);
    expect(res.status).toBe(200);
    // Documented fields (docs/rules/lotteries-and-sales.md#9-the-draw): the player's name flat, no lottery per row
    // (the draw's `prize`, which the specification takes from it, is ignored: the lottery's own total prize is split).
    expect(res.body).toEqual([
      expect.objectContaining({ name: 'Karim Mia', phone: player.phone, amount: 100, ticket: TICKET, status: 'success' }),
    ]);
  });

  test('POST /api/v1/draw-lottery/ {lottery_id, tickets, prize, reason} proposes, a second staff member approves, then GET /api/v1/get-prizes/{lotteryId}/', async () => {
    // The specification's body alone finishes nothing: winners by hand need a reason and a second staff member's
    // approval (docs/decisions/033-unverifiable-draw-by-two.md).
    const bare = await call('post', '/api/v1/draw-lottery/', su, { lottery_id: lotteryId, tickets: [TICKET], prize: 5000 });
    expect(bare.status).toBe(400);
    expect(Object.keys(bare.body)).toEqual(['reason']);
    // Winners by hand are chosen only after the end of sales (docs/rules/lotteries-and-sales.md#9-the-draw).
    await closeSales(t, lotteryId);
    const proposed = await call('post', '/api/v1/draw-lottery/', su, {
      lottery_id: lotteryId,
      tickets: [TICKET],
      prize: 5000,
      reason: 'Drawn before the verifiable draw existed',
    });
    expect(proposed.status).toBe(202);
    const second = await createUser(t, { name: 'Second Officer', is_staff: true });
    const draw = await call('post', `/api/v1/draw-proposals/${proposed.body.id}/approve/`, await token(second.phone, second.password));
    expect(draw.status).toBe(201);
    const prizes = await call('get', `/api/v1/get-prizes/${lotteryId}/`, su);
    expect(prizes.status).toBe(200);
    expect(prizes.body).toEqual([expect.objectContaining({ id: expect.any(Number), ticket: TICKET, prize_money: 5000 })]);
    prizeId = prizes.body[0].id as number;
  });

  test('POST /api/v1/notify-winners/ {lottery_id}: a message', async () => {
    const res = await call('post', '/api/v1/notify-winners/', su, { lottery_id: lotteryId });
    expect(res.status).toBe(200);
    expect(res.body.detail).toEqual(expect.stringContaining('Winners notified successfully!'));
    expect(t.messages.map((m) => m.to)).toContain(player.phone);
  });

  // DELETE /api/v1/delete-prize/{prizeId}/ is not sent here: deleting a prize is a superuser's action with a reason
  // (issue 13, docs/rules/lotteries-and-sales.md#9-the-draw), covered by tests/api/draw-admin.test.ts.
});

describe('player side: results and the prize claim', () => {
  test('GET /api/v1/lottery-results/: lottery name and start date, the prize tickets', async () => {
    const res = await call('get', '/api/v1/lottery-results/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        lottery: expect.objectContaining({ name: 'Padma Weekly', start_date: expect.any(String) }),
        prizes: [expect.objectContaining({ ticket: TICKET })],
      }),
    ]);
  });

  test('GET /api/v1/my-transactions/ and /my-winning-tickets/: the winner', async () => {
    const mine = await call('get', '/api/v1/my-transactions/', player.access);
    expect(mine.body[0]).toMatchObject({
      status: 'success',
      lottery: { is_result_published: true },
      is_winning_ticket: true,
      prize: { id: prizeId, prize_money: 5000 },
      has_claimed: false,
      claim_status: null,
    });
    const wins = await call('get', '/api/v1/my-winning-tickets/', player.access);
    expect(wins.status).toBe(200);
    expect(wins.body).toEqual([
      expect.objectContaining({
        prize: expect.objectContaining({ id: prizeId, prize_money: 5000 }),
        lottery: expect.objectContaining({ name: 'Padma Weekly' }),
        ticket: TICKET,
      }),
    ]);
  });

  test('POST /api/v1/send-prize-claim-otp/ {prize_id}, POST /api/v1/submit-prize-claim/ with the claim form', async () => {
    const sent = await call('post', '/api/v1/send-prize-claim-otp/', player.access, { prize_id: prizeId });
    expect(sent.status).toBe(200);
    const otp = await t.lastCode(player.phone, 'claim');
    const res = await call('post', '/api/v1/submit-prize-claim/', player.access, {
      prize: prizeId,
      payment_method: 'bkash',
      account_number: '01812345678',
      account_holder_name: 'Karim Mia',
      bank_name: '',
      branch_name: '',
      otp,
    });
    expect(res.status).toBe(200);
    const mine = await call('get', '/api/v1/my-transactions/', player.access);
    expect(mine.body[0]).toMatchObject({ has_claimed: true, claim_status: 'payment_info_submitted' });
  });
});

describe('back office: prize claims', () => {
  test('GET /api/v1/admin/prize-claims/: the table fields', async () => {
    const res = await call('get', '/api/v1/admin/prize-claims/', su);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        status: 'payment_info_submitted',
        payment_method: 'bkash',
        account_number: '01812345678',
        account_holder_name: 'Karim Mia',
        bank_name: '',
        created_at: expect.any(String),
        user: expect.objectContaining({ name: 'Karim Mia', phone: player.phone }),
        prize: expect.objectContaining({ ticket: TICKET, prize_money: 5000, lottery: expect.objectContaining({ name: 'Padma Weekly' }) }),
      }),
    ]);
  });

  test('PATCH /api/v1/admin/prize-claims/{id}/toggle-transfer/ without a body: a bKash prize is paid by bKash (pay-now)', async () => {
    // docs/decisions/081-prizes-paid-by-bkash.md: toggle-transfer records a transfer made by hand with its reference; a
    // prize to a bKash wallet is paid by bKash and is completed on bKash's word.
    const claim = (await call('get', '/api/v1/admin/prize-claims/', su)).body[0] as { id: number };
    const res = await call('patch', `/api/v1/admin/prize-claims/${claim.id}/toggle-transfer/`, su);
    expect(res.status).toBe(400);
    const bkash = await call('patch', `/api/v1/admin/prize-claims/${claim.id}/toggle-transfer/`, su, { reference: 'NGD8812345' });
    expect([bkash.status, bkash.body.code]).toEqual([409, 'transfer_by_bkash']);
    const paid = await call('post', `/api/v1/admin/prize-claims/${claim.id}/pay-now/`, su);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'transfer_completed', payout: { state: 'completed' } });
    const mine = await call('get', '/api/v1/my-transactions/', player.access);
    expect(mine.body[0]).toMatchObject({ has_claimed: true, claim_status: 'transfer_completed' });
  });
});

describe('generated tickets', () => {
  let open: number;
  test('POST /api/v1/generated-tickets/ {lottery_id, quantity}, GET, DELETE /api/v1/generated-tickets/{id}/', async () => {
    const made = await call('post', '/api/v1/lotteries/', su, {
      name: 'Meghna Monthly',
      description: '',
      winners: 1,
      ticket_price: 50,
      total_prize: 2000,
      start_date: dhakaDate(0),
      end_date: dhakaDate(7),
      published: true,
      featured: false,
    });
    open = made.body.id as number;
    const res = await call('post', '/api/v1/generated-tickets/', su, { lottery_id: open, quantity: 2 });
    expect(res.status).toBe(201);
    const list = await call('get', '/api/v1/generated-tickets/', su);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({
      id: expect.any(Number),
      ticket_number: expect.stringMatching(/^\d\d(-\d\d){5}$/),
      secret_number: expect.stringMatching(/^\d{16}$/),
      is_activated: false,
      activated_by: null,
      activated_at: null,
      created_at: expect.any(String),
      lottery: { id: open, name: 'Meghna Monthly', ticket_price: 50, total_prize: 2000, end_date: expect.any(String) },
    });
    const gone = await call('delete', `/api/v1/generated-tickets/${list.body[1].id}/`, su);
    expect(gone.status).toBe(204);
  });

  test('POST /api/v1/activate-generated-ticket/ {ticket_number, secret_number}: lottery name and status', async () => {
    const [g] = (await call('get', '/api/v1/generated-tickets/', su)).body as { ticket_number: string; secret_number: string }[];
    const res = await call('post', '/api/v1/activate-generated-ticket/', player.access, {
      ticket_number: g?.ticket_number,
      secret_number: g?.secret_number,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ lottery_name: 'Meghna Monthly', status: 'success', ticket: g?.ticket_number });
    const after = (await call('get', '/api/v1/generated-tickets/', su)).body[0];
    expect(after).toMatchObject({
      is_activated: true,
      activated_by: expect.objectContaining({ name: 'Karim Mia', email: null, phone: player.phone }),
      activated_at: expect.any(String),
    });
  });

  test('GET /api/v1/published-lotteries/ for the selectors', async () => {
    const res = await call('get', '/api/v1/published-lotteries/', su);
    expect(res.status).toBe(200);
    for (const l of res.body)
      expect(l).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          name: expect.any(String),
          ticket_price: expect.any(Number),
          total_prize: expect.any(Number),
          end_date: expect.any(String),
        }),
      );
    expect(res.body.map((l: { id: number }) => l.id)).toEqual(expect.arrayContaining([lotteryId, open]));
  });
});

describe('back office: users', () => {
  let created: number;
  test('GET /api/v1/admin-users/: the table fields', async () => {
    const res = await call('get', '/api/v1/admin-users/', su);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: player.id,
          name: 'Karim Mia',
          email: null,
          phone: player.phone,
          phone_confirmed: true,
          is_active: true,
          is_staff: false,
          is_superuser: false,
          date_joined: expect.any(String),
          prize_money: 5000,
        }),
      ]),
    );
  });

  test('POST /api/v1/admin-users/ with the create modal, PATCH /api/v1/admin-users/{userId}/ with the edit modal', async () => {
    const res = await call('post', '/api/v1/admin-users/', su, {
      name: 'Salma Akter',
      email: 'salma@example.com',
      phone: '01911223344',
      password: 'Salma-pass-2026',
      is_active: true,
      is_staff: false,
      is_superuser: false,
    });
    expect(res.status).toBe(201);
    created = res.body.id as number;
    // The edit modal sends name, e-mail, phone and the active flag; the password only when typed.
    const edit = await call('patch', `/api/v1/admin-users/${created}/`, su, {
      name: 'Salma Akter Khan',
      email: 'salma@example.com',
      phone: '01911223344',
      is_active: true,
    });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ id: created, name: 'Salma Akter Khan' });
    const withPassword = await call('patch', `/api/v1/admin-users/${created}/`, su, {
      name: 'Salma Akter Khan',
      email: 'salma@example.com',
      phone: '01911223344',
      is_active: true,
      password: 'Salma-pass-2027',
    });
    expect(withPassword.status).toBe(200);
    expect(suId).toBeGreaterThan(0);
  });
});

describe('player side: profile and password', () => {
  test('PATCH /api/v1/update-profile/ {password, name}', async () => {
    const res = await call('patch', '/api/v1/update-profile/', player.access, { password: PASSWORD, name: 'Karim Uddin Mia' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Karim Uddin Mia', detail: expect.any(String) });
  });

  test('POST /api/v1/forgot-password/, /resend-password-reset-otp/, /reset-password/ {identifier, otp, new_password, confirm_password}', async () => {
    const forgot = await call('post', '/api/v1/forgot-password/', undefined, { identifier: player.phone });
    expect(forgot.status).toBe(200);
    await waitOver(player.id, player.phone);
    const resend = await call('post', '/api/v1/resend-password-reset-otp/', undefined, { identifier: player.phone });
    expect(resend.status).toBe(200);
    const otp = await t.lastCode(player.phone, 'reset');
    const reset = await call('post', '/api/v1/reset-password/', undefined, {
      identifier: player.phone,
      otp,
      new_password: 'Karim-new-2026',
      confirm_password: 'Karim-new-2026',
    });
    expect(reset.status).toBe(200);
    expect((await call('post', '/api/token/', undefined, { phone: player.phone, password: 'Karim-new-2026' })).status).toBe(200);
  });
});
