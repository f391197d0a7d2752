/**
 * The numbers draw of a numbers lottery (docs/rules/draws.md#7-numbers-draw, docs/rules/lotteries-and-sales.md#9-the-draw):
 * the procedure draws five main numbers and a last number from the seed, the frozen tickets and the beacon; every
 * `success` ticket is matched, each winning ticket gets one prize of its best tier, and a jackpot nobody won rolls into
 * the numbers lottery staff named. Called by Draws.verifiableDraw inside its transaction, under the lottery's lock,
 * after its checks (sales closed, beacon known, not drawn); a numbers draw needs no ticket.
 */
import type { z } from 'zod';
import type { DrawReply } from '../../shared/draws/schemas.ts';
import { numbersPrizes, type Tier, type TierPrizes } from '../../shared/draws/tiers.ts';
import { formatTicket } from '../../shared/ticket.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { successTickets } from './commitment-queries.ts';
import * as nq from './numbers-queries.ts';
import { publishDraw } from './publish.ts';
import { ALGORITHM, drawNumbers, selectLucky, sortedTickets, type LuckyWinner } from './verifiable.ts';

export { numbersLottery, type NumbersLottery } from './numbers-queries.ts';

/** What the draw needs of the announcement: the seed, and the beacon's value of its round. */
type Announced = { seed: string; beacon_value: string; beacon_round: number };

/**
 * Draws the numbers, pays the tiers, rolls an unwon jackpot over, publishes the results and reveals the seed, in the
 * caller's transaction `tx`. A one-off lottery's unwon jackpot goes where staff named it: refused (409
 * `rollover_target_missing`, nothing written) when it is not 0 and no numbers lottery not yet drawn is named to
 * receive it (the draw is deterministic, so drawing again after naming one gives the same numbers). A game's goes to
 * the game's next draw, or waits in the game for it (rollOver).
 */
export async function numbersDraw(
  tx: Db,
  /** Who draws: a staff member's id, or null for the game's draw job. */
  actorId: number | null,
  lottery: nq.NumbersLottery,
  c: Announced,
): Promise<z.input<typeof DrawReply>> {
  const sold = await successTickets(tx, lottery.id);
  const tickets = sortedTickets(sold.map((r) => r.ticket));
  const drawn = drawNumbers({ seed: c.seed, tickets, beacon: c.beacon_value });
  const tierPrizes: TierPrizes = [lottery.tier2_prize, lottery.tier3_prize, lottery.tier4_prize, lottery.tier5_prize];
  const won = numbersPrizes({
    tickets: sold,
    numbers: drawn.numbers,
    sales: await nq.salesOf(tx, lottery.id),
    jackpotShare: lottery.jackpot_share,
    rolloverIn: lottery.rollover_in,
    tierPrizes,
  });

  let rollover: { amount: number; to: number | null } | undefined;
  if (won.counts[1] === 0) {
    rollover = { amount: won.rollover, to: lottery.rollover_to };
    if (won.rollover > 0) rollover.to = await rollOver(tx, actorId, lottery, won.rollover);
  }
  await nq.setRolloverOut(tx, lottery.id, rollover?.amount ?? 0, rollover?.to ?? null);

  // Lucky Chance (docs/rules/draws.md#7a-lucky-chance): a game's draw draws its codes among the same tickets with the
  // same key; none without tickets.
  const lucky =
    lottery.lucky_count > 0 ? selectLucky({ seed: c.seed, tickets, beacon: c.beacon_value, count: lottery.lucky_count }).lucky : null;
  await nq.recordNumbersDraw(tx, lottery.id, {
    seed: c.seed,
    tickets: tickets.join('\n'),
    ticketsDigest: drawn.tickets_digest,
    numbers: formatTicket({ main: drawn.numbers.slice(0, 5), last: drawn.numbers[5] as number }),
    lucky: lucky === null ? null : lucky.map((w) => w.ticket).join('\n'),
  });
  const prizes = await insertPrizes(tx, lottery, won.winners, lucky ?? [], new Map(sold.map((r) => [r.ticket, r.id])));
  const remainder = won.split?.remainder ?? 0;
  const drawnAt = await publishDraw(tx, actorId, lottery.id, {
    kind: 'numbers',
    numbers: drawn.numbers,
    jackpot: won.jackpot,
    jackpot_share: lottery.jackpot_share,
    rollover_in: lottery.rollover_in,
    tier_prizes: tierPrizes,
    tier_counts: won.counts,
    remainder,
    paid: won.paid + (lucky?.length ?? 0) * lottery.lucky_prize,
    ...(rollover ? { rollover } : {}),
    ...(lucky ? { lucky_chance: { count: lottery.lucky_count, prize: lottery.lucky_prize, winners: lucky } } : {}),
    prizes: prizes.map((p) => ({
      id: p.id,
      ticket: p.ticket,
      transaction_id: p.transaction_id,
      tier: p.tier,
      prize_money: p.prize_money,
      ...(p.lucky_code ? { lucky_code: p.lucky_code } : {}),
    })),
    algorithm: ALGORITHM,
    tickets_digest: drawn.tickets_digest,
    beacon_round: Number(c.beacon_round),
  });
  return {
    lottery_id: lottery.id,
    drawn_at: drawnAt,
    total_prize: won.jackpot,
    remainder,
    prizes,
    numbers: drawn.numbers,
    ...(rollover ? { rollover } : {}),
  };
}

