/**
 * Players' messages (docs/rules/messages.md): written in the transaction of their event, one per event; their SMS sent
 * once in the player's language within the daily cap, even by two app instances on one database; the kinds a player
 * may switch off; the notifications and settings API with each bad input and each role.
 */
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { DAILY_SMS_CAP } from '../../shared/messages/kinds.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { testDatabase } from '../helpers/database.ts';
import { messagesOf, runsOf, transactionsWith } from '../helpers/db-messages.ts';
import type { Message } from '../../server/notify/index.ts';
import { NotifyError } from '../../server/notify/index.ts';
import { account, buy, drawByHand, insertLottery, purchase, trxId, type Player, approveByHand } from './purchase-fixtures.ts';

import { startTestAppWithBkash } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player;
let staff: Player;
beforeAll(async () => {
  t = await startTestAppWithBkash();
  a = await account(t, { name: 'Rahim Uddin' });
  staff = await account(t, { is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  t.messages.length = 0;
  for (const table of [
    'player_messages',
    'message_settings',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'play_limits',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
  await t.db.query(`UPDATE users SET language = 'bn'`);
});

const T1 = '05-12-23-34-45-07';
const list = (p: Player | null, query: Record<string, unknown> = {}, lng = 'en') => to(t, api.notifications, { as: p, query, lang: lng });
const stored = () =>
  t.db.query<{ user_id: number; kind: string; event_key: string; sms_state: string; read_at: string | null }>(
    'SELECT user_id, kind, event_key, sms_state, read_at FROM player_messages ORDER BY id',
  );

/** A pending purchase of `p` with a TrxID, and staff's answer to it. */
async function purchased(p: Player, lottery: number, ticket = T1, trx: string | null = trxId()): Promise<number> {
  const res = await buy(t, p, purchase(lottery, ticket, trx ? { trx_id: trx } : {}));
  expect(res.status).toBe(201);
  return res.body.id as number;
}
/** Staff's answer: an approval by two (docs/rules/payments.md#1-who-may-do-what), a rejection by one. */
const decide = (id: number, status: 'success' | 'failed') =>
  status === 'success' ? approveByHand(t, id) : to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status });

describe('written with the event, sent once', () => {
  test('staff approve a purchase: the page has "Ticket confirmed" at once; the next run sends one SMS in the player’s language', async () => {
    const lottery = await insertLottery(t, { name: 'Weekly Draw', name_bn: 'সাপ্তাহিক ড্র' });
    const id = await purchased(a, lottery);
    expect(await stored()).toEqual([]);
    expect((await decide(id, 'success')).status).toBe(200);
    expect(await stored()).toEqual([
      {
        user_id: a.id,
        kind: 'ticket_confirmed',
        event_key: expect.stringMatching(`^ticket_confirmed:${id}:`),
        sms_state: 'queued',
        read_at: null,
      },
    ]);
    const en = (await list(a)).body;
    expect(en).toMatchObject({ total: 1, unread: 1 });
    expect(en.items[0]).toMatchObject({ kind: 'ticket_confirmed', title: 'Ticket confirmed', link: '/my-lotteries', read: false });
    expect(en.items[0].text).toBe(`Your ticket ${T1} for Weekly Draw (TK. 100) is confirmed. Good luck in the draw!`);
    expect((await list(a, {}, 'bn')).body.items[0].text).toContain('সাপ্তাহিক ড্র-এর আপনার টিকিট ০৫-১২-২৩-৩৪-৪৫-০৭');
    // Sent once: a second run finds nothing.
    expect(await t.app.messages.dispatch()).toBe(1);
    expect(await t.app.messages.dispatch()).toBe(0);
    expect(t.messages).toEqual([expect.objectContaining({ channel: 'sms', to: a.phone, purpose: 'ticket_confirmed' })]);
    expect(t.messages[0]?.text).toBe('ভাগ্য: টিকিট ০৫-১২-২৩-৩৪-৪৫-০৭ নিশ্চিত (৳১০০)। সাপ্তাহিক ড্র');
    expect((await stored())[0]?.sms_state).toBe('sent');
    // The same status again is no event: nothing more.
    expect((await to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status: 'success' })).status).toBe(200);
    expect(await stored()).toHaveLength(1);
  });

  test('a player who chose English gets English; one without a phone gets an e-mail', async () => {
    const lottery = await insertLottery(t, { name: 'Weekly Draw' });
    await to(t, api.setMessageSettings, { as: a }).send({ language: 'en', claim_reminder: true, new_lottery: false }).expect(200);
    await decide(await purchased(a, lottery), 'success');
    const mailOnly = await account(t, { email: 'mail.only@example.com' });
    await t.db.query('UPDATE users SET phone = NULL WHERE id = $1', [mailOnly.id]);
    await decide(await purchased(mailOnly, lottery, '01-02-03-04-05-06'), 'success');
    await t.app.messages.dispatch();
    expect(t.messages.map((m) => [m.channel, m.to])).toEqual([
      ['sms', a.phone],
      ['email', 'mail.only@example.com'],
    ]);
    expect(t.messages[0]?.text).toBe(`Bhagya: your ticket ${T1} for Weekly Draw is confirmed (TK. 100). Good luck!`);
    // The e-mail carries the page's text (no SMS length to keep) and the title as its subject, in Bengali.
    expect(t.messages[1]).toMatchObject({ subject: 'টিকিট নিশ্চিত', text: expect.stringContaining('Weekly Draw-এর আপনার টিকিট') });
  });

  test('rejected: why is said — no payment received (no TrxID) or payment not found (a TrxID that staff did not find)', async () => {
    const lottery = await insertLottery(t, { name: 'Weekly Draw' });
    await decide(await purchased(a, lottery, T1, null), 'failed');
    await decide(await purchased(a, lottery, '01-02-03-04-05-06'), 'failed');
    const { items } = (await list(a)).body;
    expect(items.map((m: { kind: string; text: string }) => [m.kind, m.text.split(': ')[1]?.slice(0, 26)])).toEqual([
      ['ticket_rejected', 'we could not find the bKas'],
      ['ticket_rejected', 'no payment of TK. 100 was '],
    ]);
  });

  test('approved, taken back and approved again: told each time it is confirmed', async () => {
    const lottery = await insertLottery(t);
    const id = await purchased(a, lottery);
    await decide(id, 'success');
    await to(t, api.updateTransaction, { params: { id }, as: staff }).send({ status: 'pending' }).expect(200);
    await decide(id, 'success');
    expect((await stored()).map((m) => m.kind)).toEqual(['ticket_confirmed', 'ticket_confirmed']);
  });

  test('a draw published: each winner’s page says so with the claim deadline; its SMS is left to Notify Winners', async () => {
    const lottery = await insertLottery(t, { name: 'Weekly Draw' });
    await decide(await purchased(a, lottery), 'success');
    t.messages.length = 0;
    await t.db.query('DELETE FROM player_messages');
    expect((await drawByHand(t, lottery, [T1])).status).toBe(201);
    const won = await stored();
    expect(won).toEqual([expect.objectContaining({ kind: 'prize_won', sms_state: 'none', user_id: a.id })]);
    const item = (await list(a)).body.items[0];
    expect(item.text).toMatch(
      new RegExp(`^Your ticket ${T1} won TK\\. [\\d,]+ in Weekly Draw\\. Claim it on My tickets by \\d+ \\w{3} \\d{4}\\.$`),
    );
    expect(item.link).toMatch(/^\/user\/prize-claim\/\d+$/);
    await t.app.messages.dispatch();
    expect(t.messages).toEqual([]);
  });

  test('a payout marked failed: the winner is told once, however often staff press', async () => {
    const lottery = await insertLottery(t, { name: 'Weekly Draw' });
    await decide(await purchased(a, lottery), 'success');
    const d = await drawByHand(t, lottery, [T1]);
    const prize = d.body.prizes[0].id as number;
    const claim = await t.db.one<{ id: number }>(
      `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name, submitted_at)
       VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01712345678', 'Rahim Uddin', now() - interval '5 days') RETURNING id`,
      [prize, a.id],
    );
    await to(t, api.failTransfer, { params: { id: claim?.id }, as: staff }).expect(200);
    await to(t, api.failTransfer, { params: { id: claim?.id }, as: staff }).expect(200);
    const kinds = (await stored()).map((m) => m.kind);
    expect(kinds).toEqual(['ticket_confirmed', 'prize_won', 'payout_failed']);
  });
});

