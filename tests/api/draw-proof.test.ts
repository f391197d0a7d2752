/**
 * The announcement of a verifiable draw (docs/rules/draws.md#2-the-seed-and-its-commitment, #9-the-proof): a lottery
 * published through the API commits to a secret seed and names the drand round after its end of sales; the public
 * proof shows both and never the seed; the round follows the end of sales until it comes, then the end of sales is
 * fixed; a lottery drawn without the procedure says it cannot be checked. On PGlite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { execFile } from 'node:child_process';
import { quicknetRound, roundTime, selectWinners, verifyProof } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { storedCommitment } from '../helpers/sealed.ts';
import { keyringOf } from '../../server/crypto/sealed.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';

let t: TestApp;
let staff: Player;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Desk Staff', is_staff: true });
  player = await account(t, { name: 'Plain Player' });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of ['audit_log', 'prizes', 'generated_tickets', 'transactions', 'lotteries', 'rate_limits'])
    await t.db.query(`DELETE FROM ${table}`);
});

const DAY = 24 * 3600 * 1000;
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const proof = (id: number | string, lng = 'en') => request(t.url).get(`/api/v1/lotteries/${id}/draw-proof/`).set('Accept-Language', lng);
const create = (body: object) =>
  request(t.url)
    .post('/api/v1/lotteries/')
    .set(...staff.auth)
    .send(body);
const patch = (id: number, body: object, lng = 'en') =>
  request(t.url)
    .patch(`/api/v1/lotteries/${id}/`)
    .set(...staff.auth)
    .set('Accept-Language', lng)
    .send(body);
const stored = (id: number) => storedCommitment(t, id);
/** The end of sales as the lottery stores it (8 PM Dhaka on its end date). */
const endOf = async (id: number) =>
  new Date((await t.db.one<{ end_date: string }>('SELECT end_date FROM lotteries WHERE id = $1', [id]))!.end_date);

const lottery = (extra: object = {}) => ({
  name: 'Verifiable Weekly',
  winners: 2,
  ticket_price: 100,
  total_prize: 50000,
  start_date: day(-1),
  end_date: day(6),
  published: true,
  ...extra,
});

test('publishing announces the draw: a commitment to a secret seed and the drand round after the end of sales', async () => {
  const res = await create(lottery()).expect(201);
  const id = res.body.id as number;
  const c = await stored(id);
  expect(c?.seed).toMatch(/^[0-9a-f]{64}$/);
  // Kept sealed, never in clear: the row (and so a dump of it) does not hold the seed (docs/rules/draws.md#2).
  expect(c?.clear).toBeNull();
  expect(c?.seed_sealed).toMatch(new RegExp(`^v1:${t.keys.kid}:`));
  expect(c?.seed_sealed).not.toContain(c!.seed);
  expect(c?.commitment).toBe(createHash('sha256').update(Buffer.from(c!.seed, 'hex')).digest('hex'));
  const round = quicknetRound(await endOf(id));
  expect(Number(c?.beacon_round)).toBe(round);
  expect(roundTime(round).getTime()).toBeGreaterThan((await endOf(id)).getTime());

  const p = await proof(id).expect(200);
  expect(p.body).toEqual({ algorithm: 'bhagya-draw-v1', commitment: c?.commitment, beacon: { source: 'drand-quicknet', round } });

  // The seed is nowhere before the draw: not in the proof, the lottery's API answers, the audit log, nor its pages.
  const seen = [
    JSON.stringify(p.body),
    JSON.stringify(
      (
        await request(t.url)
          .get(`/api/v1/lotteries/${id}/`)
          .set(...staff.auth)
      ).body,
    ),
    JSON.stringify(
      (
        await request(t.url)
          .get('/api/v1/lotteries/')
          .set(...staff.auth)
      ).body,
    ),
    JSON.stringify((await request(t.url).get('/api/v1/featured-lotteries/')).body),
    JSON.stringify(await t.db.query('SELECT * FROM audit_log')),
    (await request(t.url).get(`/quick-play?lottery=${id}`)).text,
    (await request(t.url).get('/all-lotteries')).text,
    (await request(t.url).get(`/results/${id}`)).text,
    // The staff's screens: the draw page and the generated tickets' CSV of the lottery.
    (await (await loginAs(t.url, staff.phone, 'secret-pass-1')).get(`/admin/lotteries/${id}/draw`)).text,
    await (async () => {
      await request(t.url)
        .post('/api/v1/generated-tickets/')
        .set(...staff.auth)
        .send({ lottery_id: id, quantity: 2 })
        .expect(201);
      return (
        await request(t.url)
          .get(`/api/v1/generated-tickets/export/?lottery_id=${id}`)
          .set(...staff.auth)
          .buffer(true)
          .parse((res, done) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
            res.on('end', () => done(null, body));
          })
          .expect(200)
      ).body as string;
    })(),
  ].join('\n');
  expect(seen).toContain('Verifiable draw');
  expect(seen).not.toContain(c!.seed);
  expect(seen).toContain(c!.commitment);
});

