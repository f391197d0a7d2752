/**
 * What the back office's draw page needs (docs/rules/lotteries-and-sales.md#9-the-draw): a lottery's participants
 * paged and searched, a random winner chosen by the server, notifying winners once per prize (withholding a prize, which
 * replaced deleting one: tests/api/prize-withholding.test.ts).
 * Staff only; changes audited. On PGlite and PostgreSQL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../../server/log.ts';
import { genericGateway } from '../../server/notify/gateways/generic.ts';
import { liveNotifier, logNotifier } from '../../server/notify/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, drawByHand, insertLottery, type Player, sold as soldBy } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_ORIGIN: 'https://bhagya.example' });
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum', email: 'fatema@example.com' });
  staff = await account(t, { name: 'Draw Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of ['audit_log', 'prize_payouts', 'prize_claims', 'prizes', 'transactions', 'lotteries', 'rate_limits', 'outbox'])
    await t.db.query(`DELETE FROM ${table}`);
  t.messages.length = 0;
  await t.db.query('UPDATE users SET phone = $2 WHERE id = $1', [b.id, b.phone]);
});

const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const T3 = '10-20-30-40-50-15';
const T4 = '11-21-31-41-51-01';

const participants = (p: Player | null, lottery: number | string, query: Record<string, unknown> = {}) =>
  to(t, api.participants, { params: { lotteryId: lottery }, query, as: p, lang: 'en' });
const random = (p: Player | null, body: object) => to(t, api.randomWinner, { as: p, lang: 'en' }).send(body);
const notify = (p: Player | null, body: object) => to(t, api.notifyWinners, { as: p, lang: 'en' }).send(body);
async function draw(tickets: string[], lottery: number) {
  const res = await drawByHand(t, lottery, tickets);
  expect(res.status).toBe(201);
  return res;
}

/** A ticket bought by this player and approved (status success), unless told to leave it as it is. */
const sold = (p: Player, lottery: number, ticket: string, status?: 'success' | 'pending' | 'failed') =>
  soldBy(t, staff, p, lottery, ticket, status);

const audit = (action: string) =>
  t.db.query<{ actor_id: number; entity: string; entity_id: string; before: Record<string, unknown> | null; after: unknown }>(
    'SELECT actor_id, entity, entity_id, before, after FROM audit_log WHERE action = $1 ORDER BY id',
    [action],
  );

describe('who may', () => {
  test('anonymous 401 and a player 403 on every endpoint; nothing changes', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await draw([T1], lottery);
    const calls = (p: Player | null) => [participants(p, lottery), random(p, { lottery_id: lottery }), notify(p, { lottery_id: lottery })];
    for (const res of await Promise.all(calls(null))) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('not_authenticated');
    }
    for (const res of await Promise.all(calls(a))) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission_denied');
    }
    expect(await t.db.query('SELECT id FROM prizes')).toHaveLength(1);
    expect(t.messages).toEqual([]);
  });

  test('unknown lottery: 404; a bad id is 404, a bad body 400', async () => {
    expect((await participants(staff, 999999)).status).toBe(404);
    expect((await participants(staff, 'x')).status).toBe(404);
    expect((await random(staff, { lottery_id: 999999 })).status).toBe(404);
    expect((await random(staff, { lottery_id: 'x' })).status).toBe(400);
    expect((await random(staff, { lottery_id: 1, exclude: ['nonsense'] })).status).toBe(400);
    expect((await notify(staff, { lottery_id: 999999 })).status).toBe(404);
    expect((await notify(staff, {})).status).toBe(400);
  });
});

