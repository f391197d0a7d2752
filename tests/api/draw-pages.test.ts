/**
 * The draw page (/admin/lotteries/{id}/draw) as a browser without JavaScript uses it (docs/rules/pages.md#4-without-javascript,
 * docs/rules/lotteries-and-sales.md#9-the-draw): the participants paged, tickets chosen by typing (they travel in the
 * form), proposed with a reason and approved by a second staff member, deleting a prize through its confirmation, Notify Winners on the lotteries
 * list with its own confirmation; every post needs the CSRF token.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, buy, closeSales, drawByHand, insertLottery, purchase, type Player, trxId, approveByHand } from './purchase-fixtures.ts';

let t: TestApp;
let staffAgent: Agent;
let a: Player, b: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  const u = await createUser(t, { name: 'Page Staff', phone: '01955500002', is_staff: true });
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
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
    'draw_proposals',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
  t.messages.length = 0;
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const T3 = '10-20-30-40-50-15';

async function sold(p: Player, lottery: number, ticket: string): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, { trx_id: trxId() }));
  if (res.status !== 201) throw new Error(`purchase failed: ${res.status}`);
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
  return res.body.id as number;
}

/** A form body as a browser writes it: repeated names for the chosen tickets. */
function form(fields: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of ([] as string[]).concat(v)) q.append(k, x);
  return q.toString();
}

/** The chosen tickets the page carries in its form (hidden inputs). */
const chosenIn = (html: string) => [...html.matchAll(/name="chosen" value="([^"]+)"/g)].map((m) => m[1]);

