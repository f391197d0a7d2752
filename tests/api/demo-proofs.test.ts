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
import { tierOf } from '../../shared/draws/tiers.ts';

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
    const prizes = await t.db.query<{ ticket: string; tier: number | null; lucky_code: string | null }>(
      'SELECT ticket, tier, lucky_code FROM prizes WHERE lottery_id = $1 ORDER BY id',
      [l.id],
    );
    if (proof.body.numbers) {
      // The demo game's draws (server/games/demo.ts): the prizes are each ticket's tier, and the Lucky Chance codes drawn.
      const lucky = proof.body.lucky_chance.winners as { ticket: string; code: string }[];
      expect(lucky).toHaveLength(3);
      expect(
        prizes
          .filter((p) => p.lucky_code !== null)
          .map((p) => [p.ticket, p.lucky_code])
          .sort(),
      ).toEqual(lucky.map((w) => [w.ticket, w.code]).sort());
      for (const p of prizes.filter((x) => x.tier !== null)) expect(p.tier).toBe(tierOf(p.ticket, proof.body.numbers));
    } else {
      // More tickets than winners, and the prizes paid are exactly the winners drawn.
      expect(proof.body.tickets.length).toBeGreaterThan(proof.body.winners.length);
      expect(prizes.map((p) => p.ticket)).toEqual(proof.body.winners);
    }
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

test('the demo game runs on its calendar: three draws drawn, each jackpot rolled into the next, its next five draws on sale', async () => {
  const draws = await t.db.query<{ id: number; drawn: boolean; rollover_in: number; rollover_out: number | null; draw_at: string }>(
    `SELECT l.id, l.drawn_at IS NOT NULL AS drawn, l.rollover_in, l.rollover_out, l.draw_at FROM lotteries l JOIN games g ON g.id = l.game_id
     WHERE g.name = 'Bhagya Lotto' ORDER BY l.draw_at`,
  );
  expect(draws.map((d) => d.drawn)).toEqual([true, true, true, false, false, false, false, false]);
  // Each drawn one's unwon jackpot is the next one's rollover (a jackpot won would roll nothing: then 0 and 0).
  for (let i = 0; i < 3; i++) expect(draws[i + 1]!.rollover_in).toBe(draws[i]!.rollover_out);
  expect(draws[3]!.rollover_in).toBeGreaterThan(0);
  // A week apart, Saturdays at 8 PM in Dhaka (14:00 UTC).
  for (const d of draws) expect([new Date(d.draw_at).getUTCDay(), new Date(d.draw_at).getUTCHours()]).toEqual([6, 14]);
  const onSale = await request(t.url).get(`/api/v1/get-lottery/${draws[3]!.id}/`).expect(200);
  expect(onSale.body).toMatchObject({ purchasable: true, kind: 'numbers' });
});