test('an unpublished lottery announces nothing until it is published; its proof is 404 like the lottery', async () => {
  const id = (await create(lottery({ published: false })).expect(201)).body.id as number;
  expect(await stored(id)).toBeUndefined();
  expect((await proof(id)).status).toBe(404);
  await patch(id, { published: true }).expect(200);
  expect(await stored(id)).toBeDefined();
  expect((await proof(id)).body.algorithm).toBe('bhagya-draw-v1');
  expect((await proof(999999)).status).toBe(404);
  const bad = await proof('abc', 'bn');
  expect(bad.status).toBe(404);
});

test('the round follows the end of sales while it has not come; the commitment never changes', async () => {
  const id = (await create(lottery()).expect(201)).body.id as number;
  const before = await stored(id);
  await patch(id, { end_date: day(9) }).expect(200);
  const after = await stored(id);
  expect(after?.commitment).toBe(before?.commitment);
  expect(Number(after?.beacon_round)).toBe(quicknetRound(await endOf(id)));
  expect(Number(after?.beacon_round)).toBeGreaterThan(Number(before?.beacon_round));
  // A change of anything else leaves the announcement as it is.
  await patch(id, { name: 'Verifiable Weekly II' }).expect(200);
  expect(await stored(id)).toEqual(after);
});

test('once the announced round has come, the end of sales cannot move: 409 in the caller’s language, nothing changed', async () => {
  const id = (await create(lottery()).expect(201)).body.id as number;
  // The announced round came an hour ago (its value may be public now).
  const past = quicknetRound(new Date(Date.now() - 3600_000));
  await t.db.query('UPDATE draw_commitments SET beacon_round = $2 WHERE lottery_id = $1', [id, past]);
  const end = await endOf(id);
  const res = await patch(id, { end_date: day(12) }, 'bn');
  expect(res.status).toBe(409);
  expect(res.body.end_date?.[0]).toContain('বিকন রাউন্ড');
  expect((await endOf(id)).getTime()).toBe(end.getTime());
  expect(Number((await stored(id))?.beacon_round)).toBe(past);
  expect(await t.db.query(`SELECT * FROM audit_log WHERE action = 'lottery.update'`)).toHaveLength(0);
});

test('a lottery made straight in the database announces on its first proof; one announcement even when asked at once', async () => {
  const id = await insertLottery(t, { name: 'Fixture Draw' });
  const [a, b] = await Promise.all([proof(id), proof(id)]);
  expect(a.status).toBe(200);
  expect(b.body).toEqual(a.body);
  expect(await t.db.query('SELECT * FROM draw_commitments WHERE lottery_id = $1', [id])).toHaveLength(1);
});

test('a lottery drawn without the procedure: "unverifiable", its commitment kept, never its seed', async () => {
  const id = (await create(lottery()).expect(201)).body.id as number;
  const c = await stored(id);
  await t.db.query('UPDATE lotteries SET drawn_at = now(), is_result_published = true WHERE id = $1', [id]);
  const p = await proof(id).expect(200);
  expect(p.body).toEqual({
    algorithm: 'unverifiable',
    commitment: c?.commitment,
    beacon: { source: 'drand-quicknet', round: Number(c?.beacon_round) },
  });
  expect(JSON.stringify(p.body)).not.toContain(c!.seed);
  // A drawn lottery made in the database has nothing announced.
  const old = await insertLottery(t, { results: true });
  expect((await proof(old).expect(200)).body).toEqual({ algorithm: 'unverifiable', commitment: null, beacon: null });
  // A player reads it like anyone.
  expect((await proof(id).set(...player.auth)).status).toBe(200);
});

