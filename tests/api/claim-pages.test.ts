/**
 * Claiming a prize through the pages, as a browser without JavaScript does (docs/rules/pages.md#4-without-javascript,
 * docs/rules/lotteries-and-sales.md#10-results-for-players, #11-prize-claims): My Lotteries shows the win and "Add Payment
 * Info" → the claim page → "Send code" (details checked first) → the code field → "Submit claim" → My Lotteries shows
 * "Details submitted". Another player's prize is "not found"; a missing prize id leads to My Lotteries.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { holdEnd } from '../../shared/claims/payout.ts';
import { formatDate } from '../../shared/dates.ts';
import { buy, drawByHand, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';
import { apiLogin, pageAccount, type PagePlayer } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const TICKET = '05-12-23-34-45-07';

/** A logged-in browser (cookies, no JavaScript) and the same player's API token. */
/** A player logged in through the login form (`agent`) and through the API (`api`). */
async function player(name: string, lang = 'en'): Promise<PagePlayer & { api: Player }> {
  const p = await pageAccount(t, { name, lang });
  return { ...p, api: await apiLogin(t, p) };
}

/** The player's ticket, approved and drawn as the winner; the prize id. */
async function won(p: Player, name = 'Claim Draw', name_bn = 'দাবির ড্র'): Promise<number> {
  const lottery = await insertLottery(t, { name, name_bn });
  const res = await buy(t, p, purchase(lottery, TICKET, { trx_id: trxId() }));
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
  const d = await drawByHand(t, lottery, [TICKET]);
  expect(d.status).toBe(201);
  return d.body.prizes[0].id as number;
}

const details = { payment_method: 'bkash', account_number: '01712345678', account_holder_name: 'Rahim Uddin' };