test('a payout marked sent (after a second staff member approved it): the winner is told once, with the amount', async () => {
  const lottery = await insertLottery(t, { name: 'Weekly Draw' });
  await decide(await purchased(a, lottery), 'success');
  const d = await drawByHand(t, lottery, [T1]);
  const prize = d.body.prizes[0] as { id: number; prize_money: number };
  const claim = await t.db.one<{ id: number }>(
    `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name, submitted_at)
     VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01712345678', 'Rahim Uddin', now() - interval '5 days') RETURNING id`,
    [prize.id, a.id],
  );
  const approver = await account(t, { is_staff: true });
  await to(t, api.approveTransfer, { params: { id: claim?.id }, as: approver }).expect(200);
  // Paid by bKash (the simulator): Pay now once; pressing again is refused, and nobody is told twice.
  await to(t, api.payNow, { params: { id: claim?.id }, as: staff }).expect(200);
  await to(t, api.payNow, { params: { id: claim?.id }, as: staff }).expect(409);
  expect((await stored()).filter((m) => m.kind === 'payout_sent')).toHaveLength(1);
  const item = (await list(a)).body.items[0];
  expect(item).toMatchObject({ kind: 'payout_sent', title: 'Prize sent' });
  expect(item.text).toMatch(
    /^Your prize of TK\. [\d,]+ for ticket 05-12-23-34-45-07 in Weekly Draw has been paid to your bKash wallet\. bKash TrxID [A-Z0-9]{10}\.$/,
  );
});

