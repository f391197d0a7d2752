import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { tellPrizesWon, tellRunsLastDraw } from '../messages/outbox.ts';
import { publishResults } from './queries.ts';

/**
 * The end of every draw, in its transaction (docs/rules/lotteries-and-sales.md#9-the-draw): the results published (sales
 * close, players see their prizes) and the draw audited `lottery.draw` by the staff member who finished it (`actorId`;
 * null: the game's draw job, docs/rules/games.md#3-a-draws-life), with what the draw made (`after`: its prizes, the money, how it was drawn). Answers when it was drawn.
 */
export async function publishDraw(tx: Db, actorId: number | null, lotteryId: number, after: Record<string, unknown>): Promise<string> {
  const drawnAt = await publishResults(tx, lotteryId);
  await recordAudit(tx, {
    actorId,
    action: 'lottery.draw',
    entity: 'lottery',
    entityId: String(lotteryId),
    before: { is_result_published: false, prizes: [] },
    after: { is_result_published: true, drawn_at: drawnAt, ...after },
  });
  // Each winner's notifications page says so at once (docs/rules/messages.md).
  await tellPrizesWon(tx, lotteryId);
  // A run of consecutive draws with one draw left says so (docs/rules/games.md#6-consecutive-draws-and-play-slips).
  await tellRunsLastDraw(tx, lotteryId);
  return drawnAt;
}