describe('the draw page without JavaScript', () => {
  test('Not Found for an unknown or malformed id', async () => {
    for (const path of ['/admin/lotteries/999999/draw', '/admin/lotteries/abc/draw']) {
      const res = await staffAgent.get(path);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Not Found');
      expect(res.text).toContain('href="/admin/lotteries"');
    }
  });

  test('participants paged and searched; N/A without a phone', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly' });
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await t.db.query('UPDATE users SET phone = NULL, email = $2 WHERE id = $1', [b.id, 'fatema@example.com']);
    try {
      const page = await staffAgent.get(`/admin/lotteries/${lottery}/draw`).expect(200);
      expect(page.text).toContain('Draw: Padma Weekly');
      expect(page.text).toContain('Rahim Uddin');
      expect(page.text).toContain('Fatema Begum');
      expect(page.text).toContain('N/A');
      expect(page.text).toContain('2 approved tickets');
      expect(page.text).toContain('No tickets selected yet');
      const found = await staffAgent.get(`/admin/lotteries/${lottery}/draw?search=${T2}`).expect(200);
      expect(found.text).toContain('Fatema Begum');
      expect(found.text).not.toContain('Rahim Uddin');
    } finally {
      await t.db.query('UPDATE users SET phone = $2, email = NULL WHERE id = $1', [b.id, b.phone]);
    }
  });

  test('type a ticket (a bad one is "Invalid ticket"), clear, remove, propose with a reason; a second staff member approves', async () => {
    const lottery = await insertLottery(t); // 2 winners, TK. 100,000
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await sold(a, lottery, T3);
    await closeSales(t, lottery);
    const url = `/admin/lotteries/${lottery}/draw`;
    const page = await staffAgent.get(url).expect(200);
    expect(page.text).toContain('Choose winners by hand (unverifiable)');
    // Random Winner is gone from the page: a winner picked by the server's dice cannot be checked either.
    expect(page.text).not.toContain('value="random"');
    // Before the draw the verifiable draw comes first, winners by hand last: after the prizes and the participants.
    const at = (marker: string) => page.text.indexOf(marker);
    expect(at('class="draw-section draw-verifiable"')).toBeGreaterThan(-1);
    expect(at('class="draw-section draw-verifiable"')).toBeLessThan(at('id="draw-prizes"'));
    expect(at('id="draw-prizes"')).toBeLessThan(at('id="draw-participants"'));
    expect(at('id="draw-participants"')).toBeLessThan(at('class="draw-section card draw-select"'));
    const csrf = csrfFrom(page.text);
    const post = (fields: Record<string, string | string[]>, agent = staffAgent, token = csrf) =>
      agent
        .post(url)
        .type('form')
        .send(form({ _csrf: token, winners: '2', ...fields }));

    const bad = await post({ intent: 'add', ticket: '1-2-3' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Invalid ticket');
    expect(bad.text).toContain('value="1-2-3"');

    const added = await post({ intent: 'add', ticket: '5-12-23-34-45-7' });
    expect(added.status).toBe(200);
    expect(chosenIn(added.text)).toEqual([T1]);
    const twice = await post({ intent: 'add', ticket: T1, chosen: [T1] });
    expect(twice.text).toContain('This ticket is already chosen.');
    // Full: the lottery has 2 winners.
    expect((await post({ intent: 'add', ticket: T3, chosen: [T1, T2] })).text).toContain('no more tickets can be chosen');
    expect((await post({ intent: 'random', chosen: [T1] })).status).toBe(400);

    const cleared = await post({ intent: 'clear', chosen: [T1, T2] });
    expect(chosenIn(cleared.text)).toEqual([]);
    expect(cleared.text).toContain('No tickets selected yet');

    const removed = await post({ remove: T1, chosen: [T1, T2] });
    expect(chosenIn(removed.text)).toEqual([T2]);

    // Without a reason: told under the field, the tickets kept, nothing proposed.
    const noReason = await post({ intent: 'propose', chosen: [T2, T3], reason: '' });
    expect(noReason.status).toBe(400);
    expect(chosenIn(noReason.text)).toEqual([T2, T3]);
    expect(noReason.text).toMatch(/class="field__error"[^>]*>[^<]+</);
    expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);

    const proposed = await post({ intent: 'propose', chosen: [T2, T3], reason: 'Sold before the verifiable draw' });
    expect(proposed.status).toBe(303);
    expect(proposed.headers.location).toBe(`${url}?notice=proposed`);
    expect(await t.db.query('SELECT id FROM prizes')).toEqual([]);
    const mine = await staffAgent.get(proposed.headers.location as string).expect(200);
    expect(mine.text).toContain('Winners proposed, waiting for approval');
    expect(mine.text).toContain('Sold before the verifiable draw');
    expect(mine.text).toContain('You proposed these winners');
    expect(mine.text).not.toContain('value="approve"');
    // Its author posting Approve anyway is refused by the API, with its reason on the page.
    const proposalId = (await t.db.one<{ id: number }>('SELECT id FROM draw_proposals'))!.id;
    const own = await post({ intent: 'approve', proposal_id: String(proposalId) });
    expect(own.status).toBe(403);
    expect(own.text).toContain('a second staff member must approve them');

    const u = await createUser(t, { name: 'Second Officer', is_staff: true });
    const second = request.agent(t.url);
    second.set('Cookie', 'lang=en');
    await loginAs(second, u.phone, u.password);
    const theirs = await second.get(url).expect(200);
    expect(theirs.text).toContain('value="approve"');
    const done = await post({ intent: 'approve', proposal_id: String(proposalId) }, second, csrfFrom(theirs.text));
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`${url}?notice=drawn`);
    expect(await t.db.query('SELECT ticket, prize_money FROM prizes ORDER BY id')).toEqual([
      { ticket: T2, prize_money: 50000 },
      { ticket: T3, prize_money: 50000 },
    ]);
    const after = await staffAgent.get(done.headers.location as string).expect(200);
    expect(after.text).toContain('Successfully Drawn Lottery');
    expect(after.text).toContain('The results are published.');
    expect(after.text).toContain('Drawn by hand (unverifiable)');
    expect(after.text).toContain('Second Officer');
    expect(after.text).not.toContain('value="propose"');
    expect(after.text).toContain('TK. 50,000');
    // What the draw gave, and what reached the winners (nothing yet: no claim's transfer is completed).
    const facts = after.text.replaceAll('<!-- -->', '');
    expect(facts).toMatch(/<dt>Prizes won<\/dt><dd><span[^>]*>TK\. [1-9][\d,]*<\/span><\/dd>/);
    expect(facts).toMatch(/<dt>Prizes paid out \(transfer completed\)<\/dt><dd><span[^>]*>TK\. 0<\/span><\/dd>/);
  });

  test('a rejected proposal: the selection comes back', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await closeSales(t, lottery);
    const url = `/admin/lotteries/${lottery}/draw`;
    const csrf = csrfFrom((await staffAgent.get(url).expect(200)).text);
    const p = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'propose', chosen: [T1], reason: 'By hand' }))
      .expect(303);
    const id = (await t.db.one<{ id: number }>('SELECT id FROM draw_proposals'))!.id;
    const withdrawn = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'reject', proposal_id: String(id) }));
    expect(withdrawn.status).toBe(303);
    expect(withdrawn.headers.location).toBe(`${url}?notice=rejected`);
    const back = await staffAgent.get(withdrawn.headers.location as string).expect(200);
    expect(back.text).toContain('Proposal rejected');
    expect(back.text).toContain('value="propose"');
    expect(p.headers.location).toBe(`${url}?notice=proposed`);
  });

  test('while sales are open: why instead of the selection, in both languages; a post anyway is refused; no Approve', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const url = `/admin/lotteries/${lottery}/draw`;
    const page = await staffAgent.get(url).expect(200);
    expect(page.text).toContain('Choose winners by hand (unverifiable)');
    expect(page.text).toMatch(/Sales are open until [^<]+: winners are chosen by hand only after the end of sales/);
    expect(page.text).not.toContain('value="propose"');
    expect(page.text).not.toContain('value="add"');
    const bn = await staffAgent.get(url).set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toMatch(/বিক্রি চলবে [^<]+ পর্যন্ত: হাতে বিজয়ী বাছাই হয় কেবল বিক্রি শেষ হওয়ার পরে/);
    // The form posted anyway (an old page): the API refuses, the page says why.
    const posted = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrfFrom(page.text), intent: 'propose', chosen: [T1], reason: 'By hand' }));
    expect(posted.status).toBe(409);
    expect(posted.text).toContain('Sales are still open: the draw comes after the end of sales.');
    expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);
    // A proposal an older server took before the close: shown, Reject offered, Approve not until the close.
    const author = await account(t, { is_staff: true });
    await t.db.query("INSERT INTO draw_proposals (lottery_id, tickets, reason, proposed_by) VALUES ($1, $2, 'Old', $3)", [
      lottery,
      T1,
      author.id,
    ]);
    const waiting = await staffAgent.get(url).expect(200);
    expect(waiting.text).toContain('Winners proposed, waiting for approval');
    expect(waiting.text).toMatch(/Sales are open until [^<]+: these winners can be approved only after the end of sales/);
    expect(waiting.text).not.toContain('value="approve"');
    expect(waiting.text).toContain('value="reject"');
    await closeSales(t, lottery);
    expect((await staffAgent.get(url).expect(200)).text).toContain('value="approve"');
  });

  test('a refused proposal shows why and keeps the chosen tickets', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await closeSales(t, lottery);
    const url = `/admin/lotteries/${lottery}/draw`;
    const csrf = csrfFrom((await staffAgent.get(url).expect(200)).text);
    const res = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'propose', chosen: [T1, T2], reason: 'By hand' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('The draw could not be finished');
    expect(res.text).toContain(`The ticket ${T2} was not sold (approved) in this lottery.`);
    expect(chosenIn(res.text)).toEqual([T1, T2]);
    expect(await t.db.query('SELECT id FROM prizes')).toEqual([]);
  });

  // docs/decisions/065-draw-form-one-schema.md: every post is read through one schema of the page's intents.
  test("a post the page cannot read (an unknown intent, none, a bad hidden field): why, in the caller's language; nothing changed", async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await closeSales(t, lottery);
    const url = `/admin/lotteries/${lottery}/draw`;
    const csrf = csrfFrom((await staffAgent.get(url).expect(200)).text);
    const post = (fields: Record<string, string | string[]>, lng = 'en') =>
      staffAgent
        .post(url)
        .set('Cookie', `lang=${lng}`)
        .type('form')
        .send(form({ _csrf: csrf, ...fields }));
    const audits = await t.db.query('SELECT id FROM audit_log');
    const unreadable: Record<string, string | string[]>[] = [
      { intent: 'random', chosen: [T1] },
      { intent: 'draw-now', chosen: [T1], reason: 'By hand' },
      { chosen: [T1] },
      { intent: 'add', ticket: T2, chosen: [T1], winners: 'all' },
    ];
    for (const fields of unreadable) {
      const en = await post(fields);
      expect(en.status).toBe(400);
      expect(en.text).toContain('This form could not be read: nothing was changed. Reload the page and try again.');
      // The page as it was: the selection with the tickets the form carried, and no message of its own.
      expect(chosenIn(en.text)).toEqual([T1]);
      expect(en.text).toContain('value="propose"');
      const bn = await post(fields, 'bn');
      expect(bn.status).toBe(400);
      expect(bn.text).toContain('এই ফর্মটি পড়া যায়নি: কিছুই বদলানো হয়নি। পাতাটি আবার লোড করে চেষ্টা করুন।');
    }
    // A proposal that is none: told in its section (404); a beacon left empty: paste the signature.
    const none = await post({ intent: 'approve', proposal_id: 'abc' });
    expect(none.status).toBe(404);
    expect(none.text).toContain('This proposal does not exist.');
    const noPrize = await post({ intent: 'withhold-prize', prize_id: '0', reason: 'Fraud' });
    expect(noPrize.status).toBe(404);
    expect(noPrize.text).toContain('Prize not found.');
    // Full before a bad ticket, as before a good one.
    const full = await post({ intent: 'add', ticket: '1-2-3', chosen: [T1, T2], winners: '2' });
    expect(full.status).toBe(400);
    expect(full.text).toContain('no more tickets can be chosen');
    expect(await t.db.query('SELECT id FROM draw_proposals')).toEqual([]);
    expect(await t.db.query('SELECT id FROM prizes')).toEqual([]);
    expect(await t.db.query('SELECT id FROM audit_log')).toEqual(audits);
  });

  test('withholding a prize by two: a superuser proposes with a reason, another staff member approves; plain forms', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    const drawn = await drawByHand(t, lottery, [T1, T2]);
    expect(drawn.status).toBe(201);
    const [p1, p2] = drawn.body.prizes as { id: number }[];
    const url = `/admin/lotteries/${lottery}/draw`;
    // Ordinary staff are not offered Withhold (a superuser's proposal), and a post is refused by the API.
    const plain = await staffAgent.get(url).expect(200);
    expect(plain.text).not.toContain(`?withhold=${p1!.id}`);
    expect(plain.text).toContain('Only a superuser may propose withholding a prize');
    expect((await staffAgent.get(`${url}?withhold=${p1!.id}`).expect(200)).text).not.toContain('id="withhold-prize-title"');
    const notAllowed = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrfFrom(plain.text), intent: 'withhold-prize', prize_id: String(p1!.id), reason: 'Fraud' }));
    expect(notAllowed.status).toBe(403);
    expect(notAllowed.text).toContain('Only a superuser may propose withholding a prize.');
    expect(await t.db.query('SELECT id FROM prize_withholding_proposals')).toEqual([]);

    // A superuser: Withhold opens a confirmation with a reason.
    const head = await createUser(t, { name: 'Head Office', phone: '01955500009', is_staff: true });
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [head.id]);
    const headAgent = request.agent(t.url);
    await loginAs(headAgent, head.phone, head.password);
    const page = await headAgent.get(url).expect(200);
    expect(page.text).toContain(`href="${url}?withhold=${p1!.id}"`);
    const confirm = await headAgent.get(`${url}?withhold=${p1!.id}`).expect(200);
    expect(confirm.text).toContain('Propose withholding this prize?');
    expect(confirm.text).toMatch(/<input[^>]*name="reason"/);
    const csrf = csrfFrom(confirm.text);
    // Without a reason: the confirmation comes back with the message under the field, nothing proposed.
    const blank = await headAgent
      .post(`${url}?withhold=${p1!.id}`)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'withhold-prize', prize_id: String(p1!.id), reason: '  ' }));
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('Propose withholding this prize?');
    expect(blank.text).toContain('Please give the reason.');
    // Without the CSRF token: refused.
    const forged = await headAgent
      .post(url)
      .type('form')
      .send(form({ intent: 'withhold-prize', prize_id: String(p1!.id), reason: 'Fraud' }));
    expect(forged.status).toBe(403);
    expect(await t.db.query('SELECT id FROM prize_withholding_proposals')).toEqual([]);

    const proposed = await headAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'withhold-prize', prize_id: String(p1!.id), reason: 'Fraud found by the bank' }));
    expect(proposed.status).toBe(303);
    expect(proposed.headers.location).toBe(`${url}?notice=withholdProposed`);
    const [proposal] = await t.db.query<{ id: number }>('SELECT id FROM prize_withholding_proposals');
    // Its author may only withdraw it; another staff member approves it.
    const own = await headAgent.get(url).expect(200);
    expect(own.text).toContain('Fraud found by the bank');
    expect(own.text).toContain('Withdraw');
    expect(own.text).not.toContain('value="withhold-approve"');
    const other = await staffAgent.get(url).expect(200);
    expect(other.text).toContain('value="withhold-approve"');
    const noReason = await staffAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrfFrom(other.text), intent: 'withhold-approve', proposal_id: String(proposal!.id), reason: '' }));
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('Please give the reason.');
    const approved = await staffAgent
      .post(url)
      .type('form')
      .send(
        form({ _csrf: csrfFrom(other.text), intent: 'withhold-approve', proposal_id: String(proposal!.id), reason: 'Bank letter seen' }),
      );
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toBe(`${url}?notice=withheld`);
    expect(await t.db.query('SELECT id, withheld_reason FROM prizes WHERE withheld_at IS NOT NULL')).toEqual([
      { id: p1!.id, withheld_reason: 'Fraud found by the bank' },
    ]);
    const after = await staffAgent.get(approved.headers.location as string).expect(200);
    expect(after.text).toContain('Prize withheld: its winner is told');
    expect(after.text).toContain('Withheld: Fraud found by the bank');

    // A prize being paid is refused, with the API's message.
    await t.db.query(
      `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name)
       VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01711111111', 'Fatema Begum')`,
      [p2!.id, b.id],
    );
    const refused = await headAgent
      .post(url)
      .type('form')
      .send(form({ _csrf: csrf, intent: 'withhold-prize', prize_id: String(p2!.id), reason: 'Fraud' }));
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('This prize cannot be withheld');
  });

  test('nobody but staff: a player is sent to login', async () => {
    const lottery = await insertLottery(t);
    const player = await createUser(t, { phone: '01955500003' });
    const agent = await loginAs(t.url, player.phone, player.password);
    const res = await agent.get(`/admin/lotteries/${lottery}/draw`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toContain('/login');
  });
});