describe('two instances on one database', () => {
  test('both senders at once: every SMS goes once; both reminder jobs at once: one reminder per prize', async () => {
    const db = await testDatabase();
    const sent: Message[] = [];
    const notifier = { sendCode: async () => undefined, send: async (m: Message) => void sent.push(m) };
    const apps: App[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const config = loadConfig({
          NODE_ENV: 'test',
          DATA_DIR: `/tmp/bhagya-msg-${process.pid}-${i}`,
          SECRET_KEY: 'm'.repeat(48),
          SEED_DEMO: 'false',
          LOG_LEVEL: 'silent',
          PORT: '0',
          PASSWORD_HASH_COST: '10',
        });
        apps.push(await createApp(config, { db: await db.open(), notifier, sendMessages: false }));
      }
      const [one, two] = apps as [App, App];
      const users = await one.db.query<{ id: number }>(
        `INSERT INTO users (name, phone, password_hash, is_active, phone_confirmed)
         SELECT 'Player ' || g, '0170000' || lpad(g::text, 4, '0'), 'x', true, true FROM generate_series(1, 8) g RETURNING id`,
      );
      const lottery = await one.db.one<{ id: number }>(
        `INSERT INTO lotteries (name, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, is_result_published, drawn_at)
         VALUES ('Old Draw', now() - interval '40 days', now() - interval '25 days', 100, 100, 8, 800, true, true, now() - interval '24 days') RETURNING id`,
      );
      for (const [i, u] of users.entries()) {
        const tx = await one.db.one<{ id: number }>(
          `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, $3, 100, 'bkash', 'success') RETURNING id`,
          [u.id, lottery?.id, `0${i + 1}-10-20-30-40-01`],
        );
        await one.db.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 100)', [
          lottery?.id,
          tx?.id,
          `0${i + 1}-10-20-30-40-01`,
        ]);
      }
      // Drawn 24 days ago: 6 days left of 30, so the 7-day reminder of each of the 8 prizes is due.
      // Both instances' reminder jobs at once, then both senders at once.
      await Promise.all([one.messages.remind(), two.messages.remind(), one.messages.remind()]);
      const runs = await Promise.all([
        one.messages.dispatch(3),
        two.messages.dispatch(3),
        one.messages.dispatch(3),
        two.messages.dispatch(3),
      ]);
      await Promise.all([one.messages.dispatch(), two.messages.dispatch()]);
      const rows = await one.db.query<{ event_key: string; sms_state: string }>(
        'SELECT event_key, sms_state FROM player_messages ORDER BY id',
      );
      expect(rows).toHaveLength(8);
      expect(new Set(rows.map((r) => r.event_key)).size).toBe(8);
      expect(rows.every((r) => r.event_key.startsWith('claim_reminder:7:') && r.sms_state === 'sent')).toBe(true);
      expect(sent).toHaveLength(8);
      expect(new Set(sent.map((m) => m.to)).size).toBe(8);
      expect(runs.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(8);
    } finally {
      for (const app of apps) await app.close();
      await db.drop();
    }
  });
});

