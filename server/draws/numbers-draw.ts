/**
 * The numbers draw of a numbers lottery (docs/rules/draws.md#7-numbers-draw, docs/rules/lotteries-and-sales.md#9-the-draw):
 * the procedure draws five main numbers and a last number from the seed, the frozen tickets and the beacon; every
 * `success` ticket is matched, each winning ticket gets one prize of its best tier, and a jackpot nobody won rolls into
 * the numbers lottery staff named. Called by Draws.verifiableDraw inside its transaction, under the lottery's lock,
 * after its checks (sales closed, beacon known, not drawn); a numbers draw needs no ticket.
 */
import type { z } from 'zod';
import type { DrawReply } from '../../shared/draws/schemas.ts';
import { numbersPrizes, type TierPrizes } from '../../shared/draws/tiers.ts';
import { formatTicket } from '../../shared/ticket.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { successTickets } from './commitment-queries.ts';
import * as nq from './numbers-queries.ts';
import { publishDraw } from './publish.ts';
import { ALGORITHM, drawNumbers, sortedTickets } from './verifiable.ts';

export { numbersLottery, type NumbersLottery } from './numbers-queries.ts';

/** What the draw needs of the announcement: the seed, and the beacon's value of its round. */
type Announced = { seed: string; beacon_value: string; beacon_round: number };

/**
 * Draws the numbers, pays the tiers, rolls an unwon jackpot over, publishes the results and reveals the seed, in the
 * caller's transaction `tx`. Refused (409 `rollover_target_missing`, nothing written) when the jackpot is not won and
 * is not 0 but no numbers lottery not yet drawn is named to receive it: the draw is deterministic, so drawing again
 * after naming one gives the same numbers.
 */
export async function numbersDraw(
  tx: Db,
  staff: AccessClaims,
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
    if (won.rollover > 0) {
      if (lottery.rollover_to === null) refuse('rollover_target_missing');
      const target = await nq.lockRolloverTarget(tx, lottery.rollover_to);
      if (!target || target.id === lottery.id || target.kind !== 'numbers' || target.drawn) refuse('rollover_target_drawn');
      const after = target.rollover_in + won.rollover;
      if (!Number.isSafeInteger(after)) throw new RangeError(`the rollover ${after} is beyond exact whole taka`);
      await nq.addRollover(tx, target.id, won.rollover);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.rollover',
        entity: 'lottery',
        entityId: String(target.id),
        before: { rollover_in: target.rollover_in },
        after: { rollover_in: after, from_lottery_id: lottery.id, amount: won.rollover },
      });
    }
  }
  await nq.setRolloverOut(tx, lottery.id, rollover?.amount ?? 0);

  await nq.recordNumbersDraw(tx, lottery.id, {
    seed: c.seed,
    tickets: tickets.join('\n'),
    ticketsDigest: drawn.tickets_digest,
    numbers: formatTicket({ main: drawn.numbers.slice(0, 5), last: drawn.numbers[5] as number }),
  });
  // The jackpot first, then each tier; within a tier in ticket order.
  const prizes: Awaited<ReturnType<typeof nq.insertTierPrize>>[] = [];
  for (const w of [...won.winners].sort((a, b) => a.tier - b.tier || (a.ticket < b.ticket ? -1 : 1)))
    prizes.push(
      await nq.insertTierPrize(tx, {
        lottery_id: lottery.id,
        transaction_id: w.id,
        ticket: w.ticket,
        prize_money: w.prize_money,
        tier: w.tier,
      }),
    );
  const remainder = won.split?.remainder ?? 0;
  const drawnAt = await publishDraw(tx, staff, lottery.id, {
    kind: 'numbers',
    numbers: drawn.numbers,
    jackpot: won.jackpot,
    jackpot_share: lottery.jackpot_share,
    rollover_in: lottery.rollover_in,
    tier_prizes: tierPrizes,
    tier_counts: won.counts,
    remainder,
    paid: won.paid,
    ...(rollover ? { rollover } : {}),
    prizes: prizes.map((p) => ({
      id: p.id,
      ticket: p.ticket,
      transaction_id: p.transaction_id,
      tier: p.tier,
      prize_money: p.prize_money,
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
