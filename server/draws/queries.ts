import type { Db } from '../db/index.ts';
import type { Language } from '../../shared/i18n.ts';

/** What a draw needs of its lottery, read under the lottery's row lock. */
export type DrawLottery = {
  id: number;
  kind: 'tickets' | 'numbers';
  winners: number;
  total_prize: number;
  is_result_published: boolean;
  end_date: string;
};

/**
 * Locks the lottery's row until the transaction ends (the lock every purchase and status change of the lottery
 * takes first, server/lotteries/queries.ts lockLottery): two staff finishing the same draw take turns, and the second sees the
 * first one's results.
 */
export const lockDrawLottery = (db: Db, id: number) =>
  db.one<DrawLottery>('SELECT id, kind, winners, total_prize, is_result_published, end_date FROM lotteries WHERE id = $1 FOR UPDATE', [id]);

/** Locks these lotteries' rows in id order (a draw that needs two takes them in one order, never deadlocking another). */
export const lockLotteries = (db: Db, ids: readonly number[]) =>
  db.query('SELECT id FROM lotteries WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [ids]);

/** Whether the lottery has prizes already (a draw whose results staff later took back is still drawn). */
export const hasPrizes = async (db: Db, lotteryId: number) =>
  (await db.one('SELECT 1 AS x FROM prizes WHERE lottery_id = $1 LIMIT 1', [lotteryId])) !== undefined;

export const lotteryExists = async (db: Db, id: number) => (await db.one('SELECT 1 AS x FROM lotteries WHERE id = $1', [id])) !== undefined;

export type SoldTicket = { id: number; ticket: string; user_id: number; activated_by: number | null };

/**
 * The `success` transactions of the lottery among these tickets: the only ones that can win. With their holders: the
 * purchase's player and, for an activated generated ticket, who activated it (neither may choose it as a winner).
 */
export const soldTickets = (db: Db, lotteryId: number, tickets: readonly string[]) =>
  db.query<SoldTicket>(
    `SELECT t.id, t.ticket, t.user_id, g.activated_by FROM transactions t LEFT JOIN generated_tickets g ON g.transaction_id = t.id
      WHERE t.lottery_id = $1 AND t.status = 'success' AND t.ticket = ANY($2::text[])`,
    [lotteryId, tickets],
  );

export type PrizeRow = { id: number; lottery_id: number; transaction_id: number; ticket: string; prize_money: number };

export async function insertPrize(db: Db, p: Omit<PrizeRow, 'id'>): Promise<PrizeRow> {
  const row = await db.one<PrizeRow>(
    `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, $4)
     RETURNING id, lottery_id, transaction_id, ticket, prize_money`,
    [p.lottery_id, p.transaction_id, p.ticket, p.prize_money],
  );
  if (!row) throw new Error('insert returned nothing');
  return row;
}

/** Publishes the results: sales close and players see their prizes. */
export async function publishResults(db: Db, id: number): Promise<string> {
  const row = await db.one<{ drawn_at: string }>(
    'UPDATE lotteries SET is_result_published = true, drawn_at = now(), updated_at = now() WHERE id = $1 RETURNING drawn_at',
    [id],
  );
  if (!row) throw new Error('lottery vanished under its lock');
  return row.drawn_at;
}

/** The lottery's prizes, a withheld one with its reason (docs/rules/lotteries-and-sales.md#9-the-draw). */
/** A lottery's prizes, each with whether its money has reached the winner: its claim's transfer completed. */
export const prizesOf = (db: Db, lotteryId: number) =>
  db.query<PrizeRow & { withheld_reason: string | null; paid_out: boolean }>(
    `SELECT p.id, p.lottery_id, p.transaction_id, p.ticket, p.prize_money, p.withheld_reason,
            EXISTS (SELECT 1 FROM prize_claims c WHERE c.prize_id = p.id AND c.status = 'transfer_completed') AS paid_out
       FROM prizes p WHERE p.lottery_id = $1 ORDER BY p.id`,
    [lotteryId],
  );

// The draw page: participants, random winner, winners' notices --------------------------------

export type ParticipantRow = {
  id: number;
  name: string;
  phone: string | null;
  amount: number;
  ticket: string;
  status: string;
  created_at: string;
};

export type ParticipantSearch = {
  /** Part of a name, phone or ticket (a LIKE pattern, already escaped). */
  like: string | null;
  /** The search read as a ticket or a phone number in stored form, matched exactly too. */
  ticket: string | null;
  phone: string | null;
};

const PARTICIPANT_WHERE = `WHERE t.lottery_id = $1 AND t.status = 'success'
  AND ($2::text IS NULL OR u.name ILIKE $2 OR u.phone ILIKE $2 OR t.ticket ILIKE $2 OR t.ticket = $3 OR u.phone = $4)`;

/** A page of the lottery's participants (its `success` transactions) in the order they were bought, and their count. */
export async function participants(
  db: Db,
  lotteryId: number,
  s: ParticipantSearch,
  limit: number,
  offset: number,
): Promise<{ rows: ParticipantRow[]; total: number }> {
  const params = [lotteryId, s.like, s.ticket, s.phone];
  const rows = await db.query<ParticipantRow>(
    `SELECT t.id, u.name, u.phone, t.amount, t.ticket, t.status, t.created_at
       FROM transactions t JOIN users u ON u.id = t.user_id
       ${PARTICIPANT_WHERE} ORDER BY t.id LIMIT $5 OFFSET $6`,
    [...params, limit, offset],
  );
  const total =
    (
      await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM transactions t JOIN users u ON u.id = t.user_id ${PARTICIPANT_WHERE}`,
        params,
      )
    )?.n ?? 0;
  return { rows, total };
}

/** How many of the lottery's `success` tickets are not among `exclude` (the random winner's range). */
export const eligibleCount = async (db: Db, lotteryId: number, exclude: readonly string[]) =>
  (
    await db.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE lottery_id = $1 AND status = 'success' AND NOT (ticket = ANY($2::text[]))`,
      [lotteryId, exclude],
    )
  )?.n ?? 0;

/**
 * The `index`-th (from 0) of those tickets in id order: one row read through the index
 * transactions_lottery_success (server/db/migrations/007-prize-notifications.ts), never the list in memory.
 */
export const eligibleAt = (db: Db, lotteryId: number, exclude: readonly string[], index: number) =>
  db.one<ParticipantRow>(
    `SELECT t.id, u.name, u.phone, t.amount, t.ticket, t.status, t.created_at
       FROM (SELECT id FROM transactions WHERE lottery_id = $1 AND status = 'success' AND NOT (ticket = ANY($2::text[]))
             ORDER BY id OFFSET $3 LIMIT 1) pick
       JOIN transactions t ON t.id = pick.id JOIN users u ON u.id = t.user_id`,
    [lotteryId, exclude, index],
  );

export type NoticeLottery = { id: number; name: string; name_bn: string; is_result_published: boolean; drawn_at: string | null };

export const noticeLottery = (db: Db, id: number) =>
  db.one<NoticeLottery>('SELECT id, name, name_bn, is_result_published, drawn_at FROM lotteries WHERE id = $1', [id]);

/** A prize's winner as his notice needs him: where to send it, and his messages' language (docs/rules/messages.md). */
export type WinnerRow = { id: number; ticket: string; prize_money: number; phone: string | null; email: string | null; language: Language };

/**
 * Takes the lottery's prizes whose winner has not been sent a notice yet, marking them sent: a prize is taken by one
 * caller only, so a second press (or a concurrent one) finds nothing to send.
 */
export const takeUnnotified = (db: Db, lotteryId: number) =>
  db.query<WinnerRow>(
    `WITH taken AS (
       UPDATE prizes SET notified_at = now() WHERE lottery_id = $1 AND notified_at IS NULL RETURNING id, ticket, prize_money, transaction_id
     )
     SELECT taken.id, taken.ticket, taken.prize_money, u.phone, u.email, u.language
       FROM taken JOIN transactions t ON t.id = taken.transaction_id JOIN users u ON u.id = t.user_id ORDER BY taken.id`,
    [lotteryId],
  );

/** A notice that could not be sent: the prize may be taken again by the next press. */
export const releaseNotice = (db: Db, prizeId: number) => db.query('UPDATE prizes SET notified_at = NULL WHERE id = $1', [prizeId]);

export const prizeCount = async (db: Db, lotteryId: number) =>
  (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM prizes WHERE lottery_id = $1', [lotteryId]))?.n ?? 0;
