/**
 * The announcement of a verifiable draw (docs/rules/draws.md#2-the-seed-and-its-commitment, #9-the-proof): a lottery
 * published through the API commits to a secret seed and names the drand round after its end of sales; the public
 * proof shows both and never the seed; the round follows the end of sales until it comes, then the end of sales is
 * fixed; a lottery drawn without the procedure says it cannot be checked. On PGlite and PostgreSQL.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { quicknetRound, roundTime, selectWinners, verifyProof } from '../../server/draws/verifiable.ts';
import { toDigits } from '../../shared/dates.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { REAL_BEACONS, REAL_SIGNATURE_5928395 } from '../helpers/fake-drand.ts';
import { storedCommitment } from '../helpers/sealed.ts';
import { keyringOf } from '../../server/crypto/sealed.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';
import { verifyDraw } from '../helpers/verify-draw.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

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
const proof = (id: number | string, lang = 'en') => to(t, api.drawProof, { params: { id }, lang });
const create = (body: object) => to(t, api.createLottery, { as: staff }).send(body);
const patch = (id: number, body: object, lang = 'en') => to(t, api.updateLottery, { params: { id }, as: staff, lang }).send(body);
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
  // Kept sealed, never in clear: the row (and so a dump of it) does not hold the seed (docs/rules/draws.md#2-the-seed-and-its-commitment).
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
    JSON.stringify((await to(t, api.staffLottery, { params: { id }, as: staff })).body),
    JSON.stringify((await to(t, api.staffLotteries, { as: staff })).body),
    JSON.stringify((await to(t, api.featuredLotteries)).body),
    JSON.stringify(await t.db.query('SELECT * FROM audit_log')),
    (await request(t.url).get(`/quick-play?lottery=${id}`)).text,
    (await request(t.url).get('/all-lotteries')).text,
    (await request(t.url).get(`/results/${id}`)).text,
    // The staff's screens: the draw page and the generated tickets' CSV of the lottery.
    (await (await loginAs(t.url, staff.phone, 'secret-pass-1')).get(`/admin/lotteries/${id}/draw`)).text,
    await (async () => {
      await to(t, api.generateTickets, { as: staff }).send({ lottery_id: id, quantity: 2 }).expect(201);
      return (
        await to(t, api.exportGeneratedTickets, { query: { lottery_id: id }, as: staff })
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
  expect(res.body.code).toBe('beacon_round_passed');
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
  /** A real quicknet beacon: the lotteries below are moved to its round, long past, so staff can paste its signature. */
  const SIGNED = REAL_BEACONS[1];
  const BEACON = SIGNED.randomness;
  /** A value typed by hand before only drand's signed value was accepted: what an older lottery may still carry. */
  const TYPED = 'a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1';
  const tamper = (sig: string) => sig.slice(0, -2) + (parseInt(sig.slice(-2), 16) ^ 1).toString(16).padStart(2, '0');
  const beacon = (who: Player | null, id: number, body: object, lang = 'en') =>
    to(t, api.setDrawBeacon, { params: { id }, as: who, lang }).send(body);
  const sign = (who: Player | null, id: number, signature: string = SIGNED.signature, lng = 'en') => beacon(who, id, { signature }, lng);
  const draw = (who: Player | null, id: number, lang = 'en') => to(t, api.verifiableDraw, { params: { id }, as: who, lang });
  const beaconAudits = () =>
    t.db.query<{ actor_id: number; after: { beacon_value: string; beacon_signature: string | null } }>(
      `SELECT actor_id, after FROM audit_log WHERE action = 'lottery.beacon' ORDER BY id`,
    );
  /**
   * A published lottery with these paid tickets (and one unpaid), its sales ended an hour ago, its round SIGNED's (a
   * real round whose time has passed).
   */
  async function ended(tickets: string[], winners = 2): Promise<number> {
    const id = (await create(lottery({ winners })).expect(201)).body.id as number;
    for (const [i, ticket] of [...tickets, '09-18-27-36-45-01'].entries())
      await t.db.query(
        `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, trx_id, status) VALUES ($1, $2, $3, 100, 'bkash', $4, $5)`,
        [player.id, id, ticket, `PRF${id}X${i}ABCD`, i < tickets.length ? 'success' : 'pending'],
      );
    await t.db.query(`UPDATE lotteries SET end_date = now() - interval '1 hour' WHERE id = $1`, [id]);
    await t.db.query('UPDATE draw_commitments SET beacon_round = $2 WHERE lottery_id = $1', [id, SIGNED.round]);
    return id;
  }
  const TICKETS = ['05-12-23-34-45-07', '01-02-03-04-05-06', '13-21-34-40-51-01', '03-07-19-41-52-11'];
  /** The draw page's mark of an unverified beacon (its texts, sent along for the browser, name it too). */
  const UNVERIFIED_BADGE = '<span class="badge badge--red">Unverified beacon</span>';
  const beaconOf = async (id: number) =>
    (await t.db.one<{ beacon_value: string | null; beacon_signature: string | null; beacon_entered_by: number | null }>(
      'SELECT beacon_value, beacon_signature, beacon_entered_by FROM draw_commitments WHERE lottery_id = $1',
      [id],
    ))!;

  test('who may: anonymous 401, a player 403, on the beacon and the draw; staff and a superuser may; nothing else changes', async () => {
    const id = await ended(TICKETS);
    expect((await sign(null, id)).status).toBe(401);
    expect((await sign(player, id)).status).toBe(403);
    expect((await draw(null, id)).status).toBe(401);
    expect((await draw(player, id)).status).toBe(403);
    expect(await beaconOf(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
    expect(await t.db.query('SELECT * FROM prizes')).toHaveLength(0);
    expect(await beaconAudits()).toHaveLength(0);
    // A superuser is staff too: he enters the signature and draws.
    const boss = await account(t, { name: 'Boss', is_staff: true });
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [boss.id]);
    await sign(boss, id).expect(200);
    expect(await beaconOf(id)).toEqual({ beacon_value: BEACON, beacon_signature: SIGNED.signature, beacon_entered_by: boss.id });
    expect((await draw(boss, id)).status).toBe(201);
  });

  test('a value alone is refused (paste the signature), in both languages; nothing stored', async () => {
    const id = await ended(TICKETS);
    for (const [lng, text] of [
      ['en', "A beacon value alone is not accepted: paste drand's signature of the round (96 characters) instead"],
      ['bn', 'শুধু বিকন মান নেওয়া হয় না: তার বদলে রাউন্ডটির জন্য drand-এর স্বাক্ষর (৯৬টি অক্ষর) পেস্ট করুন'],
    ] as const) {
      // Even drand's own value, typed: nothing shows it is drand's.
      for (const body of [{ value: BEACON }, { value: '1'.repeat(64) }, { value: BEACON, signature: SIGNED.signature }]) {
        const res = await beacon(staff, id, body, lng);
        expect(res.status).toBe(400);
        expect(res.body.value).toEqual([text]);
      }
      const none = await beacon(staff, id, {}, lng);
      expect(none.status).toBe(400);
      expect(none.body.signature?.[0]).toMatch(lng === 'en' ? /Paste drand's signature of the round/ : /drand-এর স্বাক্ষর পেস্ট করুন/);
    }
    expect((await beacon(staff, id, { signature: SIGNED.signature, round: 1 })).status).toBe(400);
    expect(await beaconOf(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
    expect(await beaconAudits()).toHaveLength(0);
  });

  test('a signature that is not drand quicknet’s of this round is refused: tampered, another round’s, not one at all', async () => {
    const id = await ended(TICKETS);
    const early = REAL_BEACONS[0];
    for (const bad of [
      tamper(SIGNED.signature),
      early.signature,
      REAL_SIGNATURE_5928395,
      'ab',
      '',
      'z'.repeat(96),
      `${SIGNED.signature}00`,
    ]) {
      const res = await sign(staff, id, bad, 'bn');
      expect(res.status).toBe(400);
      expect(res.body.signature?.[0]).toContain(`রাউন্ড ${toDigits(String(SIGNED.round), 'bn')}-এর স্বাক্ষর নয়`);
      expect(res.body.code).toBe('beacon_signature_invalid');
    }
    const en = await sign(staff, id, early.signature);
    expect(en.body.signature?.[0]).toBe(
      `This is not drand quicknet's signature of round ${SIGNED.round}: a signature is 96 hexadecimal characters, as a drand relay shows it for the round, and it must verify against quicknet's public key.`,
    );
    expect(await beaconOf(id)).toEqual({ beacon_value: null, beacon_signature: null, beacon_entered_by: null });
    expect(await beaconAudits()).toHaveLength(0);
  });

  test('refused while sales are open, before the round, without the beacon; the good signature once, pasted as it comes', async () => {
    const open = (await create(lottery()).expect(201)).body.id as number;
    const early = await sign(staff, open, SIGNED.signature, 'bn');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('beacon_not_yet');
    expect((await draw(staff, open)).body.code).toBe('sales_open');

    const id = await ended(TICKETS);
    expect((await draw(staff, id)).body).toEqual({ detail: expect.stringContaining(String(SIGNED.round)), code: 'beacon_missing' });
    // Pasted with capitals and spaces: the same signature. The proof carries it.
    const set = await sign(staff, id, `  ${SIGNED.signature.toUpperCase()}\n`).expect(200);
    expect(set.body.beacon).toEqual({ source: 'drand-quicknet', round: SIGNED.round, value: BEACON, signature: SIGNED.signature });
    expect((await proof(id)).body.beacon).toEqual(set.body.beacon);
    // The same again changes nothing (a second staff member pasting it too), and records nothing.
    expect((await sign(staff, id)).status).toBe(200);
    const audits = await beaconAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor_id: staff.id, after: { beacon_value: BEACON, beacon_signature: SIGNED.signature } });
  });

  test('a value typed before cannot draw until drand’s signature replaces it (409 beacon_unverified); then it draws', async () => {
    const id = await ended(TICKETS, 1);
    // As an older lottery carries it: typed by staff, no signature.
    await t.db.query('UPDATE draw_commitments SET beacon_value = $2, beacon_entered_by = $3 WHERE lottery_id = $1', [id, TYPED, staff.id]);
    for (const [lng, text] of [
      ['en', `The beacon value of drand round ${SIGNED.round} was typed without drand's signature (an unverified beacon)`],
      ['bn', 'বিকন মান drand-এর স্বাক্ষর ছাড়া লেখা হয়েছিল (অযাচাইকৃত বিকন)'],
    ] as const) {
      const res = await draw(staff, id, lng);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'beacon_unverified', detail: expect.stringContaining(text) });
    }
    expect(await t.db.query('SELECT * FROM prizes')).toHaveLength(0);
    expect((await proof(id)).body.beacon).toEqual({ source: 'drand-quicknet', round: SIGNED.round, value: TYPED });
    // The pages say so: the proof page and the draw page, which offers the signature's form and no draw.
    const en = await request(t.url).get(`/results/${id}`).set('Cookie', 'lang=en').expect(200);
    expect(en.text).toContain('<span class="badge badge--red">Unverified beacon</span>');
    const bn = await request(t.url).get(`/results/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('<span class="badge badge--red">অযাচাইকৃত বিকন</span>');
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const page = await agent.get(`/admin/lotteries/${id}/draw`).set('Cookie', 'lang=en').expect(200);
    expect(page.text).toContain(UNVERIFIED_BADGE);
    expect(page.text).toContain('name="beacon"');
    expect(page.text).not.toContain('value="verifiable-draw"');
    // A signature that does not verify does not replace it.
    expect((await sign(staff, id, tamper(SIGNED.signature))).status).toBe(400);
    expect((await beaconOf(id)).beacon_value).toBe(TYPED);
    // drand's signature replaces it, audited with what it replaced.
    await sign(staff, id).expect(200);
    expect(await beaconOf(id)).toEqual({ beacon_value: BEACON, beacon_signature: SIGNED.signature, beacon_entered_by: staff.id });
    const [audit] = await t.db.query<{ before: { beacon_value: string; beacon_signature: null } }>(
      `SELECT before FROM audit_log WHERE action = 'lottery.beacon'`,
    );
    expect(audit?.before).toMatchObject({ beacon_value: TYPED, beacon_signature: null });
    const after = await agent.get(`/admin/lotteries/${id}/draw`).set('Cookie', 'lang=en').expect(200);
    expect(after.text).not.toContain(UNVERIFIED_BADGE);
    expect(after.text).toContain('value="verifiable-draw"');
    await draw(staff, id).expect(201);
  });

  test('a signature in the database that does not verify (written there by hand) does not draw', async () => {
    const id = await ended(TICKETS, 1);
    const forged = tamper(SIGNED.signature);
    await t.db.query('UPDATE draw_commitments SET beacon_value = $2, beacon_signature = $3 WHERE lottery_id = $1', [
      id,
      createHash('sha256').update(Buffer.from(forged, 'hex')).digest('hex'),
      forged,
    ]);
    const res = await draw(staff, id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('beacon_unverified');
    expect(await t.db.query('SELECT * FROM prizes')).toHaveLength(0);
  });

  test('the draw: winners from the seed, the tickets and drand’s beacon; the seed revealed; the proof checks, here and by the script', async () => {
    const id = await ended(TICKETS, 2);
    const c = await stored(id);
    await sign(staff, id).expect(200);
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
      beacon: { source: 'drand-quicknet', round: SIGNED.round, value: BEACON, signature: SIGNED.signature },
      tickets_digest: expected.tickets_digest,
      tickets: [...TICKETS].sort(),
      max_winners: 2,
      winners: expected.winners,
      withheld: [],
    });
    expect(verifyProof(p)).toEqual({ ok: true });
    // Revealed, the seed is public: kept in clear from now on, the sealed copy emptied (docs/rules/draws.md#2-the-seed-and-its-commitment).
    expect(await stored(id)).toMatchObject({ clear: c!.seed, seed_sealed: null });
    const [audit] = await t.db.query<{ after: { algorithm: string } }>(`SELECT after FROM audit_log WHERE action = 'lottery.draw'`);
    expect(audit?.after.algorithm).toBe('bhagya-draw-v1');

    // The independent verifier, run as anyone would against this server: the signature checked too.
    const run = await verifyDraw(t.url, String(id));
    expect(run.out).toContain(`beacon signature ${SIGNED.signature}`);
    expect(run.out).toMatch(/\nverified\n$/);
    expect(run.code).toBe(0);
  });

  test('a prize withheld by two stays in the proof, marked with its reason, and the proof still checks; so does its page', async () => {
    const id = await ended(TICKETS, 2);
    await sign(staff, id).expect(200);
    const drawn = await draw(staff, id).expect(201);
    const [first] = drawn.body.prizes as { id: number; ticket: string }[];
    const head = await account(t, { name: 'Head Office', is_staff: true });
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [head.id]);
    const proposed = await to(t, api.proposeWithholding, { params: { prizeId: first!.id }, as: head })
      .send({ reason: 'Court order 12/2026' })
      .expect(201);
    await to(t, api.approveWithholding, { params: { proposalId: proposed.body.id }, as: staff })
      .send({ reason: 'Order seen' })
      .expect(200);
    const p = (await proof(id).expect(200)).body;
    expect(p.winners).toContain(first!.ticket);
    expect(p.withheld).toEqual([{ ticket: first!.ticket, reason: 'Court order 12/2026' }]);
    expect(verifyProof(p)).toEqual({ ok: true });
    const page = await request(t.url).get(`/results/${id}`).expect(200);
    expect(page.text).toContain('Prize withheld: Court order 12/2026');
    const bn = await request(t.url).get(`/results/${id}`).set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('পুরস্কার আটকে রাখা হয়েছে: Court order 12/2026');
  });

  test('the draw page, without JavaScript: the announcement, the signature’s form, Draw winners, then the seed', async () => {
    const id = await ended(TICKETS, 1);
    const c = await stored(id);
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const page = await agent.get(`/admin/lotteries/${id}/draw`).expect(200);
    expect(page.text).toContain('Verifiable draw');
    expect(page.text).toContain(c!.commitment);
    expect(page.text).not.toContain(c!.seed);
    expect(page.text).toContain('name="beacon"');
    expect(page.text).toContain('drand&#x27;s signature of the round');
    // The value, as staff used to type it, is refused with the signature's text; so is a bad signature.
    for (const pasted of [BEACON, 'nope', tamper(SIGNED.signature)]) {
      const bad = await agent
        .post(`/admin/lotteries/${id}/draw`)
        .type('form')
        .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon: pasted });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('This is not drand quicknet&#x27;s signature of round');
    }
    // Nothing pasted: the page says what to paste, in the caller's language (docs/decisions/065-draw-form-one-schema.md).
    for (const [lng, text] of [
      ['en', 'Paste drand&#x27;s signature of the round (96 characters, as a drand relay shows it)'],
      ['bn', 'drand-এর স্বাক্ষর পেস্ট করুন'],
    ] as const) {
      const empty = await agent
        .post(`/admin/lotteries/${id}/draw`)
        .set('Cookie', `lang=${lng}`)
        .type('form')
        .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon: '  ' });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain(text);
    }
    expect(await t.db.one('SELECT beacon_signature FROM draw_commitments WHERE lottery_id = $1', [id])).toEqual({ beacon_signature: null });
    const saved = await agent
      .post(`/admin/lotteries/${id}/draw`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'beacon', beacon: SIGNED.signature });
    expect(saved.status).toBe(303);
    const ready = await agent.get(saved.headers.location as string).expect(200);
    expect(ready.text).toContain(BEACON);
    expect(ready.text).not.toContain(UNVERIFIED_BADGE);
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
    await sign(staff, id).expect(200);
    const res = await draw(staff, id, 'bn');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('no_tickets');
    expect((await proof(id)).body.seed).toBeUndefined();
  });

  test("a seed sealed under a key this server does not hold: 409 seed_unopenable in the caller's language, nothing drawn", async () => {
    const id = await ended(TICKETS);
    await sign(staff, id).expect(200);
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