describe('limits on SMS', () => {
  test(`at most ${DAILY_SMS_CAP} a player a day: the rest stay on the page, marked capped`, async () => {
    const lottery = await insertLottery(t, { total_tickets: 100 });
    for (let i = 1; i <= DAILY_SMS_CAP + 2; i++) await decide(await purchased(a, lottery, `0${i}-11-22-33-44-01`), 'success');
    await t.app.messages.dispatch();
    expect(t.messages).toHaveLength(DAILY_SMS_CAP);
    const states = (await stored()).map((m) => m.sms_state);
    expect(states.filter((s) => s === 'sent')).toHaveLength(DAILY_SMS_CAP);
    expect(states.filter((s) => s === 'capped')).toHaveLength(2);
    expect((await list(a)).body.total).toBe(DAILY_SMS_CAP + 2);
    // Another player's day is his own.
    const b = await account(t);
    await decide(await purchased(b, lottery, '09-11-22-33-44-01'), 'success');
    await t.app.messages.dispatch();
    expect(t.messages.filter((m) => m.to === b.phone)).toHaveLength(1);
  });

  // The embedded database's thread: the day's count is one message, run there whole (its lock, its count and its mark
  // with the COMMIT), so it never holds the database while the app's thread is busy (docs/decisions/099-writes-run-on-the-database-thread.md).
  (process.env.TEST_DATABASE_URL ? test.skip : test)(
    'on the embedded database, an SMS is counted against the day in one message to the database’s thread, sent or capped',
    async () => {
      const lottery = await insertLottery(t, { total_tickets: 100 });
      const counted = async () => {
        const batches = await messagesOf(() => t.app.messages.dispatch());
        // None of its statements went from the app's thread.
        expect(transactionsWith(batches, (r) => /pg_advisory_xact_lock\(hashtext/.test(r.sql ?? ''))).toEqual([]);
        return runsOf(batches, 'sms-reserve');
      };
      expect((await decide(await purchased(a, lottery), 'success')).status).toBe(200);
      expect(await counted()).toEqual([expect.objectContaining({ userId: a.id, cap: DAILY_SMS_CAP })]);
      expect(t.messages).toHaveLength(1);
      // The day is full: the next one is marked capped the same way, and not sent.
      await t.db.query(
        `INSERT INTO player_messages (user_id, kind, event_key, params, sms_state, sms_sent_at)
         SELECT $1, 'ticket_confirmed', 'day-filled:' || g, '{}', 'sent', now() FROM generate_series(1, $2) g`,
        [a.id, DAILY_SMS_CAP],
      );
      expect((await decide(await purchased(a, lottery, '02-11-22-33-44-01'), 'success')).status).toBe(200);
      expect(await counted()).toEqual([expect.objectContaining({ userId: a.id, cap: DAILY_SMS_CAP })]);
      expect(t.messages).toHaveLength(1);
      expect((await stored()).filter((m) => m.sms_state === 'capped')).toHaveLength(1);
    },
  );

  test('an instance that died after taking a message and before sending it: the message goes once its lease ends, not before', async () => {
    const lottery = await insertLottery(t, { name: 'Crash Draw' });
    const id = await purchased(a, lottery);
    expect((await decide(id, 'success')).status).toBe(200);
    // As the dead instance left it: taken (sending, one try) with a lease that has not ended yet.
    await t.db.query(`UPDATE player_messages SET sms_state = 'sending', sms_tries = 1, sms_lease_until = now() + interval '50 seconds'`);
    await t.app.messages.dispatch();
    expect(t.messages).toHaveLength(0);
    await t.db.query(`UPDATE player_messages SET sms_lease_until = now() - interval '1 second'`);
    await t.app.messages.dispatch();
    await t.app.messages.dispatch();
    expect(t.messages).toHaveLength(1);
    expect(await t.db.one('SELECT sms_state, sms_tries FROM player_messages')).toEqual({ sms_state: 'sent', sms_tries: 2 });
  });

  test('a send that fails is tried again by the next runs, then left failed after five tries', async () => {
    const failing = await startTestApp();
    try {
      const p = await account(failing);
      let calls = 0;
      failing.notifier.send = async () => {
        calls++;
        throw new NotifyError('gateway down');
      };
      const lottery = await insertLottery(failing);
      const res = await buy(failing, p, purchase(lottery, T1, { trx_id: 'TRXFAIL0001' }));
      expect((await approveByHand(failing, res.body.id)).status).toBe(200);
      for (let i = 0; i < 7; i++) await failing.app.messages.dispatch();
      expect(calls).toBe(5);
      expect(await failing.db.one('SELECT sms_state, sms_tries FROM player_messages')).toEqual({ sms_state: 'failed', sms_tries: 5 });
    } finally {
      await failing.close();
    }
  });
});

describe('the kinds a player chooses', () => {
  const settings = (p: Player | null, body?: unknown, lng = 'en') =>
    body === undefined
      ? to(t, api.messageSettings, { as: p, lang: lng })
      : to(t, api.setMessageSettings, { as: p, lang: lng }).send(body as object);

  test('defaults: Bengali, claim reminders on, new lotteries off; a change is kept; each bad body 400 and nothing changed', async () => {
    expect((await settings(a)).body).toEqual({ language: 'bn', claim_reminder: true, new_lottery: false });
    expect((await settings(a, { language: 'en', claim_reminder: false, new_lottery: true })).body).toEqual({
      language: 'en',
      claim_reminder: false,
      new_lottery: true,
    });
    for (const bad of [
      {},
      { language: 'fr', claim_reminder: true, new_lottery: true },
      { language: 'en', claim_reminder: 'yes', new_lottery: true },
      { language: 'en', claim_reminder: true },
      { language: 'en', claim_reminder: true, new_lottery: true, winner: false },
      [],
    ]) {
      const res = await settings(a, bad);
      expect(res.status).toBe(400);
    }
    const bn = await settings(a, { language: 'xx', claim_reminder: true, new_lottery: true }, 'bn');
    expect(bn.body).toEqual({ language: ['আপনার বার্তার ভাষা হিসেবে ইংরেজি বা বাংলা বেছে নিন।'] });
    expect((await settings(a)).body).toEqual({ language: 'en', claim_reminder: false, new_lottery: true });
  });

  test('claim reminders switched off: none written; on: one', async () => {
    const b = await account(t);
    await settings(a, { language: 'bn', claim_reminder: false, new_lottery: false }).expect(200);
    const lottery = await insertLottery(t);
    for (const [p, ticket] of [
      [a, T1],
      [b, '01-02-03-04-05-06'],
    ] as const)
      await decide(await purchased(p, lottery, ticket), 'success');
    expect((await drawByHand(t, lottery, [T1, '01-02-03-04-05-06'])).status).toBe(201);
    await t.db.query(`UPDATE lotteries SET drawn_at = now() - interval '29 days 12 hours' WHERE id = $1`, [lottery]);
    await t.app.messages.remind();
    await t.app.messages.dispatch();
    const reminders = (await stored()).filter((m) => m.kind === 'claim_reminder');
    // Inside the last day: the last-day reminder only, to b alone.
    expect(reminders).toEqual([expect.objectContaining({ user_id: b.id, event_key: expect.stringMatching(/^claim_reminder:1:/) })]);
  });

  test('a new lottery: told to players who opted in and bought one of its kind, never to a self-excluded one or one on a time-out', async () => {
    const [keen, quiet, excluded, never, onBreak] = await Promise.all([account(t), account(t), account(t), account(t), account(t)]);
    const old = await insertLottery(t);
    for (const [i, p] of [keen, quiet, excluded, onBreak].entries())
      await decide(await purchased(p, old, `0${i + 1}-12-23-34-45-07`), 'success');
    for (const p of [keen, excluded, never, onBreak])
      await settings(p, { language: 'en', claim_reminder: true, new_lottery: true }).expect(200);
    await t.db.query(`INSERT INTO play_limits (user_id, excluded_until, excluded_at) VALUES ($1, now() + interval '180 days', now())`, [
      excluded.id,
    ]);
    await to(t, api.timeOut, { as: onBreak }).send({ period: '24h', confirm: true }).expect(200);
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
    const made = await to(t, api.createLottery, { as: staff }).send({
      name: 'Victory Day Special',
      description: 'A new draw',
      start_date: day(-1),
      end_date: day(5),
      ticket_price: 50,
      total_tickets: 1000,
      winners: 1,
      total_prize: 5000,
      published: true,
    });
    expect(made.status).toBe(201);
    const told = (await stored()).filter((m) => m.kind === 'new_lottery');
    expect(told).toEqual([expect.objectContaining({ user_id: keen.id })]);
    const item = (await list(keen)).body.items[0];
    expect(item.text).toMatch(/^Victory Day Special is on sale: tickets TK\. 50, draw on \d+ \w{3} \d{4}\.$/);
  });
});

describe('GET /api/v1/notifications/ and POST …/read/', () => {
  test('paged newest first; reading up to an id; only one’s own; each bad input 400; 401 without login', async () => {
    const lottery = await insertLottery(t, { total_tickets: 100 });
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const id = await purchased(a, lottery, `0${i}-11-22-33-44-01`);
      ids.push(id);
      await decide(id, 'success');
    }
    const b = await account(t);
    const page = (await list(a, { limit: 2 })).body;
    expect(page).toMatchObject({ total: 3, unread: 3 });
    expect(page.items).toHaveLength(2);
    expect(page.items[0].id).toBeGreaterThan(page.items[1].id);
    expect((await list(a, { limit: 2, offset: 2 })).body.items).toHaveLength(1);
    expect((await list(b)).body).toEqual({ items: [], total: 0, unread: 0 });
    // b cannot read a's messages by naming their ids: his read touches his own only.
    expect((await to(t, api.readNotifications, { as: b }).send({}).expect(200)).body).toEqual({ unread: 0 });
    expect((await list(a)).body.unread).toBe(3);
    const second = page.items[1].id as number;
    expect((await to(t, api.readNotifications, { as: a }).send({ up_to: second })).body).toEqual({ unread: 1 });
    expect((await list(a)).body.items.map((m: { read: boolean }) => m.read)).toEqual([false, true, true]);
    expect((await to(t, api.readNotifications, { as: a }).send({})).body).toEqual({ unread: 0 });
    for (const q of [{ limit: 0 }, { limit: 51 }, { offset: -1 }, { limit: 'x' }, { page: 2 }]) expect((await list(a, q)).status).toBe(400);
    for (const body of [{ up_to: 0 }, { up_to: 'x' }, { up_to: 1.5 }, { all: true }]) {
      const res = await to(t, api.readNotifications, { as: a }).send(body);
      expect(res.status).toBe(400);
    }
    expect((await to(t, api.readNotifications, { as: a, lang: 'bn' }).send({ up_to: -2 })).body).toEqual({
      up_to: ['পড়া সর্বশেষ বার্তাটি তার নম্বর দিয়ে জানান (শূন্যের বেশি একটি পূর্ণ সংখ্যা)।'],
    });
    for (const e of [api.notifications, api.readNotifications, api.messageSettings, api.setMessageSettings])
      expect((await to(t, e).send({})).status).toBe(401);
    // Staff are players too: their own (empty) list.
    expect((await list(staff)).body).toEqual({ items: [], total: 0, unread: 0 });
  });
});
