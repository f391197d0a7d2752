/**
 * The beacon fetched from drand by the server and checked against drand's signature (docs/rules/draws.md#4-the-beacon):
 * the app runs with DRAND_URLS pointing at a local fake relay (never the real network) that serves real quicknet beacons;
 * the job stores a verified value with its signature, once even when instances race, and nothing from a relay whose
 * signature does not verify; staff may give the signature instead of the value. On PGlite and PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { runOnce } from '../../server/draws/beacon-job.ts';
import { roundTime, verifyProof } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { REAL_BEACONS, serveBeacons, startFakeRelay, type FakeRelay } from '../helpers/fake-drand.ts';
import { account, type Player } from './purchase-fixtures.ts';
import { verifyDraw } from '../helpers/verify-draw.ts';

const [early, real] = REAL_BEACONS;
const ROUND = real.round;
/** drand's 404 for a round it has not published: what the relay answers unless a test says otherwise. */
const nothing = serveBeacons([]);

let t: TestApp;
let relay: FakeRelay;
let staff: Player;
let player: Player;
const dir = mkdtempSync(path.join(tmpdir(), 'bhagya-beacon-fetch-'));

beforeAll(async () => {
  relay = await startFakeRelay(nothing);
  t = await startTestApp({ DRAND_URLS: relay.url });
  staff = await account(t, { name: 'Beacon Staff', is_staff: true });
  player = await account(t, { name: 'Beacon Player' });
});
afterAll(async () => {
  await t.close();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  relay.handler = nothing;
  relay.requests.splice(0);
  for (const table of ['audit_log', 'prizes', 'transactions', 'lotteries']) await t.db.query(`DELETE FROM ${table}`);
});

/** One run of the job, as the app runs it, on the fake relay. */
const runJob = () => runOnce({ db: t.db, log: t.app.log, relays: [relay.url], timeoutMs: 2_000 });

const TICKETS = ['05-12-23-34-45-07', '01-02-03-04-05-06', '13-21-34-40-51-01'];
let seq = 0;
/**
 * A published lottery whose sales ended just before the time of `round` (so that round is its beacon's, announced on
 * its first proof read), with these paid tickets. Made in the database: the API refuses an end of sales in the past.
 */
async function lotteryOfRound(round: number = ROUND, tickets: string[] = TICKETS): Promise<number> {
  const end = new Date(roundTime(round).getTime() - 1);
  const start = new Date(end.getTime() - 7 * 24 * 3600 * 1000);
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published)
     VALUES ($1, '', '', $2, $3, 100, 1000, 2, 50000, true) RETURNING id`,
    [`Beacon Draw ${++seq}`, start.toISOString(), end.toISOString()],
  );
  const id = row!.id;
  for (const [i, ticket] of tickets.entries())
    await t.db.query(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, trx_id, status) VALUES ($1, $2, $3, 100, 'bkash', $4, 'success')`,
      [player.id, id, ticket, `BCN${id}X${i}ABCD`],
    );
  const announced = await proof(id).expect(200);
  expect(announced.body.beacon).toEqual({ source: 'drand-quicknet', round });
  return id;
}

const proof = (id: number) => request(t.url).get(`/api/v1/lotteries/${id}/draw-proof/`);
const put = (who: Player | null, id: number, body: object, lng = 'en') => {
  const r = request(t.url).put(`/api/v1/lotteries/${id}/draw-beacon/`).set('Accept-Language', lng);
  return (who ? r.set(...who.auth) : r).send(body);
};
const stored = (id: number) =>
  t.db.one<{ beacon_value: string | null; beacon_signature: string | null; beacon_entered_by: number | null }>(
    'SELECT beacon_value, beacon_signature, beacon_entered_by FROM draw_commitments WHERE lottery_id = $1',
    [id],
  );
const beaconAudits = () =>
  t.db.query<{ actor_id: number | null; entity_id: string; after: Record<string, unknown> }>(
    `SELECT actor_id, entity_id, after FROM audit_log WHERE action = 'lottery.beacon' ORDER BY id`,
  );