/**
 * Rolls an unwon jackpot `amount` on, audited `lottery.rollover` (docs/rules/games.md#4-the-jackpot-rolls-on): a game's
 * draw into the game's next draw not drawn yet, found under the game's lock (the calendar makes draws under it), or,
 * when there is none (the game paused), into the game's `carry`, which the next draw made takes; a one-off lottery
 * into the lottery staff named. Answers the lottery it went to (null: the game's carry).
 */
async function rollOver(tx: Db, actorId: number | null, lottery: nq.NumbersLottery, amount: number): Promise<number | null> {
  if (lottery.game_id !== null && lottery.draw_at !== null) {
    const game = await nq.lockGameCarry(tx, lottery.game_id);
    if (!game) throw new Error(`the game ${lottery.game_id} of lottery ${lottery.id} is missing`);
    const next = await nq.lockNextDraw(tx, lottery.game_id, lottery.draw_at);
    if (!next) {
      const after = exactSum(game.carry, amount);
      await nq.addCarry(tx, game.id, amount);
      await auditRollover(
        tx,
        actorId,
        lottery.id,
        { game_id: game.id, carry: game.carry },
        { game_id: game.id, carry: after, from_lottery_id: lottery.id, amount },
      );
      return null;
    }
    await addTo(tx, actorId, next, lottery.id, amount);
    return next.id;
  }
  if (lottery.rollover_to === null) refuse('rollover_target_missing');
  const target = await nq.lockRolloverTarget(tx, lottery.rollover_to);
  if (!target || target.id === lottery.id || target.kind !== 'numbers' || target.drawn) refuse('rollover_target_drawn');
  await addTo(tx, actorId, target, lottery.id, amount);
  return target.id;
}

/** Whole taka added, refused beyond exact integers. */
function exactSum(a: number, b: number): number {
  const after = a + b;
  if (!Number.isSafeInteger(after)) throw new RangeError(`the rollover ${after} is beyond exact whole taka`);
  return after;
}

/** The jackpot added to the locked lottery `target`'s rollover_in, audited. */
async function addTo(
  tx: Db,
  actorId: number | null,
  target: { id: number; rollover_in: number },
  from: number,
  amount: number,
): Promise<void> {
  const after = exactSum(target.rollover_in, amount);
  await nq.addRollover(tx, target.id, amount);
  await auditRollover(tx, actorId, target.id, { rollover_in: target.rollover_in }, { rollover_in: after, from_lottery_id: from, amount });
}

/** The audit of a jackpot rolled on (`lottery.rollover`), about the lottery it is recorded on: what changed, before and after. */
const auditRollover = (tx: Db, actorId: number | null, lotteryId: number, before: object, after: object) =>
  recordAudit(tx, { actorId, action: 'lottery.rollover', entity: 'lottery', entityId: String(lotteryId), before, after });

/**
 * The draw's prizes written, one per winning ticket (docs/rules/games.md#5-lucky-chance): the jackpot first, then each
 * tier, within a tier in ticket order, each with its tier's money; then Lucky Chance's winners in the order drawn. A
 * Lucky Chance winner that also won a tier has its prize added to that tier's, in the one prize, marked with its code.
 */
async function insertPrizes(
  tx: Db,
  lottery: nq.NumbersLottery,
  tiered: readonly { id: number; ticket: string; tier: Tier; prize_money: number }[],
  lucky: readonly LuckyWinner[],
  ids: ReadonlyMap<string, number>,
): Promise<nq.TierPrizeRow[]> {
  const codes = new Map(lucky.map((w) => [w.ticket, w.code]));
  const rows: nq.TierPrizeRow[] = [];
  for (const w of [...tiered].sort((a, b) => a.tier - b.tier || (a.ticket < b.ticket ? -1 : 1))) {
    const code = codes.get(w.ticket) ?? null;
    rows.push(
      await nq.insertTierPrize(tx, {
        lottery_id: lottery.id,
        transaction_id: w.id,
        ticket: w.ticket,
        prize_money: code === null ? w.prize_money : exactSum(w.prize_money, lottery.lucky_prize),
        tier: w.tier,
        lucky_code: code,
      }),
    );
    codes.delete(w.ticket);
  }
  for (const w of lucky) {
    if (!codes.has(w.ticket)) continue;
    rows.push(
      await nq.insertTierPrize(tx, {
        lottery_id: lottery.id,
        transaction_id: ids.get(w.ticket) as number,
        ticket: w.ticket,
        prize_money: lottery.lucky_prize,
        tier: null,
        lucky_code: w.code,
      }),
    );
  }
  return rows;
}