describe('the draw by the procedure', () => {
  const BEACON = 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1';
  const beacon = (who: Player | null, id: number, value: string, lng = 'en') => {
    const r = request(t.url).put(`/api/v1/lotteries/${id}/draw-beacon/`).set('Accept-Language', lng);
    return (who ? r.set(...who.auth) : r).send({ value });
  };
  const draw = (who: Player | null, id: number, lng = 'en') => {
    const r = request(t.url).post(`/api/v1/lotteries/${id}/verifiable-draw/`).set('Accept-Language', lng);
    return who ? r.set(...who.auth) : r;
  };
  /** A published lottery with these paid tickets (and one unpaid), its sales ended an hour ago and its round come. */
  async function ended(tickets: string[], winners = 2): Promise<number> {
    const id = (await create(lottery({ winners })).expect(201)).body.id as number;
    for (const [i, ticket] of [...tickets, '09-18-27-36-45-01'].entries())
      await t.db.query(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, trx_id, status) VALUES ($1, $2, $3, 100, 'bkash', $4, $5)`,
        [player.id, id, ticket, `PRF${id}X${i}ABCD`, i < tickets.length ? 'success' : 'pending'],
      );
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 hour' WHERE id = $1`, [id]);
    await t.db.query('UPDATE draw_commitments SET beacon_round = $2 WHERE lottery_id = $1', [id, quicknetRound(await endOf(id))]);
    return id;
  }
  const TICKETS = ['05-12-23-34-45-07', '01-02-03-04-05-06', '13-21-34-40-51-01', '03-07-19-41-52-11'];

  test('who may: anonymous 401, a player 403, on the beacon and the draw; nothing changes', async () => {
    const id = await ended(TICKETS);
    expect((await beacon(null, id, BEACON)).status).toBe(401);
    expect((await beacon(player, id, BEACON)).status).toBe(403);
    expect((await draw(null, id)).status).toBe(401);
    expect((await draw(player, id)).status).toBe(403);
    expect(await stored(id)).toMatchObject({ commitment: expect.any(String) });
    expect(await t.db.query('SELECT * FROM prizes')).toHaveLength(0);
  });

  test('refused while sales are open, before the round, without the beacon, with a bad value, or changing it', async () => {
    const open = (await create(lottery()).expect(201)).body.id as number;
    const early = await beacon(staff, open, BEACON, 'bn');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('beacon_not_yet');
    expect((await draw(staff, open)).body.code).toBe('sales_open');

    const id = await ended(TICKETS);
    expect((await draw(staff, id)).body).toEqual({
      detail: expect.stringContaining(String(quicknetRound(await endOf(id)))),
      code: 'beacon_missing',
    });
    for (const bad of ['', 'xyz', BEACON.slice(1), `${BEACON}00`, 'g'.repeat(64)]) {
      const res = await beacon(staff, id, bad);
      expect(res.status).toBe(400);
      expect(res.body.value?.[0]).toMatch(/64 hexadecimal/);
    }
    // Pasted with capitals and spaces: the same value.
    const set = await beacon(staff, id, `  ${BEACON.toUpperCase()} `).expect(200);
    expect(set.body.beacon).toEqual({ source: 'drand-quicknet', round: quicknetRound(await endOf(id)), value: BEACON });
    expect((await beacon(staff, id, BEACON)).status).toBe(200);
    const other = await beacon(staff, id, 'f'.repeat(64), 'bn');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('beacon_set');
    const [entered] = await t.db.query<{ actor_id: number; after: { beacon_value: string } }>(
      `SELECT actor_id, after FROM audit_log WHERE action = 'lottery.beacon'`,
    );
    expect(entered).toMatchObject({ actor_id: staff.id, after: { beacon_value: BEACON } });
  });

  test('the draw: winners from the seed, the tickets and the beacon; the seed revealed; the proof checks, here and by the script', async () => {
    const id = await ended(TICKETS, 2);
    const c = await stored(id);
    await beacon(staff, id, BEACON).expect(200);
    // Two staff members at once: one draw.
    const [a, b] = await Promise.all([draw(staff, id), draw(staff, id)]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const done = a.status === 201 ? a : b;
    const expected = selectWinners({ seed: c!.seed, tickets: TICKETS, beacon: BEACON, winners: 2 });
    expect(done.body.prizes.map((p: { ticket: string }) => p.ticket)).toEqual(expected.winners);

    const p = (await proof(id).expect(200)).body;
    expect(p).toEqual({
      algorithm: 'bhagya-draw-v1',
      commitment: c!.commitment,
      seed: c!.seed,
      beacon: { source: 'drand-quicknet', round: Number(c!.beacon_round), value: BEACON },
      tickets_digest: expected.tickets_digest,
      tickets: [...TICKETS].sort(),
      max_winners: 2,
      winners: expected.winners,
    });
    expect(verifyProof(p)).toEqual({ ok: true });
    // Revealed, the seed is public: kept in clear from now on, the sealed copy emptied (docs/rules/draws.md#2).
    expect(await stored(id)).toMatchObject({ clear: c!.seed, seed_sealed: null });
    const [audit] = await t.db.query<{ after: { algorithm: string } }>(`SELECT after FROM audit_log WHERE action = 'lottery.draw'`);
    expect(audit?.after.algorithm).toBe('bhagya-draw-v1');

    // The independent verifier, run as anyone would against this server.
    const run = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile('npx', ['tsx', 'scripts/verify-draw.ts', t.url, String(id)], { timeout: 60_000 }, (error, stdout) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, out: stdout }),
      ),
    );
    expect(run.out).toMatch(/verified/);
    expect(run.code).toBe(0);
  });

  test('the draw page, without JavaScript: the announcement, the beacon form, Draw winners, then the seed', async () => {
    const id = await ended(TICKETS, 1);
    const c = await stored(id);
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const page = await agent.get(`/admin/lotteries/${id}/draw`).expect(200);
    expect(page.text).toContain('Verifiable draw');
    expect(page.text).toContain(c!.commitment);
    expect(page.text).not.toContain(c!.seed);
    expect(page.text).toContain('name="beacon"');
    const bad = await agent
      .post(`/admin/lotteries/${id}/draw`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('64 hexadecimal characters');
    const saved = await agent
      .post(`/admin/lotteries/${id}/draw`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon: BEACON });
    expect(saved.status).toBe(303);
    const ready = await agent.get(saved.headers.location as string).expect(200);
    expect(ready.text).toContain(BEACON);
    expect(ready.text).toContain('Draw winners (verifiable)');
    const drawn = await agent
      .post(`/admin/lotteries/${id}/draw`)
      .type('form')
      .send({ _csrf: csrfFrom(ready.text), intent: 'verifiable-draw' });
    expect(drawn.status).toBe(303);
    const after = await agent.get(drawn.headers.location as string).expect(200);
    expect(after.text).toContain(c!.seed);
    expect(after.text).toContain('Drawn by the procedure');
    expect(await t.db.query('SELECT * FROM prizes WHERE lottery_id = $1', [id])).toHaveLength(1);
  });

  test('no paid ticket: nothing to draw (409), nothing changed', async () => {
    const id = await ended([]);
    await beacon(staff, id, BEACON).expect(200);
    const res = await draw(staff, id, 'bn');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('no_tickets');
    expect((await proof(id)).body.seed).toBeUndefined();
  });

  test("a seed sealed under a key this server does not hold: 409 seed_unopenable in the caller's language, nothing drawn", async () => {
    const id = await ended(TICKETS);
    await beacon(staff, id, BEACON).expect(200);
    const other = keyringOf({ SECRET_KEY: 'another-server-'.padEnd(48, 'z') });
    await t.db.query('UPDATE draw_commitments SET seed_sealed = $2 WHERE lottery_id = $1', [id, other.seal('draw-seed', 'ab'.repeat(32))]);
    const en = await draw(staff, id);
    expect(en.status).toBe(409);
    expect(en.body).toEqual({ detail: expect.stringContaining('SECRET_KEY_PREVIOUS'), code: 'seed_unopenable' });
    const bn = await draw(staff, id, 'bn');
    expect(bn.status).toBe(409);
    expect(bn.body.detail).toContain('সিড');
    expect(await t.db.query('SELECT * FROM prizes WHERE lottery_id = $1', [id])).toHaveLength(0);
    expect(await t.db.one('SELECT revealed_at, seed FROM draw_commitments WHERE lottery_id = $1', [id])).toEqual({
      revealed_at: null,
      seed: null,
    });
  });
});