describe('participants', () => {
  test('success transactions only, in the order bought, paged with X-Total-Count, N/A data as null', async () => {
    const lottery = await insertLottery(t);
    const other = await insertLottery(t);
    const ids = [await sold(a, lottery, T1), await sold(b, lottery, T2), await sold(a, lottery, T3)];
    await sold(a, lottery, T4, 'pending');
    await sold(b, other, T4);
    // An account with an e-mail and no phone: its phone is null.
    await t.db.query('UPDATE users SET phone = NULL WHERE id = $1', [b.id]);
    const first = await participants(staff, lottery, { limit: 2, offset: 0 });
    expect(first.status).toBe(200);
    expect(first.headers['x-total-count']).toBe('3');
    expect(first.body).toEqual([
      expect.objectContaining({ id: ids[0], name: 'Rahim Uddin', phone: a.phone, amount: 100, ticket: T1, status: 'success' }),
      expect.objectContaining({ id: ids[1], name: 'Fatema Begum', phone: null, ticket: T2 }),
    ]);
    const second = await participants(staff, lottery, { limit: 2, offset: 2 });
    expect(second.body.map((r: { ticket: string }) => r.ticket)).toEqual([T3]);
    expect((await participants(staff, lottery, { limit: 1000 })).status).toBe(400);
  });

  test('searched by name, phone or ticket (any written form), case-insensitive; % is a letter', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    const search = async (s: string) => (await participants(staff, lottery, { search: s })).body.map((r: { ticket: string }) => r.ticket);
    expect(await search('fatema')).toEqual([T2]);
    expect(await search(a.phone.slice(-6))).toEqual([T1]);
    expect(await search(`+88${a.phone}`)).toEqual([T1]);
    expect(await search('5-12-23-34-45-7')).toEqual([T1]);
    expect(await search('০৫-১২-২৩-৩৪-৪৫-০৭')).toEqual([T1]);
    expect(await search('%')).toEqual([]);
  });
});

describe('random winner', () => {
  test('each success ticket is chosen over many calls; excluded, pending and other lotteries never', async () => {
    const lottery = await insertLottery(t);
    const other = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await sold(a, lottery, T3);
    await sold(b, lottery, T4, 'pending');
    await sold(b, other, T4);
    const seen = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const res = await random(staff, { lottery_id: lottery, exclude: ['10-20-30-40-50-15'] });
      expect(res.status).toBe(200);
      seen.set(res.body.ticket, (seen.get(res.body.ticket) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual([T2, T1].sort());
    // Uniform: with 60 draws between two tickets, each far from never.
    for (const n of seen.values()) expect(n).toBeGreaterThan(10);
    const one = await random(staff, { lottery_id: lottery, exclude: [T1, '30-10-20-40-50-15'] });
    expect(one.body).toMatchObject({ ticket: T2, name: 'Fatema Begum', status: 'success' });
  });

  test('none left: 409; a drawn lottery: 409; nothing is stored', async () => {
    const lottery = await insertLottery(t);
    const none = await random(staff, { lottery_id: lottery });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: 'no_tickets_left', detail: 'There is no approved ticket left to choose in this lottery.' });
    await sold(a, lottery, T1);
    expect((await random(staff, { lottery_id: lottery, exclude: [T1] })).status).toBe(409);
    await draw([T1], lottery);
    const drawn = await random(staff, { lottery_id: lottery });
    expect(drawn.status).toBe(409);
    expect(drawn.body.code).toBe('already_drawn');
    expect(await audit('lottery.draw')).toHaveLength(1);
  });
});

