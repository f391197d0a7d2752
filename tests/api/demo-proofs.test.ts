/**
 * The demo data's drawn lotteries are drawn by the procedure (docs/rules/draws.md#12-where-it-stands): each has a
 * complete proof, with a sample beacon value marked as such and recomputable, whose winners are the prizes paid, and the
 * independent verifier (scripts/verify-draw.ts) checks its draw against the running server and flags its beacon
 * "unverified beacon" (a sample has no drand signature), as its proof page does. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { sampleBeacon } from '../../server/db/seed.ts';
import { roundTime, verifyProof } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { verifyDraw } from '../helpers/verify-draw.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SEED_DEMO: 'true' });
});
afterAll(() => t.close());

const verifier = (id: number) => verifyDraw(t.url, String(id));

test('every drawn demo lottery has a proof by the procedure that checks, with a sample beacon said to be one', async () => {
  const drawn = await t.db.query<{ id: number; drawn_at: string }>(
    'SELECT id, drawn_at FROM lotteries WHERE is_result_published ORDER BY id',
  );
  expect(drawn.length).toBeGreaterThanOrEqual(2);
  for (const l of drawn) {
    const proof = await request(t.url).get(`/api/v1/lotteries/${l.id}/draw-proof/`).expect(200);
    expect(proof.body).toMatchObject({ algorithm: 'bhagya-draw-v1', beacon: { source: 'drand-quicknet', sample: true } });
    expect(proof.body.beacon.value).toBe(sampleBeacon(proof.body.beacon.round));
    expect(verifyProof(proof.body)).toEqual({ ok: true });
    // More tickets than winners, and the prizes paid are exactly the winners drawn.
    expect(proof.body.tickets.length).toBeGreaterThan(proof.body.winners.length);
    const prizes = await t.db.query<{ ticket: string }>('SELECT ticket FROM prizes WHERE lottery_id = $1 ORDER BY id', [l.id]);
    expect(prizes.map((p) => p.ticket)).toEqual(proof.body.winners);
    // Drawn after the beacon's round, never before its value existed.
    expect(Date.parse(l.drawn_at)).toBeGreaterThan(roundTime(proof.body.beacon.round).getTime());
    // The draw checks; the beacon is a sample, so unverified: exit 3, said so, never "verified".
    const run = await verifier(l.id);
    expect(run.out).toContain('unverified beacon: the beacon value is marked as a sample');
    expect(run.out).not.toContain('differs');
    expect(run.out).not.toMatch(/^verified$/m);
    expect(run.code).toBe(3);
    const page = await request(t.url).get(`/results/${l.id}`).set('Cookie', 'lang=en').expect(200);
    expect(page.text).toContain('<span class="badge badge--red">Unverified beacon</span>');
  }
});
