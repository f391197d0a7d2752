/**
 * Activating a generated ticket (docs/rules/tickets.md#7-activating-a-generated-ticket): a logged-in player sends the
 * ticket number and the secret (any accepted form, Bengali digits, spaces and dashes in the secret); a correct pair
 * makes his success transaction; a wrong one says nothing of which half was wrong and counts against the player and his
 * address, never against the ticket number (lockouts.test.ts: its owner always gets in); once per ticket, even under a
 * race. On PGlite and PostgreSQL.
 */
import { toDigits } from '../../shared/dates.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let a: Player, b: Player, c: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  c = await account(t, { name: 'Karim Mia' });
  staff = await account(t, { name: 'Ticket Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'generated_tickets',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

type Generated = { id: number; ticket_number: string; secret_number: string };

const INVALID = { detail: 'Invalid ticket number or secret number', code: 'activation_invalid' };

let ipSeq = 0;
/** Each call from its own address unless told, so that the per-address limit stays out of the way. */
const activate = (p: Player | null, body: unknown, o: { lng?: string; ip?: string } = {}) =>
  to(t, api.activateTicket, { as: p, lang: o.lng ?? 'en' })
    .set('X-Forwarded-For', o.ip ?? `203.0.113.${(++ipSeq % 250) + 1}`)
    .send(body as object);

async function generated(lottery: number, quantity = 1): Promise<Generated[]> {
  const res = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity });
  expect(res.status).toBe(201);
  return res.body as Generated[];
}

const state = () =>
  t.db.query<{ id: number; activated_by: number | null; transaction_id: number | null }>(
    'SELECT id, activated_by, transaction_id FROM generated_tickets ORDER BY id',
  );
const transactions = () =>
  t.db.query<{ user_id: number; ticket: string; status: string; transaction_type: string; payment_method: string; amount: number }>(
    'SELECT user_id, ticket, status, transaction_type, payment_method, amount FROM transactions ORDER BY id',
  );

/** The other secret: the same length, one digit changed. */
const otherSecret = (s: string) => s.slice(0, 15) + String((Number(s[15]) + 1) % 10);

test('a correct pair makes the player a success transaction shown in my-transactions as an activation', async () => {
  const lottery = await insertLottery(t, { name: 'Eid Bumper', name_bn: 'ঈদ বাম্পার', price: 50 });
  const [g] = await generated(lottery);
  const res = await activate(a, { ticket_number: g!.ticket_number, secret_number: g!.secret_number });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    lottery_id: lottery,
    lottery_name: 'Eid Bumper',
    status: 'success',
    ticket: g!.ticket_number,
    transaction_id: expect.any(Number),
  });
  expect(await transactions()).toEqual([
    { user_id: a.id, ticket: g!.ticket_number, status: 'success', transaction_type: 'activation', payment_method: 'generated', amount: 50 },
  ]);
  expect(await state()).toEqual([{ id: g!.id, activated_by: a.id, transaction_id: res.body.transaction_id }]);
  const mine = await to(t, api.myTransactions, { as: a });
  expect(mine.body).toHaveLength(1);
  expect(mine.body[0]).toMatchObject({
    id: res.body.transaction_id,
    transaction_type: 'activation',
    status: 'success',
    ticket: g!.ticket_number,
    amount: 50,
    lottery: { id: lottery, name: 'Eid Bumper' },
  });
  // The lottery's sold count does not change: the held generated ticket became a held transaction.
  const l = await to(t, api.getLottery, { params: { id: lottery } });
  expect(l.body.tickets_sold).toBe(1);
});

test('any accepted form: unpadded and unsorted ticket, Bengali digits, a secret with spaces and dashes; Bengali name', async () => {
  const lottery = await insertLottery(t, { name: 'Eid Bumper', name_bn: 'ঈদ বাম্পার' });
  const [g] = await generated(lottery);
  const [m1, m2, m3, m4, m5, last] = g!.ticket_number.split('-').map(Number);
  const ticket = toDigits(`${m5} - ${m4}-${m3}-${m2}-${m1}-${last}`, 'bn');
  const s = g!.secret_number;
  const secret = `${toDigits(s.slice(0, 4), 'bn')} ${s.slice(4, 8)}-${s.slice(8, 12)} ${s.slice(12)}`;
  const res = await activate(a, { ticket_number: ticket, secret_number: secret }, { lng: 'bn' });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ lottery_name: 'ঈদ বাম্পার', ticket: g!.ticket_number });
});

