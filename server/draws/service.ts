import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { DrawBody, DrawReply, Prize } from '../../shared/draws/schemas.ts';
import { firstDuplicate } from '../../shared/draws/split.ts';
import { splitPrize } from '../../shared/money.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { insertAudit } from '../purchases/queries.ts';
import * as q from './queries.ts';

/**
 * Finishing a draw (docs/rules/lotteries-and-sales.md#9-the-draw): staff name the winning tickets; the server checks
 * them against the lottery's sales, splits the lottery's own total prize and publishes the results, all in one
 * database transaction under the lottery's row lock, audited.
 */
export class Draws {
  constructor(private readonly db: Db) {}

  async finish(staff: AccessClaims, body: z.output<typeof DrawBody>, t: TFunction): Promise<z.input<typeof DrawReply>> {
    const { tickets } = body;
    return this.db.tx(async (tx) => {
      const lottery = await q.lockDrawLottery(tx, body.lottery_id);
      if (!lottery) throw ApiError.fields({ lottery_id: [t('api:lotteryNotFound')] }, 404);
      // Results published, or a draw whose results were taken back: either way this lottery has been drawn.
      if (lottery.is_result_published || (await q.hasPrizes(tx, lottery.id)))
        throw ApiError.detail(409, t('api:drawAlreadyFinished'), 'already_drawn');
      const twice = firstDuplicate(tickets);
      if (twice) throw ApiError.fields({ tickets: [t('api:drawTicketTwice', { ticket: twice })] });
      if (tickets.length > lottery.winners)
        throw ApiError.fields({ tickets: [t('api:drawTooManyTickets', { count: tickets.length, winners: lottery.winners })] });
      const sold = new Map((await q.soldTickets(tx, lottery.id, tickets)).map((r) => [r.ticket, r.id]));
      const unsold = tickets.filter((x) => !sold.has(x));
      if (unsold.length) throw ApiError.fields({ tickets: unsold.map((ticket) => t('api:drawTicketNotSold', { ticket })) });
      const { each, remainder } = splitPrize(lottery.total_prize, tickets.length);
      const prizes: q.PrizeRow[] = [];
      for (const ticket of tickets)
        prizes.push(
          await q.insertPrize(tx, { lottery_id: lottery.id, transaction_id: sold.get(ticket) as number, ticket, prize_money: each }),
        );
      const drawnAt = await q.publishResults(tx, lottery.id);
      await insertAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.draw',
        entity: 'lottery',
        entityId: String(lottery.id),
        before: { is_result_published: false, prizes: [] },
        after: {
          is_result_published: true,
          drawn_at: drawnAt,
          total_prize: lottery.total_prize,
          remainder,
          prizes: prizes.map((p) => ({ id: p.id, ticket: p.ticket, transaction_id: p.transaction_id, prize_money: p.prize_money })),
        },
      });
      return { lottery_id: lottery.id, drawn_at: drawnAt, total_prize: lottery.total_prize, remainder, prizes };
    });
  }

  /** A lottery's prizes (staff), in the order the draw chose them. */
  async prizes(lotteryId: number, t: TFunction): Promise<z.input<typeof Prize>[]> {
    if (!(await q.lotteryExists(this.db, lotteryId))) throw ApiError.detail(404, t('api:lotteryNotFound'), 'not_found');
    return q.prizesOf(this.db, lotteryId);
  }
}
