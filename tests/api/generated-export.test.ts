/**
 * The CSV export of generated tickets (docs/rules/tickets.md#8-deleting-and-exporting-generated-tickets):
 * GET /api/v1/generated-tickets/export/ — staff only, one lottery, its non-activated tickets matching the search, the
 * spec's columns, quoting and file name, byte for byte; streamed in batches (more tickets than one batch); and the
 * same download through the page server's /bff with a staff session (the no-JavaScript link). On PGlite and PostgreSQL.
 */
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to, viaBff } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { EXPORT_BATCH } from '../../server/generated-tickets/export.ts';
import { sealAtStart } from '../../server/crypto/seal-at-start.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let player: Player, staff: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin' });
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

const exportOf = (p: Player | null, query: Record<string, unknown>) =>
  to(t, api.exportGeneratedTickets, { query, as: p, lang: 'en' })
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });

/** A lottery whose name needs quoting, with fixed dates (Dhaka 5 Dec 2026, 8 PM) and two generated tickets, one activated. */
async function fixture(): Promise<number> {
  const id = await insertLottery(t, { name: 'Padma "Big", Draw\nSpecial', price: 150 });
  await t.db.query(`UPDATE lotteries SET end_date = '2026-12-05T14:00:00Z', total_prize = 500000 WHERE id = $1`, [id]);
  await t.db.query(
    `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number, created_at) VALUES
       ($1, '01-02-03-04-05-06', '1234567812345678', '2026-11-20T04:30:00Z'),
       ($1, '07-08-09-10-11-12', '8765432187654321', '2026-11-20T04:31:00Z')`,
    [id],
  );
  // Written in clear as before migration 027: sealed by the start-up step, as on the first start after it.
  await sealAtStart(t.db, t.keys);
  return id;
}

