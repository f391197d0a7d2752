/**
 * The numbers draw and its prize tiers (docs/rules/lotteries-and-sales.md#9-the-draw, docs/rules/draws.md#7-numbers-draw,
 * docs/decisions/032-numbers-draw-tiers.md): staff create a numbers lottery with a jackpot share and tier prizes; its
 * draw by the procedure draws five main numbers and a last number, pays each winning ticket its best tier, splits
 * the jackpot or rolls it into the numbers lottery staff named; results, My Lotteries, the proof and claims follow.
 * On PGlite and PostgreSQL.
 *
 * How a test makes a ticket win a given tier: the drawn numbers follow from the seed, the tickets digest and the beacon
 * value, and the beacon is drand's (a real signed one, numbers-fixtures.ts). So the test sells the tickets, computes
 * the digest, then tries seeds (SHA-256 of "seed <i>") until the numbers drawn with one give the tiers it needs, writes
 * that seed (and its commitment) as the server's, and pastes the beacon's signature. A jackpot is one combination in
 * 52,181,415, so the jackpot lottery sells a few thousand tickets (straight in the database) and a jackpot among them is
 * found within some ten thousand tries.
 */
import { createHash } from 'node:crypto';
import { matchOf, tierOf, type Tier } from '../../shared/draws/tiers.ts';
import { formatTicket } from '../../shared/ticket.ts';
import { drawNumbers, ticketsDigest, verifyProof } from '../../server/draws/verifiable.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  endSalesAtRound,
  fixSeed,
  numbersWith,
  SEED,
  seedNumber,
  SIGNED,
  sellMany as sellManyOf,
  soldTickets as soldTicketsOf,
} from './numbers-fixtures.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { account, buy, purchase, trxId, type Player, approveByHand } from './purchase-fixtures.ts';
import { numbersLotteryBody } from '../helpers/factories.ts';
import { verifyDraw } from '../helpers/verify-draw.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let staff: Player;
let player: Player;
let other: Player;

beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Draw Staff', is_staff: true });
  player = await account(t, { name: 'Numbers Player' });
  other = await account(t, { name: 'Other Player' });
});
afterAll(() => t.close());
beforeEach(async () => {
  for (const table of [
    'audit_log',
    'prize_payouts',
    'prize_claims',
    'prizes',
    'transactions',
    'draw_commitments',
    'lotteries',
    'rate_limits',
  ])
    await t.db.query(`DELETE FROM ${table}`);
});

const DAY = 24 * 3600 * 1000;
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const TIER_PRIZES = { tier2_prize: 20_000, tier3_prize: 2_000, tier4_prize: 200, tier5_prize: 20 };

const create = (body: object, who: Player | null = staff, lang = 'en') => to(t, api.createLottery, { as: who, lang }).send(body);
const patch = (id: number, body: object, lang = 'en') => to(t, api.updateLottery, { params: { id }, as: staff, lang }).send(body);
const draw = (id: number, lang = 'en') => to(t, api.verifiableDraw, { params: { id }, as: staff, lang });
const proof = (id: number) => to(t, api.drawProof, { params: { id } });
/** The lottery as anyone reads it. */
const publicLottery = (id: number) => to(t, api.getLottery, { params: { id } });