describe('Notify Winners on the lotteries list without JavaScript', () => {
  test('disabled before the results; a confirmation, then one message per prize and the server message', async () => {
    const open = await insertLottery(t, { name: 'Not Drawn' });
    const lottery = await insertLottery(t, { name: 'Padma Weekly' });
    await sold(a, lottery, T1);
    expect((await drawByHand(t, lottery, [T1])).status).toBe(201);
    const list = await staffAgent.get('/admin/lotteries').expect(200);
    expect(list.text).toContain(`href="/admin/lotteries?notify=${lottery}"`);
    expect(list.text).not.toContain(`href="/admin/lotteries?notify=${open}"`);
    const confirm = await staffAgent.get(`/admin/lotteries?notify=${lottery}`).expect(200);
    expect(confirm.text).toContain('Notify the winners?');
    const csrf = csrfFrom(confirm.text);
    const send = () =>
      staffAgent
        .post('/admin/lotteries')
        .type('form')
        .send(form({ _csrf: csrf, intent: 'notify', lottery_id: String(lottery) }));
    const done = await send();
    expect(done.status).toBe(200);
    expect(done.text).toContain('Winners notified successfully! 1 message sent.');
    expect(t.messages).toHaveLength(1);
    const again = await send();
    expect(again.text).toContain('already been notified');
    expect(t.messages).toHaveLength(1);
    const early = await staffAgent
      .post('/admin/lotteries')
      .type('form')
      .send(form({ _csrf: csrf, intent: 'notify', lottery_id: String(open) }));
    expect(early.status).toBe(409);
    expect(early.text).toContain('Winners can be notified only after the results are published.');
  });
});