describe('claiming a prize without JavaScript', () => {
  test('My Lotteries → claim page → send code → submit → Details submitted', async () => {
    const { agent, api, phone } = await player('Rahim Uddin');
    const prize = await won(api);
    const list = await agent.get('/my-lotteries').expect(200);
    expect(list.text).toContain('Congratulations! You won');
    expect(list.text).toContain('TK. 100,000');
    expect(list.text).toContain(`href="/user/prize-claim/${prize}"`);
    expect(list.text).toContain('Add Payment Info');

    const page = await agent.get(`/user/prize-claim/${prize}`).expect(200);
    expect(page.text).toContain('Claim your prize');
    expect(page.text).toContain('Claim Draw');
    expect(page.text).toContain('Send code');
    expect(page.text).not.toContain('name="otp"');

    // The details are checked before a code goes out.
    const incomplete = await agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        prize: String(prize),
        intent: 'send',
        payment_method: 'bank',
        account_number: '',
        account_holder_name: '',
      });
    expect(incomplete.status).toBe(400);
    expect(incomplete.text).toContain('This field is required');
    expect(t.sent.filter((m) => m.to === phone)).toEqual([]);

    const sent = await agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), prize: String(prize), intent: 'send', ...details });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain('We sent a 6-digit claim code');
    expect(sent.text).toContain('name="otp"');
    expect(sent.text).toContain('value="01712345678"');
    const code = await t.lastCode(phone, 'claim');

    const wrong = await agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({
        _csrf: csrfFrom(sent.text),
        prize: String(prize),
        intent: 'submit',
        ...details,
        otp: code === '000000' ? '111111' : '000000',
      });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('name="otp"');
    expect(wrong.text).toContain('field__error');

    const ok = await agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({ _csrf: csrfFrom(sent.text), prize: String(prize), intent: 'submit', ...details, otp: code });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/my-lotteries?notice=claimed');
    const after = await agent.get(ok.headers.location as string).expect(200);
    expect(after.text).toContain('Your payment details were submitted');
    expect(after.text).toContain('Details submitted');
    expect(after.text).not.toContain(`href="/user/prize-claim/${prize}"`);
    const claimPage = await agent.get(`/user/prize-claim/${prize}`).expect(200);
    expect(claimPage.text).toContain('Your payment details were submitted: bKash 01712345678');
    expect(claimPage.text).not.toContain('value="send"');
  });

  test('a reload after the code was sent keeps the code step', async () => {
    const { agent, api } = await player('Salma Akter');
    const prize = await won(api);
    await request(t.url)
      .post('/api/v1/send-prize-claim-otp/')
      .set(...api.auth)
      .send({ prize_id: prize })
      .expect(200);
    const page = await agent.get(`/user/prize-claim/${prize}`).expect(200);
    expect(page.text).toContain('name="otp"');
    expect(page.text).toContain('Submit claim');
  });

  test('in Bengali', async () => {
    const { agent, api } = await player('Jamal Hossain', 'bn');
    const prize = await won(api, 'Bengali Draw', 'বাংলা ড্র');
    const list = await agent.get('/my-lotteries').expect(200);
    expect(list.text).toContain('পেমেন্টের তথ্য দিন');
    expect(list.text).toContain('৳১,০০,০০০');
    const page = await agent.get(`/user/prize-claim/${prize}`).expect(200);
    expect(page.text).toContain('আপনার পুরস্কার দাবি করুন');
    expect(page.text).toContain('বাংলা ড্র');
    expect(page.text).toContain('কোড পাঠান');
  });

  test('while a change of his phone or e-mail holds his claims: the notice with its end, and no claim form (en and bn)', async () => {
    for (const lng of ['en', 'bn'] as const) {
      const { agent, api, phone } = await player(`Held Player ${lng}`, lng);
      const prize = await won(api);
      await t.db.query('UPDATE users SET contact_changed_at = now() WHERE id = $1', [api.id]);
      const changedAt = (await t.db.one<{ at: string | Date }>('SELECT contact_changed_at AS at FROM users WHERE id = $1', [api.id]))!.at;
      const until = formatDate(holdEnd(changedAt), lng, { withTime: true })!;
      // DateTime writes the date and the time as two unbreakable parts.
      const date = until.slice(0, until.lastIndexOf(', ') + 1);
      const time = until.slice(until.lastIndexOf(', ') + 2);
      const notice =
        lng === 'en'
          ? ['Your phone number, e-mail or password was changed recently. For your safety, prize claims are paused until', date, time]
          : [
              'আপনার ফোন নম্বর, ইমেইল বা পাসওয়ার্ড সম্প্রতি বদলানো হয়েছে। আপনার নিরাপত্তার জন্য',
              date,
              time,
              'পর্যন্ত পুরস্কার দাবি স্থগিত রাখা হয়েছে।',
            ];

      const list = await agent.get('/my-lotteries').expect(200);
      for (const part of notice) expect(list.text).toContain(part);
      expect(list.text).not.toContain(`href="/user/prize-claim/${prize}"`);
      expect(list.text).not.toContain(lng === 'en' ? 'Add Payment Info' : 'পেমেন্টের তথ্য দিন');

      const page = await agent.get(`/user/prize-claim/${prize}`).expect(200);
      for (const part of notice) expect(page.text).toContain(part);
      expect(page.text).not.toContain('claim-form');
      expect(page.text).not.toContain('value="send"');
      // A form posted anyway (an old tab) sends no code, and the page still says why.
      const post = await agent
        .post(`/user/prize-claim/${prize}`)
        .type('form')
        .send({ _csrf: csrfFrom(page.text), prize: String(prize), intent: 'send', ...details });
      expect(post.status).toBe(409);
      expect(post.text).toContain(notice[0]);
      expect(t.sent.filter((m) => m.to === phone)).toEqual([]);

      // After 72 hours the claim is offered again.
      await t.db.query("UPDATE users SET contact_changed_at = now() - interval '72 hours' WHERE id = $1", [api.id]);
      const after = await agent.get('/my-lotteries').expect(200);
      expect(after.text).toContain(`href="/user/prize-claim/${prize}"`);
      expect(after.text).not.toContain(notice[0]);
      expect((await agent.get(`/user/prize-claim/${prize}`).expect(200)).text).toContain('value="send"');
    }
  });

  test('another player’s prize is not found; no prize id leads to My Lotteries; logged out leads to login', async () => {
    const owner = await player('Owner');
    const prize = await won(owner.api);
    const other = await player('Stranger');
    const page = await other.agent.get(`/user/prize-claim/${prize}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Prize not found or you don&#x27;t have access to it.');
    expect(page.text).not.toContain('value="send"');
    const post = await other.agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), prize: String(prize), intent: 'send', ...details });
    expect(post.status).toBe(404);
    expect(t.sent.filter((m) => m.to === other.phone)).toEqual([]);
    expect((await other.agent.get('/user/prize-claim').expect(301)).headers.location).toBe('/my-lotteries');
    expect((await other.agent.get('/user/prize-claim/abc').expect(303)).headers.location).toBe('/my-lotteries');
    const anon = await request(t.url).get(`/user/prize-claim/${prize}`);
    expect(anon.status).toBe(303);
    expect(anon.headers.location).toBe(`/login?from=${encodeURIComponent(`/user/prize-claim/${prize}`)}`);
  });

  test('a form without its CSRF token changes nothing', async () => {
    const { agent, api, phone } = await player('Csrf Test');
    const prize = await won(api);
    const res = await agent
      .post(`/user/prize-claim/${prize}`)
      .type('form')
      .send({ prize: String(prize), intent: 'send', ...details });
    expect(res.status).toBe(403);
    expect(t.sent.filter((m) => m.to === phone)).toEqual([]);
  });
});