/** A numbers lottery made through the API; its id. */
async function newNumbers(extra: object = {}): Promise<number> {
  const res = await create(numbersLotteryBody(extra));
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** A purchase through the API, approved by staff: a `success` ticket of `who`. */
async function sell(id: number, who: Player, ticket: string): Promise<number> {
  const res = await buy(t, who, purchase(id, ticket, { trx_id: trxId() }));
  expect(res.status).toBe(201);
  expect((await approveByHand(t, res.body.id)).status).toBe(200);
  return res.body.id as number;
}

const sellMany = (id: number, who: Player, tickets: string[]) => sellManyOf(t, who.id, id, tickets);

const endSales = (id: number) => endSalesAtRound(t, id);

const soldTickets = (id: number) => soldTicketsOf(t, id);

/** The first seed "SHA-256 of seed <i>" whose numbers satisfy `wanted` (the trick of this file's header). */
function seedFor(tickets: string[], wanted: (numbers: number[]) => boolean, tries = 2_000_000): string {
  const digest = ticketsDigest(tickets);
  for (let i = 0; i < tries; i++) {
    const seed = seedNumber(i);
    if (wanted(numbersWith(digest, seed))) return seed;
  }
  throw new Error('no seed found');
}

/** The lottery's seed fixed to `seed`, and drand's beacon entered by its signature, as staff paste it. */
async function enterBeacon(id: number, seed: string): Promise<void> {
  await fixSeed(t, id, seed);
  await to(t, api.setDrawBeacon, { params: { id }, as: staff }).send({ signature: SIGNED.signature }).expect(200);
}

/** `count` distinct tickets, the same on every run. */
function manyTickets(count: number): string[] {
  const out = new Set<string>();
  for (let i = 0; out.size < count; i++) {
    const h = createHash('sha256').update(`ticket ${i}`).digest();
    const main = new Set<number>();
    for (let j = 0; main.size < 5; j++) main.add(((h[j] as number) % 55) + 1);
    out.add(formatTicket({ main: [...main], last: ((h[31] as number) % 15) + 1 }));
  }
  return [...out];
}

type PrizeRow = { ticket: string; tier: number; prize_money: number; transaction_id: number; id: number };
const prizesOf = (id: number) =>
  t.db.query<PrizeRow>('SELECT id, ticket, tier, prize_money, transaction_id FROM prizes WHERE lottery_id = $1 ORDER BY ticket', [id]);

describe('creating and changing a numbers lottery', () => {
  test('staff create one: its kind, tier prizes and jackpot in the staff and public answers; audited', async () => {
    const res = await create(numbersLotteryBody({ rollover_to: null }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'numbers',
      jackpot_share: 50,
      ...TIER_PRIZES,
      rollover_in: 0,
      rollover_to: null,
      jackpot: 0,
      total_prize: 0,
    });
    const id = res.body.id as number;
    await sell(id, player, '05-12-23-34-45-07');
    await sell(id, other, '01-02-03-04-05-06');
    await t.db.query('UPDATE lotteries SET rollover_in = 1001 WHERE id = $1', [id]);
    // The jackpot: half of TK. 200 paid, plus what rolled in.
    const pub = await publicLottery(id).expect(200);
    expect(pub.body).toMatchObject({ kind: 'numbers', jackpot: 1101, total_prize: 1101, rollover_in: 1001, ...TIER_PRIZES });
    const list = await to(t, api.publishedLotteries).expect(200);
    expect(list.body.find((l: { id: number }) => l.id === id)).toMatchObject({ jackpot: 1101 });
    const [audit] = await t.db.query<{ after: Record<string, unknown> }>(`SELECT after FROM audit_log WHERE action = 'lottery.create'`);
    expect(audit?.after).toMatchObject({ kind: 'numbers', jackpot_share: 50, tier2_prize: 20_000 });
    // A form's text fields are read the same way.
    const form = await create(
      numbersLotteryBody({ jackpot_share: '40', tier2_prize: '1000', tier5_prize: '0', winners: '', total_prize: '', rollover_to: '' }),
    );
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ jackpot_share: 40, tier2_prize: 1000, tier5_prize: 0, rollover_to: null });
  });

  test('a winning-tickets lottery is as before: kind tickets, no tiers, no jackpot', async () => {
    const res = await create({ name: 'Classic', winners: 2, ticket_price: 100, total_prize: 5000, start_date: day(-1), end_date: day(6) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'tickets',
      total_prize: 5000,
      winners: 2,
      jackpot_share: null,
      tier2_prize: null,
      tier5_prize: null,
      rollover_in: 0,
      rollover_to: null,
      jackpot: null,
    });
  });

  test('each bad input: 400 under its field, in the caller’s language, nothing stored', async () => {
    const tickets = (
      await create({ name: 'Classic', winners: 1, ticket_price: 100, total_prize: 100, start_date: day(-1), end_date: day(6) })
    ).body.id as number;
    const bad: [object, string, RegExp][] = [
      [{ kind: 'lotto' }, 'kind', /kind of lottery/],
      [{ jackpot_share: undefined }, 'jackpot_share', /required/],
      [{ jackpot_share: 101 }, 'jackpot_share', /0 to 100/],
      [{ jackpot_share: '12.5' }, 'jackpot_share', /0 to 100/],
      [{ tier3_prize: -1 }, 'tier3_prize', /whole taka/],
      [{ tier4_prize: '10.50' }, 'tier4_prize', /whole taka/],
      [{ tier5_prize: undefined }, 'tier5_prize', /required/],
      [{ tier2_prize: Number.MAX_SAFE_INTEGER + 2 }, 'tier2_prize', /whole taka/],
      [{ total_prize: 1000 }, 'total_prize', /prizes are set by tier/],
      [{ winners: 3 }, 'winners', /prizes are set by tier/],
      [{ rollover_to: 'abc' }, 'rollover_to', /Invalid/],
      [{ rollover_to: 999_999 }, 'rollover_to', /not drawn yet/],
      [{ rollover_to: tickets }, 'rollover_to', /not drawn yet/],
    ];
    for (const [extra, field, message] of bad) {
      const res = await create(numbersLotteryBody(extra));
      expect([res.status, field, res.body[field]?.[0]]).toEqual([400, field, expect.stringMatching(message)]);
    }
    // The fields of a numbers lottery on a winning-tickets one.
    const classic = { name: 'Classic', winners: 1, ticket_price: 100, total_prize: 100, start_date: day(-1), end_date: day(6) };
    const wrong = await create({ ...classic, tier2_prize: 100, rollover_to: tickets });
    expect(wrong.status).toBe(400);
    expect(wrong.body.tier2_prize?.[0]).toMatch(/Only a numbers-draw lottery/);
    expect(wrong.body.rollover_to?.[0]).toMatch(/Only a numbers-draw lottery/);
    expect((await create({ ...classic, total_prize: undefined })).body.total_prize?.[0]).toMatch(/required/);
    // In Bengali.
    const bn = await create(numbersLotteryBody({ total_prize: 5 }), staff, 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body.total_prize?.[0]).toBe('সংখ্যার ড্র-এর লটারিতে এই ঘরটি নেই: এর পুরস্কার স্তর অনুযায়ী ঠিক করা হয়।');
    expect(await t.db.query(`SELECT id FROM lotteries WHERE kind = 'numbers'`)).toHaveLength(0);
  });

  test('who may: anonymous 401, a player 403', async () => {
    expect((await create(numbersLotteryBody(), null)).status).toBe(401);
    expect((await create(numbersLotteryBody(), player)).status).toBe(403);
    expect(await t.db.query('SELECT id FROM lotteries')).toHaveLength(0);
  });

  test('the kind and the prizes change until a ticket is sold; the rollover target until the draw', async () => {
    const id = await newNumbers();
    const target = await newNumbers({ name: 'Next Numbers' });
    await patch(id, { tier5_prize: 25, jackpot_share: 60 }).expect(200);
    // Switching kind needs the fields of the new kind, and drops the old ones.
    expect((await patch(id, { kind: 'tickets' })).body).toEqual({
      winners: ['This field is required.'],
      total_prize: ['This field is required.'],
      code: 'kind_needs_field',
    });
    const switched = await patch(id, { kind: 'tickets', total_prize: 500, winners: 1 }).expect(200);
    expect(switched.body).toMatchObject({ kind: 'tickets', total_prize: 500, jackpot_share: null, tier5_prize: null });
    const numbersOnly = await patch(id, { tier2_prize: 5 });
    expect(numbersOnly.body.tier2_prize?.[0]).toMatch(/Only a numbers-draw lottery/);
    expect(numbersOnly.body.code).toBe('numbers_kind_only');
    await patch(id, { kind: 'numbers', jackpot_share: 50, ...TIER_PRIZES }).expect(200);
    const ticketsOnly = await patch(id, { total_prize: 5 });
    expect(ticketsOnly.body.total_prize?.[0]).toMatch(/prizes are set by tier/);
    expect(ticketsOnly.body.code).toBe('tickets_kind_only');
    // Not itself, not a drawn one.
    const itself = await patch(id, { rollover_to: id });
    expect(itself.body.rollover_to?.[0]).toMatch(/not drawn yet/);
    expect(itself.body.code).toBe('rollover_target_invalid');
    await patch(id, { rollover_to: target }).expect(200);

    await sell(id, player, '05-12-23-34-45-07');
    for (const change of [{ tier5_prize: 30 }, { jackpot_share: 10 }, { kind: 'tickets', total_prize: 5, winners: 1 }]) {
      const res = await patch(id, change, 'bn');
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('prizes_fixed');
    }
    // The same values again change nothing; the rollover target may still change.
    await patch(id, { tier5_prize: 20, jackpot_share: 50 }).expect(200);
    await patch(id, { rollover_to: null }).expect(200);
    const after = await patch(id, { rollover_to: target }).expect(200);
    expect(after.body).toMatchObject({ rollover_to: target, tier5_prize: 20, jackpot_share: 50 });
  });
});