/** A signature with one bit of its last byte flipped. */
const tamper = (sig: string) => sig.slice(0, -2) + (parseInt(sig.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');

function verifyProofFile(proofJson: unknown): Promise<{ code: number; out: string }> {
  const file = path.join(dir, `proof-${++seq}.json`);
  writeFileSync(file, JSON.stringify(proofJson));
  return verifyDraw('--file', file);
}

test("the app's own job, started with it, fetches and stores a verified beacon", async () => {
  const id = await lotteryOfRound();
  relay.handler = serveBeacons(REAL_BEACONS);
  // The job's first run is 5 s after the start, then every 30 s.
  for (let waited = 0; waited < 45_000 && !(await stored(id))?.beacon_value; waited += 250) await new Promise((r) => setTimeout(r, 250));
  expect(await stored(id)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: null });
}, 60_000);

test('one run: the value and its signature stored, fetched by the server (no actor); the proof carries both; the draw checks', async () => {
  const id = await lotteryOfRound();
  relay.handler = serveBeacons(REAL_BEACONS);
  await runJob();
  expect(relay.requests).toContain(ROUND);
  expect(await stored(id)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: null });
  expect((await proof(id).expect(200)).body.beacon).toEqual({
    source: 'drand-quicknet',
    round: ROUND,
    value: real.randomness,
    signature: real.signature,
  });
  // Another run changes nothing: one record, without an actor.
  expect(await runJob()).toBe(0);
  expect(await beaconAudits()).toEqual([
    {
      actor_id: null,
      entity_id: String(id),
      after: { beacon_round: ROUND, beacon_value: real.randomness, beacon_signature: real.signature, fetched: true },
    },
  ]);

  // Staff: the same signature again changes nothing; a value typed is refused (400), drand's own or another;
  // another round's signature too.
  await put(staff, id, { signature: real.signature }).expect(200);
  for (const value of [real.randomness, early.randomness]) expect((await put(staff, id, { value })).status).toBe(400);
  expect((await put(staff, id, { signature: early.signature })).status).toBe(400);
  expect(await stored(id)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: null });
  expect(await beaconAudits()).toHaveLength(1);

  // The draw by the procedure with the fetched value; its proof carries the signature, and the script checks it.
  await request(t.url)
    .post(`/api/v1/lotteries/${id}/verifiable-draw/`)
    .set(...staff.auth)
    .expect(201);
  const drawn = (await proof(id).expect(200)).body;
  expect(drawn.beacon).toEqual({ source: 'drand-quicknet', round: ROUND, value: real.randomness, signature: real.signature });
  expect(verifyProof(drawn)).toEqual({ ok: true });
  const ok = await verifyProofFile(drawn);
  expect(ok.out).toContain(`beacon signature ${real.signature}`);
  expect(ok.code).toBe(0);
  const forged = await verifyProofFile({ ...drawn, beacon: { ...drawn.beacon, signature: tamper(real.signature) } });
  expect(forged.out).toContain('differs: beacon.value is not SHA-256 of beacon.signature');
  expect(forged.out).toContain(`differs: unverified beacon: beacon.signature is not drand quicknet's signature of round ${ROUND}`);
  expect(forged.code).toBe(1);
}, 90_000);

