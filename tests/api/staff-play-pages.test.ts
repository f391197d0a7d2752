/**
 * Staff do not play, on the pages (docs/rules/accounts-and-codes.md#12-staff-and-superusers, decision 047): a staff
 * member or a superuser logged in sees, in place of every form that buys, pays for or activates a ticket, the refusal
 * the API gives (`staff_cannot_play`), in his language; a player sees the forms. The ticket page, the picker
 * (/quick-play, the home page's quick play and its card dialog, /all-lotteries' dialog), the payment page of a purchase
 * made before the account became staff, the activation page and My Lotteries' activation card.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs, type Agent } from '../helpers/session.ts';
import { buy, insertLottery, purchase, type Player } from './purchase-fixtures.ts';
import { uniquePhone } from '../helpers/factories.ts';

let t: TestApp;
let lottery: number;
beforeAll(async () => {
  t = await startTestApp();
  lottery = await insertLottery(t, { name: 'Staff Page Draw', name_bn: 'কর্মী পাতার ড্র' });
  await t.db.query('UPDATE lotteries SET featured = true WHERE id = $1', [lottery]);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => t.db.query('DELETE FROM rate_limits'));

const TICKET = '03-14-25-36-47-08';
const REFUSAL = {
  // The English text has an apostrophe, which the page escapes: its first sentence's start is enough to recognise it.
  en: 'Staff accounts cannot buy or activate tickets',
  bn: 'কর্মীদের অ্যাকাউন্ট দিয়ে টিকিট কেনা বা সক্রিয় করা যায় না। ভাগ্য-এর কর্মীরা ভাগ্য-এর লটারি খেলতে পারেন না।',
} as const;
type Lng = keyof typeof REFUSAL;
const SEND_MONEY = {
  en: 'We look it up with bKash at once, and your ticket is confirmed as soon as bKash confirms the payment.',
  bn: 'আমরা সাথে সাথে বিকাশের কাছে তা যাচাই করি, আর বিকাশ পেমেন্ট নিশ্চিত করলেই আপনার টিকিট নিশ্চিত হয়।',
} as const;
type Role = 'player' | 'staff' | 'superuser';

async function who(role: Role, lng: Lng): Promise<{ agent: Agent; id: number; phone: string; password: string }> {
  const u = await createUser(t, {
    name: `${role} ${lng}`,
    phone: uniquePhone(),
    is_staff: role !== 'player',
  });
  if (role === 'superuser') await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [u.id]);
  const agent = request.agent(t.url);
  agent.set('Cookie', `lang=${lng}`);
  return { agent: await loginAs(agent, u.phone, u.password), ...u };
}

/** The pages with a form a staff account may not use, and how to recognise that form in the HTML. */
const PAGES: { name: string; path: () => string; form: RegExp }[] = [
  { name: 'the ticket page', path: () => `/quick-play/${lottery}/${TICKET}`, form: /name="idempotency_key"/ },
  { name: 'the picker (/quick-play)', path: () => '/quick-play', form: /name="main"/ },
  { name: 'the picker sent back (/quick-play?action=edit)', path: () => `/quick-play?lottery=${lottery}&action=edit`, form: /name="main"/ },
  { name: 'the home page’s quick play', path: () => '/', form: /name="main"/ },
  { name: 'the home page’s card dialog', path: () => `/?pick=${lottery}`, form: /name="main"/ },
  { name: 'the dialog of /all-lotteries', path: () => `/all-lotteries?pick=${lottery}`, form: /name="main"/ },
  { name: 'the activation page', path: () => '/my-lotteries/activate', form: /name="secret_number"/ },
  { name: 'My Lotteries’ activation card', path: () => '/my-lotteries', form: /href="\/my-lotteries\/activate"/ },
];

describe.each(['en', 'bn'] as const)('in %s', (lng) => {
  const agents = new Map<Role, Agent>();
  beforeAll(async () => {
    for (const role of ['player', 'staff', 'superuser'] as const) agents.set(role, (await who(role, lng)).agent);
  });

  describe.each(PAGES)('$name', ({ path, form }) => {
    test('a player sees the form and no refusal', async () => {
      const res = await agents.get('player')!.get(path()).expect(200);
      expect(res.text).toMatch(form);
      expect(res.text).not.toContain(REFUSAL[lng]);
    });

    test.each(['staff', 'superuser'] as const)('%s sees the refusal instead of the form', async (role) => {
      const res = await agents.get(role)!.get(path()).expect(200);
      expect(res.text).not.toMatch(form);
      expect(res.text).toContain(REFUSAL[lng]);
    });
  });

  test('a visitor sees the picker and the ticket page’s login, no refusal', async () => {
    const home = await request(t.url).get('/').set('Cookie', `lang=${lng}`).expect(200);
    expect(home.text).toMatch(/name="main"/);
    expect(home.text).not.toContain(REFUSAL[lng]);
    const ticket = await request(t.url).get(`/quick-play/${lottery}/${TICKET}`).set('Cookie', `lang=${lng}`).expect(200);
    expect(ticket.text).toContain(`href="/login?from=`);
    expect(ticket.text).not.toContain(REFUSAL[lng]);
  });

  test('the payment page of a purchase made before the account became staff shows the refusal, not the ways to pay', async () => {
    const u = await who('player', lng);
    const token = await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password });
    const p: Player = {
      id: u.id,
      phone: u.phone,
      token: token.body.access as string,
      auth: ['Authorization', `Bearer ${token.body.access}`],
    };
    const made = await buy(t, p, purchase(lottery, `0${lng === 'en' ? 1 : 2}-10-20-30-40-05`));
    expect(made.status).toBe(201);
    const id = made.body.id as number;
    const payment = `/payment/${id}`;
    const player = await u.agent.get(payment).expect(200);
    expect(player.text).toMatch(/name="trx_id"/);
    expect(player.text).toContain(`action="/payment/${id}/bkash"`);
    expect(player.text).not.toContain(REFUSAL[lng]);
    // Send Money's copy says what happens since decision 051: bKash confirms the TrxID, staff look by hand only after.
    expect(player.text).toContain(SEND_MONEY[lng]);
    expect(player.text).not.toMatch(/statement|স্টেটমেন্ট/);

    await t.db.query('UPDATE users SET is_staff = true WHERE id = $1', [u.id]);
    // His session's token still says player until it is renewed: a new login gives the page his rights as they are.
    const again = await loginAs(request.agent(t.url).set('Cookie', `lang=${lng}`), u.phone, u.password);
    const staff = await again.get(payment).expect(200);
    expect(staff.text).not.toMatch(/name="trx_id"/);
    expect(staff.text).not.toContain(`action="/payment/${id}/bkash"`);
    expect(staff.text).toContain(REFUSAL[lng]);
    // The API refuses the TrxID all the same (the page only spares him the try).
    const trx = await request(t.url)
      .patch(`/api/v1/transactions/${id}/trx-id/`)
      .set(
        'Authorization',
        `Bearer ${(await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password })).body.access}`,
      )
      .send({ trx_id: 'STAFFPAGE1' });
    expect([trx.status, trx.body.code]).toEqual([403, 'staff_cannot_play']);
  });
});