describe('the numbers draw', () => {
  test('a jackpot won: every ticket paid its best tier, the jackpot to its ticket; results, My Lotteries, proof and a claim', async () => {
    const id = await newNumbers();
    await t.db.query('UPDATE lotteries SET rollover_in = 777 WHERE id = $1', [id]);
    const mine = '05-12-23-34-45-07';
    const mineId = await sell(id, other, mine);
    const bulk = manyTickets(3000).filter((x) => x !== mine);
    await sellMany(id, player, bulk);
    await endSales(id);
    const tickets = await soldTickets(id);
    const all = new Set(tickets);
    // Numbers that are one of the sold tickets: a jackpot.
    const seed = seedFor(tickets, (n) => all.has(formatTicket({ main: n.slice(0, 5), last: n[5] as number })));
    await enterBeacon(id, seed);
    const numbers = drawNumbers({ seed, tickets, beacon: SIGNED.randomness }).numbers;

    const res = await draw(id).expect(201);
    expect(res.body.numbers).toEqual(numbers);
    // The jackpot: half of the sales, rounded down, plus the rollover in; one jackpot ticket takes it whole.
    const jackpot = Math.floor((tickets.length * 100 * 50) / 100) + 777;
    expect(res.body).toMatchObject({ total_prize: jackpot, remainder: 0, lottery_id: id });
    expect(res.body.rollover).toBeUndefined();

    const money: Record<Tier, number> = { 1: jackpot, 2: 20_000, 3: 2_000, 4: 200, 5: 20 };
    const expected = tickets
      .map((ticket) => ({ ticket, tier: tierOf(ticket, numbers) }))
      .filter((w): w is { ticket: string; tier: Tier } => w.tier !== null)
      .map((w) => ({ ...w, prize_money: money[w.tier] }))
      .sort((a, b) => (a.ticket < b.ticket ? -1 : 1));
    const prizes = await prizesOf(id);
    expect(prizes.map(({ ticket, tier, prize_money }) => ({ ticket, tier, prize_money }))).toEqual(expected);
    expect(prizes.filter((p) => p.tier === 1)).toHaveLength(1);
    expect(res.body.prizes).toHaveLength(prizes.length);
    expect(res.body.prizes[0]).toMatchObject({ tier: 1, prize_money: jackpot });
    const [audit] = await t.db.query<{ after: Record<string, unknown> }>(`SELECT after FROM audit_log WHERE action = 'lottery.draw'`);
    expect(audit?.after).toMatchObject({ kind: 'numbers', numbers, jackpot, algorithm: 'bhagya-draw-v1' });

    // The proof answers the numbers; our checker and the independent script accept it.
    const p = (await proof(id).expect(200)).body;
    expect(p).toMatchObject({ algorithm: 'bhagya-draw-v1', seed, numbers, tickets_digest: ticketsDigest(tickets) });
    expect(p.winners).toBeUndefined();
    expect(p.tickets).toHaveLength(tickets.length);
    expect(verifyProof(p)).toEqual({ ok: true });
    const run = await verifyDraw(t.url, String(id));
    expect(run.out).toMatch(/verified/);
    expect(run.code).toBe(0);

    // Results: the numbers and each prize's tier, the jackpot first.
    const results = (await to(t, api.lotteryResults).expect(200)).body;
    const result = results.find((r: { lottery: { id: number } }) => r.lottery.id === id);
    expect(result).toMatchObject({ numbers, rollover: null, lottery: { kind: 'numbers', total_prize: jackpot } });
    expect(result.prizes[0]).toMatchObject({ tier: 1, prize_money: jackpot });
    expect(result.prizes).toHaveLength(prizes.length);

    // My Lotteries: the numbers, what the ticket matched and its tier (prize or not).
    const myList = (await to(t, api.myTransactions, { as: other }).expect(200)).body;
    const tier = tierOf(mine, numbers);
    expect(myList[0]).toMatchObject({
      id: mineId,
      numbers,
      matched: matchOf(mine, numbers),
      tier,
      is_winning_ticket: tier !== null,
      lottery: { kind: 'numbers', total_prize: jackpot },
    });

    // A tier prize is claimed as any prize.
    const prize = prizes.find((x) => x.tier === 5)!;
    await to(t, api.sendClaimCode, { as: player }).send({ prize_id: prize.id }).expect(200);
    const code = await t.lastCode(player.phone, 'claim');
    const claim = await to(t, api.submitClaim, { as: player }).send({
      prize: prize.id,
      payment_method: 'bkash',
      account_number: '01712345678',
      account_holder_name: 'Numbers Player',
      otp: code,
    });
    expect(claim.status).toBe(200);
    const claimed = (await t.db.one<{ status: string }>('SELECT status FROM prize_claims WHERE prize_id = $1', [prize.id]))?.status;
    expect(claimed).toBe('payment_info_submitted');
  });

  test('no jackpot ticket: refused until a target is named (the same numbers after), then the jackpot rolls over, audited', async () => {
    const id = await newNumbers();
    const gone = await newNumbers({ name: 'Drawn Numbers' });
    const target = await newNumbers({ name: 'Next Numbers' });
    const winner = '05-12-23-34-45-07';
    await sell(id, player, winner);
    await sell(id, other, '01-02-03-04-05-06');
    await sell(id, other, '10-20-30-40-50-10');
    await endSales(id);
    const tickets = await soldTickets(id);
    const seed = seedFor(tickets, (n) => tierOf(winner, n) === 5 && tickets.every((x) => tierOf(x, n) !== 1));
    await enterBeacon(id, seed);
    const numbers = drawNumbers({ seed, tickets, beacon: SIGNED.randomness }).numbers;

    // No target named: refused, in both languages, nothing written.
    const refused = await draw(id, 'bn');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'rollover_target_missing', detail: expect.stringContaining('জ্যাকপট') });
    expect((await draw(id)).body.detail).toMatch(/Nobody won the jackpot/);
    expect(await prizesOf(id)).toHaveLength(0);
    expect((await proof(id)).body.seed).toBeUndefined();

    // A target drawn meanwhile: refused the same way.
    await patch(id, { rollover_to: gone }).expect(200);
    await t.db.query('UPDATE lotteries SET drawn_at = now(), is_result_published = true WHERE id = $1', [gone]);
    const meanwhile = await draw(id);
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body.code).toBe('rollover_target_missing');
    expect((await patch(id, { rollover_to: gone })).status).toBe(200); // unchanged: nothing to check
    expect((await patch(id, { rollover_to: target, name: 'Weekly Numbers' })).status).toBe(200);

    await t.db.query('UPDATE lotteries SET rollover_in = 50 WHERE id = $1', [target]);
    const res = await draw(id).expect(201);
    const jackpot = Math.floor((300 * 50) / 100);
    expect(res.body).toMatchObject({ numbers, total_prize: jackpot, rollover: { amount: jackpot, to: target } });
    expect((await prizesOf(id)).map(({ ticket, tier, prize_money }) => ({ ticket, tier, prize_money }))).toEqual([
      { ticket: winner, tier: 5, prize_money: 20 },
    ]);
    const next = await publicLottery(target).expect(200);
    expect(next.body).toMatchObject({ rollover_in: 50 + jackpot, jackpot: 50 + jackpot });
    const [rolled] = await t.db.query<{ actor_id: number; entity_id: string; before: unknown; after: unknown }>(
      `SELECT actor_id, entity_id, before, after FROM audit_log WHERE action = 'lottery.rollover'`,
    );
    expect(rolled).toEqual({
      actor_id: staff.id,
      entity_id: String(target),
      before: { rollover_in: 50 },
      after: { rollover_in: 50 + jackpot, from_lottery_id: id, amount: jackpot },
    });
    const result = (await to(t, api.lotteryResults).expect(200)).body.find((r: { lottery: { id: number } }) => r.lottery.id === id);
    expect(result).toMatchObject({ numbers, rollover: { amount: jackpot, to: target }, prizes: [{ ticket: winner, tier: 5 }] });
    // Drawn: the target can no longer change, the draw is not repeated.
    expect((await patch(id, { rollover_to: null })).body.code).toBe('already_drawn');
    expect((await draw(id)).body.code).toBe('already_drawn');
    const proved = (await proof(id).expect(200)).body;
    expect(proved.numbers).toEqual(numbers);
    expect(verifyProof(proved)).toEqual({ ok: true });
  });

  test('without tickets: the draw still happens and the rolled-in jackpot rolls on; with nothing to roll no target is needed', async () => {
    const empty = await newNumbers();
    const target = await newNumbers({ name: 'Next Numbers' });
    await t.db.query('UPDATE lotteries SET rollover_in = 1234 WHERE id = $1', [empty]);
    await endSales(empty);
    const seed = SEED;
    await enterBeacon(empty, seed);
    expect((await draw(empty)).body.code).toBe('rollover_target_missing');
    await patch(empty, { rollover_to: target }).expect(200);
    const res = await draw(empty).expect(201);
    expect(res.body).toMatchObject({
      numbers: drawNumbers({ seed, tickets: [], beacon: SIGNED.randomness }).numbers,
      prizes: [],
      rollover: { amount: 1234, to: target },
    });
    expect((await publicLottery(target)).body.rollover_in).toBe(1234);
    expect(verifyProof((await proof(empty)).body)).toEqual({ ok: true });

    // Nothing sold, nothing rolled in: a jackpot of 0, drawn without a target.
    const zero = await newNumbers({ name: 'Quiet Numbers' });
    await endSales(zero);
    await enterBeacon(zero, seed);
    expect((await draw(zero).expect(201)).body).toMatchObject({ prizes: [], rollover: { amount: 0, to: null } });
  });

  test('two lotteries naming each other, drawn at the same moment: one rolls into the other, which is then refused; never a deadlock', async () => {
    const a = await newNumbers({ name: 'Left Numbers' });
    const b = await newNumbers({ name: 'Right Numbers' });
    await patch(a, { rollover_to: b }).expect(200);
    await patch(b, { rollover_to: a }).expect(200);
    const seed = SEED;
    for (const id of [a, b]) {
      await t.db.query('UPDATE lotteries SET rollover_in = 500 WHERE id = $1', [id]);
      await endSales(id);
      await enterBeacon(id, seed);
    }
    const [ra, rb] = await Promise.all([draw(a), draw(b)]);
    expect([ra.status, rb.status].sort()).toEqual([201, 409]);
    const refused = ra.status === 409 ? ra : rb;
    expect(refused.body.code).toBe('rollover_target_missing');
    const winner = ra.status === 201 ? a : b;
    const loser = winner === a ? b : a;
    expect((await publicLottery(loser)).body.rollover_in).toBe(1000);
    expect((await prizesOf(winner)).length).toBe(0);
  });

  // PostgreSQL only (PGlite has one connection: a held lock stops everything): the draw of B, whose jackpot rolls into
  // A, takes A's lock before its own, so while A is held B stays free; taking B first would deadlock with A's draw.
  (process.env.TEST_DATABASE_URL ? test : test.skip)('a draw locks the lotteries it needs in id order', async () => {
    const a = await newNumbers({ name: 'First Numbers' });
    const b = await newNumbers({ name: 'Second Numbers' });
    expect(a).toBeLessThan(b);
    await patch(b, { rollover_to: a }).expect(200);
    await t.db.query('UPDATE lotteries SET rollover_in = 500 WHERE id = $1', [b]);
    await endSales(b);
    await enterBeacon(b, SEED);
    let drawing: ReturnType<typeof draw> | undefined;
    const bFree = await t.db.tx(async (tx) => {
      await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE', [a]);
      drawing = draw(b);
      void drawing.then(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
      try {
        await tx.query('SELECT id FROM lotteries WHERE id = $1 FOR UPDATE NOWAIT', [b]);
        return true;
      } catch {
        return false;
      }
    });
    expect(bFree).toBe(true);
    expect((await drawing!).status).toBe(201);
    expect((await publicLottery(a)).body.rollover_in).toBe(500);
  });

  test('the draw page, without JavaScript: no selection by hand, "Draw the numbers", then the numbers and each prize tier', async () => {
    const id = await newNumbers({ name: 'Page Numbers' });
    // Its jackpot goes unwon with these tickets: it rolls into the next one.
    await patch(id, { rollover_to: await newNumbers({ name: 'Next Page Numbers' }) }).expect(200);
    const bulk = manyTickets(400);
    await sellMany(id, player, bulk);
    await endSales(id);
    const tickets = await soldTickets(id);
    // A seed whose numbers give at least one ticket a tier, so that the prizes table has rows.
    const seed = seedFor(tickets, (n) => tickets.some((x) => tierOf(x, n) !== null));
    await enterBeacon(id, seed);
    const agent = await loginAs(t.url, staff.phone, 'secret-pass-1');
    const url = `/admin/lotteries/${id}/draw`;
    const before = await agent.get(url).set('Cookie', 'lang=en').expect(200);
    expect(before.text).toContain('Draw the numbers (verifiable)');
    expect(before.text).toContain('A numbers lottery is drawn by the verifiable draw only');
    expect(before.text).not.toContain('value="propose"');
    const posted = await agent
      .post(url)
      .type('form')
      .send({ _csrf: csrfFrom(before.text), intent: 'verifiable-draw' });
    expect(posted.status).toBe(303);
    const numbers = drawNumbers({ seed, tickets, beacon: SIGNED.randomness }).numbers;
    const after = await agent.get(url).set('Cookie', 'lang=en').expect(200);
    expect(after.text).toContain(`Numbers drawn: ${formatTicket({ main: numbers.slice(0, 5), last: numbers[5] as number })}`);
    const best = Math.min(...tickets.map((x) => tierOf(x, numbers) ?? 9));
    expect(after.text).toContain(['', 'Jackpot', '2nd prize', '3rd prize', '4th prize', '5th prize'][best]);
    const bn = await agent.get(url).set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('ড্র হওয়া নম্বর');
  });

  test('its results cannot be published without its draw (nobody would be paid); after the draw they can be taken back and again', async () => {
    const id = await newNumbers();
    for (const lng of ['en', 'bn']) {
      const res = await patch(id, { is_result_published: true }, lng);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('not_drawn');
      expect(res.body.detail).toMatch(lng === 'en' ? /draw the numbers/ : /নম্বর ড্র করুন/);
    }
    expect((await t.db.one<{ p: boolean }>('SELECT is_result_published AS p FROM lotteries WHERE id = $1', [id]))?.p).toBe(false);
    await endSales(id);
    await enterBeacon(id, SEED);
    await patch(id, { rollover_to: await newNumbers({ name: 'After Numbers' }) }).expect(200);
    await draw(id).expect(201);
    // Taking them back is a superuser's act with a reason (docs/rules/lotteries-and-sales.md#9-the-draw).
    await patch(id, { is_result_published: false, results_reason: 'Checked again' }).expect(403);
    await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [staff.id]);
    try {
      await patch(id, { is_result_published: false, results_reason: 'Checked again' }).expect(200);
    } finally {
      await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [staff.id]);
    }
    await patch(id, { is_result_published: true }).expect(200);
  });

  test('winners by hand are refused for a numbers lottery: its prizes follow from the numbers', async () => {
    const id = await newNumbers();
    await sell(id, player, '05-12-23-34-45-07');
    const res = await to(t, api.drawLottery, { as: staff }).send({
      lottery_id: id,
      tickets: ['05-12-23-34-45-07'],
      reason: 'by hand',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('numbers_kind');
    expect(await t.db.query('SELECT id FROM draw_proposals WHERE lottery_id = $1', [id])).toEqual([]);
  });
});