describe('notifying winners', () => {
  test('results not published: 409, nothing sent', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    const res = await notify(staff, { lottery_id: lottery });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('results_not_published');
    // Drawn, then the results taken back: still 409.
    await draw([T1], lottery);
    await t.db.query('UPDATE lotteries SET is_result_published = false WHERE id = $1', [lottery]);
    expect((await notify(staff, { lottery_id: lottery })).status).toBe(409);
    expect(t.messages).toEqual([]);
  });

  test('one message per prize, SMS to a phone or e-mail without one, in the winner’s language; pressed twice, nothing more', async () => {
    const lottery = await insertLottery(t, { name: 'Padma Weekly', name_bn: 'পদ্মা সাপ্তাহিক' });
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await draw([T1, T2], lottery);
    await t.db.query('UPDATE users SET phone = NULL WHERE id = $1', [b.id]);
    // Rahim reads his messages in English, Fatema in Bengali (docs/rules/messages.md).
    await t.db.query(`UPDATE users SET language = CASE WHEN id = $1 THEN 'en' ELSE 'bn' END WHERE id IN ($1, $2)`, [a.id, b.id]);
    const res = await notify(staff, { lottery_id: lottery });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'Winners notified successfully! 2 messages sent.', notified: 2, failed: 0 });
    expect(t.messages.map((m) => [m.channel, m.to, m.purpose])).toEqual([
      ['sms', a.phone, 'winner'],
      ['email', 'fatema@example.com', 'winner'],
    ]);
    const text = t.messages[0]!.text;
    expect(text).toContain('Padma Weekly');
    expect(text).toContain(T1);
    expect(text).toContain('TK. 50,000');
    expect(text).toContain('30 days');
    expect(text).toContain('My tickets: https://bhagya.example/my-lotteries'); // a link the phone can open (PUBLIC_ORIGIN)
    expect(text).not.toMatch(/[\u0980-\u09FF]/); // English alone: no Bengali letter or digit
    const bn = t.messages[1]!;
    expect(bn.subject).toContain('পদ্মা সাপ্তাহিক');
    expect(bn.text).toContain('পদ্মা সাপ্তাহিক');
    expect(bn.text).toContain('৳৫০,০০০');
    expect(bn.text).toContain('০১-০২-০৩-০৪-০৫-০৬'); // her ticket, in Bengali digits
    expect(bn.text).toContain('https://bhagya.example/my-lotteries');
    expect(bn.text).not.toContain('Padma Weekly');
    expect(bn.text).not.toContain('30 days');

    const again = await notify(staff, { lottery_id: lottery });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ notified: 0, failed: 0 });
    expect(again.body.detail).toContain('already been notified');
    expect(t.messages).toHaveLength(2);
    const records = await audit('lottery.notify_winners');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ actor_id: staff.id, entity: 'lottery', entity_id: String(lottery) });
  });

  test('pressed concurrently: one message per prize', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await sold(b, lottery, T2);
    await draw([T1, T2], lottery);
    const all = await Promise.all([1, 2, 3, 4].map(() => notify(staff, { lottery_id: lottery })));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(all.reduce((n, r) => n + (r.body.notified as number), 0)).toBe(2);
    expect(t.messages.map((m) => m.to).sort()).toEqual([a.phone, b.phone].sort());
  });

  test('a message that could not be sent is tried again on the next press; none sent at all is a 503', async () => {
    const lottery = await insertLottery(t);
    await sold(a, lottery, T1);
    await draw([T1], lottery);
    const { NotifyError } = await import('../../server/notify/index.ts');
    const send = t.notifier.send;
    t.notifier.send = async () => {
      throw new NotifyError('gateway down');
    };
    try {
      const res = await notify(staff, { lottery_id: lottery });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('send_failed');
    } finally {
      t.notifier.send = send;
    }
    const retry = await notify(staff, { lottery_id: lottery });
    expect(retry.body).toMatchObject({ notified: 1, failed: 0 });
    expect(t.messages).toHaveLength(1);
  });
});

describe('the transports send a message without a code', () => {
  const message = {
    channel: 'sms' as const,
    to: '01733333333',
    purpose: 'winner' as const,
    subject: 'Bhagya: you won',
    text: 'You won TK. 500.',
  };

  test('log transport: the outbox keeps the text, the log one line without it', async () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (s: string) => void lines.push(s) });
    await logNotifier(t.db, log).send(message);
    expect(await t.db.query('SELECT channel, recipient, purpose, body FROM outbox')).toEqual([
      { channel: 'sms', recipient: '01733333333', purpose: 'winner', body: 'You won TK. 500.' },
    ]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ notify: 'log', channel: 'sms', to: '01733333333', purpose: 'winner' });
    expect(lines[0]).not.toContain('You won');
    expect(lines[0]).not.toContain('"code"');
  });

  test('live transport: SMS to the gateway, e-mail through the mailer, recorded whole and marked sent', async () => {
    const received: unknown[] = [];
    const gw = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(raw));
        res.end('{}');
      });
    });
    await new Promise<void>((r) => gw.listen(0, '127.0.0.1', () => r()));
    const mails: unknown[] = [];
    try {
      const n = liveNotifier(t.db, createLogger('silent'), {
        mailer: { sendMail: async (m) => void mails.push(m) },
        mailFrom: 'Bhagya <no-reply@example.com>',
        sms: { primary: genericGateway(`http://127.0.0.1:${(gw.address() as AddressInfo).port}/send`, undefined) },
        timeoutMs: 2000,
      });
      await n.send(message);
      await n.send({ ...message, channel: 'email', to: 'w@example.com' });
    } finally {
      gw.close();
    }
    expect(received).toEqual([{ to: '01733333333', message: 'You won TK. 500.' }]);
    expect(mails).toEqual([
      { from: 'Bhagya <no-reply@example.com>', to: 'w@example.com', subject: 'Bhagya: you won', text: 'You won TK. 500.' },
    ]);
    const rows = await t.db.query<{ body: string; sent_at: string | null }>('SELECT body, sent_at FROM outbox ORDER BY id');
    expect(rows.map((r) => r.body)).toEqual(['You won TK. 500.', 'You won TK. 500.']);
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
  });
});