test('malformed input: field errors, nothing changes, nothing counted', async () => {
  const lottery = await insertLottery(t);
  const [g] = await generated(lottery);
  const cases: [unknown, Record<string, string[]>][] = [
    [{ secret_number: g!.secret_number }, { ticket_number: ['This field is required.'] }],
    [{ ticket_number: '', secret_number: g!.secret_number }, { ticket_number: ['Please enter the ticket number.'] }],
    [{ ticket_number: g!.ticket_number, secret_number: '' }, { secret_number: ['Please enter the secret number.'] }],
    [
      { ticket_number: '05-12-23-34-45', secret_number: g!.secret_number },
      { ticket_number: ['A ticket is 5 different numbers from 1 to 55 and a last number from 1 to 15, for example 05-12-23-34-45-07.'] },
    ],
    [{ ticket_number: '05-05-23-34-45-07', secret_number: g!.secret_number }, { ticket_number: [expect.stringContaining('A ticket is')] }],
    [{ ticket_number: g!.ticket_number, secret_number: '123456781234567' }, { secret_number: ['The secret number has 16 digits.'] }],
    [{ ticket_number: g!.ticket_number, secret_number: '12345678123456789' }, { secret_number: ['The secret number has 16 digits.'] }],
    [{ ticket_number: g!.ticket_number, secret_number: '1234abcd12345678' }, { secret_number: ['The secret number has 16 digits.'] }],
    [
      { ticket_number: g!.ticket_number, secret_number: `${g!.secret_number}\u0000` },
      { secret_number: ['This field contains characters that are not allowed.'] },
    ],
    [
      { ticket_number: `${g!.ticket_number}\u0007`, secret_number: g!.secret_number },
      { ticket_number: ['This field contains characters that are not allowed.'] },
    ],
    [{ ticket_number: 5, secret_number: g!.secret_number }, { ticket_number: [expect.stringContaining('')] }],
    [{ ticket_number: g!.ticket_number, secret_number: g!.secret_number, lottery_id: lottery }, { lottery_id: [expect.any(String)] }],
  ];
  for (const [body, errors] of cases) {
    const res = await activate(a, body);
    expect([res.status, res.body]).toEqual([400, errors]);
  }
  expect(await transactions()).toEqual([]);
  expect((await state())[0]!.activated_by).toBeNull();
  expect(await t.db.query('SELECT key FROM rate_limits')).toEqual([]);
  expect((await activate(null, { ticket_number: g!.ticket_number, secret_number: g!.secret_number })).status).toBe(401);
  expect((await state())[0]!.activated_by).toBeNull();
});

test('a wrong secret, an unknown ticket, a secret of another ticket: one answer, nothing changes', async () => {
  const lottery = await insertLottery(t);
  const [g, h] = await generated(lottery, 2);
  const answers = [
    await activate(a, { ticket_number: g!.ticket_number, secret_number: otherSecret(g!.secret_number) }),
    await activate(a, { ticket_number: g!.ticket_number, secret_number: h!.secret_number }),
    await activate(b, {
      ticket_number: g!.ticket_number === '01-02-03-04-05-06' ? '01-02-03-04-05-07' : '01-02-03-04-05-06',
      secret_number: g!.secret_number,
    }),
  ];
  for (const res of answers) expect([res.status, res.body]).toEqual([400, INVALID]);
  const bn = await activate(b, { ticket_number: g!.ticket_number, secret_number: otherSecret(g!.secret_number) }, { lng: 'bn' });
  expect(bn.body.detail).toBe('টিকিট নম্বর বা গোপন নম্বর সঠিক নয়');
  expect(await transactions()).toEqual([]);
  expect((await state()).every((r) => r.activated_by === null)).toBe(true);
});

test('already activated: another player gets the wrong-pair answer; the same player gets his activation again', async () => {
  const lottery = await insertLottery(t);
  const [g] = await generated(lottery);
  const pair = { ticket_number: g!.ticket_number, secret_number: g!.secret_number };
  const first = await activate(a, pair);
  expect(first.status).toBe(200);
  const other = await activate(b, pair);
  expect([other.status, other.body]).toEqual([400, INVALID]);
  const again = await activate(a, pair);
  expect(again.status).toBe(200);
  expect(again.body).toEqual(first.body);
  expect(await transactions()).toHaveLength(1);
});