test("a relay serving a bad signature, or another round's beacon, changes nothing; the next relay's verified one is taken", async () => {
  const id = await lotteryOfRound();
  relay.handler = serveBeacons([{ ...real, signature: tamper(real.signature) }]);
  expect(await runJob()).toBe(0);
  relay.handler = serveBeacons([{ ...early, round: ROUND }]);
  expect(await runJob()).toBe(0);
  relay.handler = (_round, _req, res) => void res.writeHead(200).end(JSON.stringify(early));
  expect(await runJob()).toBe(0);
  expect(await stored(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
  expect((await proof(id).expect(200)).body.beacon).toEqual({ source: 'drand-quicknet', round: ROUND });
  expect(await beaconAudits()).toEqual([]);

  // A lying relay first, an honest one after it.
  const honest = await startFakeRelay(serveBeacons(REAL_BEACONS));
  try {
    relay.handler = serveBeacons([{ ...real, signature: tamper(real.signature) }]);
    expect(await runOnce({ db: t.db, log: t.app.log, relays: [relay.url, honest.url], timeoutMs: 2_000 })).toBe(1);
  } finally {
    await honest.close();
  }
  expect(await stored(id)).toMatchObject({ beacon_value: real.randomness, beacon_signature: real.signature });
});

test('only announced, undrawn lotteries whose round has come and whose value is missing are asked for', async () => {
  const future = await lotteryOfRound(Math.floor((Date.now() / 1000 - 1692803367) / 3) + 1000); // about an hour ahead
  const drawn = await lotteryOfRound();
  await t.db.query(`UPDATE lotteries SET is_result_published = true, drawn_at = now() WHERE id = $1`, [drawn]);
  const unpublished = await lotteryOfRound();
  await t.db.query(`UPDATE lotteries SET published = false WHERE id = $1`, [unpublished]);
  const typed = await lotteryOfRound();
  // A value typed before only drand's signature was accepted: staff replace it by pasting the signature.
  await t.db.query('UPDATE draw_commitments SET beacon_value = $2 WHERE lottery_id = $1', [typed, 'ab'.repeat(32)]);
  relay.handler = serveBeacons(REAL_BEACONS);
  expect(await runJob()).toBe(0);
  expect(relay.requests).toEqual([]);
  for (const id of [future, drawn, unpublished]) expect((await stored(id))?.beacon_value).toBeNull();
  expect((await stored(typed))?.beacon_value).toBe('ab'.repeat(32));
});

test('instances running the job at once store the value once, with one record', async () => {
  const ids = [await lotteryOfRound(), await lotteryOfRound()];
  relay.handler = serveBeacons(REAL_BEACONS);
  const runs = await Promise.all([runJob(), runJob(), runJob()]);
  // Each value stored by one run only (the app's own job may take one of them too).
  expect(runs.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2);
  const audits = await beaconAudits();
  expect(audits.map((a) => Number(a.entity_id)).sort()).toEqual([...ids].sort());
  for (const id of ids) expect((await stored(id))?.beacon_signature).toBe(real.signature);
});

describe('staff give the signature', () => {
  test('who may: anonymous 401, a player 403; nothing changes', async () => {
    const id = await lotteryOfRound();
    expect((await put(null, id, { signature: real.signature })).status).toBe(401);
    expect((await put(player, id, { signature: real.signature })).status).toBe(403);
    expect(await stored(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
  });

  test('a verified signature gives the value, recorded with who entered it', async () => {
    const id = await lotteryOfRound();
    const res = await put(staff, id, { signature: `  ${real.signature.toUpperCase()}\n` }).expect(200);
    expect(res.body.beacon).toEqual({ source: 'drand-quicknet', round: ROUND, value: real.randomness, signature: real.signature });
    expect(await stored(id)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: staff.id });
    expect(await beaconAudits()).toEqual([
      {
        actor_id: staff.id,
        entity_id: String(id),
        after: { beacon_round: ROUND, beacon_value: real.randomness, beacon_signature: real.signature },
      },
    ]);
    // The job has nothing left to fetch for it.
    relay.handler = serveBeacons(REAL_BEACONS);
    expect(await runJob()).toBe(0);
    expect(relay.requests).toEqual([]);
  });

  test('the draw page, without JavaScript: a pasted signature (96 characters) is sent as the signature and checked', async () => {
    const id = await lotteryOfRound();
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const page = await agent.get(`/admin/lotteries/${id}/draw`).set('Cookie', 'lang=en').expect(200);
    const post = (beacon: string) =>
      agent
        .post(`/admin/lotteries/${id}/draw`)
        .type('form')
        .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon });
    const forged = await post(tamper(real.signature));
    expect(forged.status).toBe(400);
    expect(await stored(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
    const ok = await post(` ${real.signature} `);
    expect(ok.status).toBe(303);
    expect(await stored(id)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: staff.id });
  });

  test("a bad signature, another round's, both fields or neither: 400 in the caller's language, nothing changed", async () => {
    const id = await lotteryOfRound();
    for (const [lng, word] of [
      ['en', /not drand quicknet's signature of round 20791007/],
      ['bn', /স্বাক্ষর নয়/],
    ] as const) {
      for (const bad of [tamper(real.signature), early.signature, 'ab'.repeat(47), '', 'not hex at all']) {
        const res = await put(staff, id, { signature: bad }, lng);
        expect(res.status).toBe(400);
        expect(res.body.signature?.[0]).toMatch(word);
      }
    }
    const bnRound = await put(staff, id, { signature: early.signature }, 'bn');
    expect(bnRound.body.signature[0]).toContain('২০৭৯১০০৭');
    for (const [lng, value, signature] of [
      ['en', /A beacon value alone is not accepted: paste drand's signature/, /Paste drand's signature of the round/],
      ['bn', /শুধু বিকন মান নেওয়া হয় না/, /drand-এর স্বাক্ষর পেস্ট করুন/],
    ] as const) {
      const both = await put(staff, id, { value: real.randomness, signature: real.signature }, lng);
      expect(both.status).toBe(400);
      expect(both.body.value?.[0]).toMatch(value);
      const neither = await put(staff, id, {}, lng);
      expect(neither.status).toBe(400);
      expect(neither.body.signature?.[0]).toMatch(signature);
    }
    expect((await put(staff, id, { signature: real.signature, extra: 1 })).status).toBe(400);
    expect(await stored(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
    expect(await beaconAudits()).toEqual([]);
  });

  test('before the round: 409 for a signature too', async () => {
    const id = await lotteryOfRound(Math.floor((Date.now() / 1000 - 1692803367) / 3) + 1000);
    const res = await put(staff, id, { signature: real.signature });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('beacon_not_yet');
  });

  test('a value typed before (no signature): drand’s signature is added when it matches, and replaces it when it was not drand’s', async () => {
    // As older lotteries carry it: typed by staff when a value alone was accepted.
    const typed = (id: number, value: string) =>
      t.db.query('UPDATE draw_commitments SET beacon_value = $2, beacon_entered_by = $3 WHERE lottery_id = $1', [id, value, player.id]);
    const right = await lotteryOfRound();
    await typed(right, real.randomness);
    expect((await put(staff, right, { signature: real.signature }).expect(200)).body.beacon.signature).toBe(real.signature);
    expect(await stored(right)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: staff.id });

    const wrong = await lotteryOfRound();
    await typed(wrong, 'cd'.repeat(32));
    // Another typed value is refused: only drand's signature replaces it.
    expect((await put(staff, wrong, { value: real.randomness })).status).toBe(400);
    await put(staff, wrong, { signature: real.signature }).expect(200);
    expect(await stored(wrong)).toEqual({ beacon_value: real.randomness, beacon_signature: real.signature, beacon_entered_by: staff.id });
    const [, last] = await t.db.query(`SELECT actor_id, before, after FROM audit_log WHERE action = 'lottery.beacon' ORDER BY id`);
    expect(last).toMatchObject({
      actor_id: staff.id,
      before: { beacon_value: 'cd'.repeat(32), beacon_signature: null },
      after: { beacon_value: real.randomness, beacon_signature: real.signature },
    });
  });
});