describe('GET /api/v1/generated-tickets/export/', () => {
  test('staff only: anonymous 401, a player 403', async () => {
    const id = await fixture();
    expect((await exportOf(null, { lottery_id: id })).status).toBe(401);
    expect((await exportOf(player, { lottery_id: id })).status).toBe(403);
  });

  test('the file byte for byte: BOM, the columns in order, quoting, Dhaka times, only non-activated tickets', async () => {
    const id = await fixture();
    // Activate the second one through the API's own path: a player's success transaction.
    const res0 = await to(t, api.activateTicket, { as: player }).send({
      ticket_number: '07-08-09-10-11-12',
      secret_number: '8765 4321 8765 4321',
    });
    expect(res0.status).toBe(200);
    const res = await exportOf(staff, { lottery_id: id });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date(Date.now() + 6 * 3600 * 1000).toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="bhagya-tickets-Padma-Big,-Draw-Special-${today}.csv"; filename*=UTF-8''${encodeURIComponent(`bhagya-tickets-Padma-Big,-Draw-Special-${today}.csv`)}`,
    );
    const expected =
      '\ufeff' +
      'Ticket Number,Secret Key,Lottery Name,Ticket Price,Total Prize,Draw Date,Created Date,Is Activated,Activated By,Activated At\r\n' +
      '01-02-03-04-05-06,1234567812345678,"Padma ""Big"", Draw\nSpecial",150,500000,2026-12-05 20:00,2026-11-20 10:30,No,,\r\n';
    expect((res.body as Buffer).toString('utf8')).toBe(expected);
    expect((res.body as Buffer).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  test('a lottery name a spreadsheet would run as a formula is written as text (OWASP CSV injection)', async () => {
    // docs/rules/security.md#9-csv-files: each text cell starting with = + - @ tab or CR gets a ' in front and is quoted.
    for (const [name, cell] of [
      ['=1+2+cmd|"/C calc"!A0', `"'=1+2+cmd|""/C calc""!A0"`],
      ['+1+2', `"'+1+2"`],
      ['-1+2', `"'-1+2"`],
      ['@SUM(1+2)', `"'@SUM(1+2)"`],
      ['\t=1+2', `"'\t=1+2"`],
      ['\r=1+2', `"'\r=1+2"`],
    ] as const) {
      await t.db.query('DELETE FROM generated_tickets');
      await t.db.query('DELETE FROM lotteries');
      const id = await insertLottery(t, { name, price: 150 });
      await t.db.query(`UPDATE lotteries SET end_date = '2026-12-05T14:00:00Z', total_prize = 500000 WHERE id = $1`, [id]);
      await t.db.query(
        `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number, created_at)
         VALUES ($1, '01-02-03-04-05-06', '1234567812345678', '2026-11-20T04:30:00Z')`,
        [id],
      );
      await sealAtStart(t.db, t.keys);
      const res = await exportOf(staff, { lottery_id: id });
      expect(res.status).toBe(200);
      const body = (res.body as Buffer).toString('utf8');
      // The price and prize stay numbers; only the name's cell is neutralised.
      expect(body.split('\r\n').slice(1).join('\r\n')).toBe(
        `01-02-03-04-05-06,1234567812345678,${cell},150,500000,2026-12-05 20:00,2026-11-20 10:30,No,,\r\n`,
      );
    }
  });

  test('the search of the page narrows the file; nothing to export is 409; bad queries 400/404', async () => {
    const id = await fixture();
    const one = await exportOf(staff, { lottery_id: id, search: '1234 5678 1234 5678' });
    expect((one.body as Buffer).toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(2);
    // A sealed secret is found whole, never by a part (docs/decisions/049-secrets-sealed-at-rest.md).
    expect((await exportOf(staff, { lottery_id: id, search: '1234 5678' })).status).toBe(409);
    const none = await exportOf(staff, { lottery_id: id, search: 'nothing-like-this' });
    expect(none.status).toBe(409);
    expect(JSON.parse((none.body as Buffer).toString('utf8'))).toMatchObject({
      detail: 'No non-activated tickets to export',
      code: 'nothing_to_export',
    });
    expect((await exportOf(staff, {})).status).toBe(400);
    expect((await exportOf(staff, { lottery_id: 'abc' })).status).toBe(400);
    const unknown = await exportOf(staff, { lottery_id: 987654 });
    expect(unknown.status).toBe(404);
    expect(JSON.parse((unknown.body as Buffer).toString('utf8'))).toMatchObject({ detail: 'Lottery not found', code: 'not_found' });
    expect((await exportOf(staff, { lottery_id: id, activation: 'all' })).status).toBe(400);
  });

  test('more tickets than one batch: every one, once, in id order', async () => {
    const id = await insertLottery(t, { total_tickets: 100000 });
    const n = EXPORT_BATCH * 2 + 7;
    await t.db.query(
      `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number)
       SELECT $1, lpad((i % 50 + 1)::text, 2, '0') || '-' || lpad((i / 50 % 50 + 1)::text, 2, '0') || '-' || lpad((i / 2500 % 50 + 1)::text, 2, '0') || '-52-53-15',
              lpad(i::text, 16, '0')
       FROM generate_series(1, $2) AS i`,
      [id, n],
    );
    await sealAtStart(t.db, t.keys);
    const res = await exportOf(staff, { lottery_id: id });
    expect(res.status).toBe(200);
    const lines = (res.body as Buffer).toString('utf8').split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(n);
    expect(lines.map((l) => l.split(',')[1])).toEqual(Array.from({ length: n }, (_, i) => String(i + 1).padStart(16, '0')));
  });

  test('through /bff with a staff session (the page link works without JavaScript)', async () => {
    const id = await fixture();
    const u = await createUser(t, { name: 'Link Staff', is_staff: true });
    const agent = await loginAs(t.url, u.phone, u.password);
    const res = await agent.get(viaBff(api.exportGeneratedTickets, {}, { lottery_id: id })).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="bhagya-tickets-/);
    expect(res.text).toContain('01-02-03-04-05-06,1234567812345678');
  });
});