test('sales closed (end date passed or results published): "This lottery is no longer active", nothing changes', async () => {
  const lottery = await insertLottery(t);
  const [g, h] = await generated(lottery, 2);
  await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 minute', start_date = now() - interval '2 days'`);
  const ended = await activate(a, { ticket_number: g!.ticket_number, secret_number: g!.secret_number });
  expect([ended.status, ended.body]).toEqual([409, { detail: 'This lottery is no longer active', code: 'lottery_ended' }]);
  await t.db.query(`UPDATE lotteries SET end_date = now() + interval '1 day', is_result_published = true`);
  const drawn = await activate(a, { ticket_number: h!.ticket_number, secret_number: h!.secret_number });
  expect([drawn.status, drawn.body.code]).toEqual([409, 'lottery_ended']);
  const bn = await activate(a, { ticket_number: h!.ticket_number, secret_number: h!.secret_number }, { lng: 'bn' });
  expect(bn.body.detail).toBe('এই লটারিটি আর সক্রিয় নেই');
  expect(await transactions()).toEqual([]);
  expect((await state()).every((r) => r.activated_by === null)).toBe(true);
});

test('concurrent activations of one ticket by three players: exactly one wins', async () => {
  const lottery = await insertLottery(t);
  const [g] = await generated(lottery);
  const pair = { ticket_number: g!.ticket_number, secret_number: g!.secret_number };
  const results = await Promise.all([activate(a, pair), activate(b, pair), activate(c, pair)]);
  const won = results.filter((r) => r.status === 200);
  expect(won).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 200)) expect([r.status, r.body]).toEqual([400, INVALID]);
  const rows = await transactions();
  expect(rows).toHaveLength(1);
  expect((await state())[0]!.activated_by).toBe(rows[0]!.user_id);
});

test('the same player twice at once: one transaction', async () => {
  const lottery = await insertLottery(t);
  const [g] = await generated(lottery);
  const pair = { ticket_number: g!.ticket_number, secret_number: g!.secret_number };
  const results = await Promise.all([activate(a, pair), activate(a, pair)]);
  expect(results.map((r) => r.status)).toEqual([200, 200]);
  expect(await transactions()).toHaveLength(1);
});

describe('guessing secrets', () => {
  test('per player: after 5 wrong pairs he waits, even with the right one', async () => {
    const lottery = await insertLottery(t);
    const [g, h] = await generated(lottery, 2);
    for (let i = 0; i < 5; i++)
      expect(
        (await activate(a, { ticket_number: i % 2 ? g!.ticket_number : h!.ticket_number, secret_number: `${1000000000000000 + i}` }))
          .status,
      ).toBe(400);
    const blocked = await activate(a, { ticket_number: g!.ticket_number, secret_number: g!.secret_number });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('throttled');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(await transactions()).toEqual([]);
    // Another player is not held up by a's tries.
    expect((await activate(b, { ticket_number: h!.ticket_number, secret_number: h!.secret_number })).status).toBe(200);
  });

  test('per ticket number nothing: wrong secrets from many players lock neither the ticket nor its owner', async () => {
    const lottery = await insertLottery(t);
    const [g] = await generated(lottery);
    const players = [a, c, await account(t), await account(t), await account(t), await account(t)];
    for (const [i, p] of players.entries())
      expect((await activate(p, { ticket_number: g!.ticket_number, secret_number: `${2000000000000000 + i}` })).status).toBe(400);
    expect((await activate(b, { ticket_number: g!.ticket_number, secret_number: g!.secret_number })).status).toBe(200);
    expect((await state())[0]!.activated_by).toBe(b.id);
  });

  test('per address: 20 wrong pairs from one address, whatever the players, then a player who failed there waits', async () => {
    const lottery = await insertLottery(t);
    const [g] = await generated(lottery);
    const players = await Promise.all(Array.from({ length: 5 }, () => account(t)));
    const ip = '198.51.100.77';
    let n = 0;
    for (const p of players)
      for (let i = 0; i < 4; i++) {
        const res = await activate(
          p,
          { ticket_number: `01-02-03-04-${String(10 + (n % 40)).padStart(2, '0')}-0${(n % 9) + 1}`, secret_number: '1111222233334444' },
          { ip },
        );
        n++;
        expect(res.status).toBe(400);
      }
    // Each of them has failed: held back there, even with the right pair; elsewhere only by his own count (4 < 5).
    const blocked = await activate(players[0]!, { ticket_number: g!.ticket_number, secret_number: g!.secret_number }, { ip });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('throttled');
    // A fresh account there gets one wrong try, then waits: one machine with many accounts gains one try per account.
    const fresh = await account(t);
    expect((await activate(fresh, { ticket_number: g!.ticket_number, secret_number: '1111222233334444' }, { ip })).status).toBe(400);
    expect((await activate(fresh, { ticket_number: g!.ticket_number, secret_number: g!.secret_number }, { ip })).status).toBe(429);
    expect(await transactions()).toEqual([]);
    // A player who has not failed is not held back by the address's count (a shared mobile address).
    expect((await activate(a, { ticket_number: g!.ticket_number, secret_number: g!.secret_number }, { ip })).status).toBe(200);
  });
});
