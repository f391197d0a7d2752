import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';
import { beginCheck } from '../payments/service.ts';
import type { ClaimStatus } from '../../shared/claims/schemas.ts';
import type { TransactionStatus } from '../../shared/purchases/schemas.ts';
import type { MyTransactionFilter } from '../../shared/purchases/states.ts';
import { jackpotAmount, type LotteryKind } from '../../shared/draws/tiers.ts';
import { JACKPOT, jackpotOf, SALE_COLUMNS, type SaleState } from '../lotteries/service.ts';
import { playCheckColumns, type PlayCheckRead } from '../play-safe/service.ts';
import { CARD_LOTTERY_COLUMNS, type LotteryFacts, type LotteryFactsStore } from './lottery-facts.ts';

/** A row of `transactions`. */
export type TransactionRow = {
  id: number;
  user_id: number;
  lottery_id: number;
  ticket: string;
  amount: number;
  transaction_type: 'payment' | 'activation';
  payment_method: string;
  payment_number: string;
  trx_id: string | null;
  status: TransactionStatus;
  idempotency_key: string | null;
  nid: string;
  /** One entry of a slip's run of draws, paid with the slip (migration 036); null for a ticket bought alone. */
  slip_id: number | null;
  created_at: string;
  updated_at: string;
};

const HOLDER = `SELECT id FROM transactions WHERE lottery_id = $1 AND ticket = $2 AND status IN ('pending', 'success')
  UNION ALL SELECT id FROM generated_tickets WHERE lottery_id = $1 AND ticket_number = $2 AND activated_at IS NULL LIMIT 1`;

/**
 * What holds this combination in this lottery, if anything: a pending or successful transaction, or a generated
 * ticket not yet activated (docs/rules/tickets.md#6-generated-tickets).
 */
export const holderOf = (db: Db, lotteryId: number, ticket: string) => db.one<{ id: number }>(HOLDER, [lotteryId, ticket]);

/** What a purchase reads under the lottery's lock (purchaseReads). */
export type PurchaseReads = SaleState &
  PlayCheckRead & {
    /** Whether the combination is held (holderOf). */
    held: boolean;
    /** The transaction the caller made before with this idempotency key, if any: its id, lottery and ticket. */
    key_id: number | null;
    key_lottery_id: number | null;
    key_ticket: string | null;
  };

/**
 * A purchase's reads under the lottery's lock, in one statement: the first transaction of the caller's idempotency key,
 * the lottery's sale now (saleState), whether the combination is held (holderOf) and what the play check reads first
 * (server/play-safe/queries.ts playCheckColumns). Run after the lock, in a statement of its own, as saleState is: a
 * statement that waited for the lock sees only what was committed before it began. One round trip instead of four
 * while every other buyer of the lottery waits (bench/RESULTS.md).
 */
export const purchaseReads = (db: Db, r: { lotteryId: number; ticket: string; userId: number; key: string | null; sid: string }) =>
  db.one<PurchaseReads>(
    `SELECT ${SALE_COLUMNS}, EXISTS (${HOLDER}) AS held, k.id AS key_id, k.lottery_id AS key_lottery_id, k.ticket AS key_ticket,
       ${playCheckColumns('$3', '$5')}
     FROM lotteries l LEFT JOIN transactions k ON k.user_id = $3 AND k.idempotency_key = $4
     WHERE l.id = $1`,
    [r.lotteryId, r.ticket, r.userId, r.key, r.sid],
  );

/** The transaction that carries this TrxID, if any (whatever its owner and state). */
export const trxIdHolder = (db: Db, trxId: string) => db.one<{ id: number }>('SELECT id FROM transactions WHERE trx_id = $1', [trxId]);

export const byIdempotencyKey = (db: Db, userId: number, key: string) =>
  db.one<TransactionRow>('SELECT * FROM transactions WHERE user_id = $1 AND idempotency_key = $2', [userId, key]);

export const transactionById = (db: Db, id: number) => db.one<TransactionRow>('SELECT * FROM transactions WHERE id = $1', [id]);

export const transactionForUpdate = (db: Db, id: number) =>
  db.one<TransactionRow>('SELECT * FROM transactions WHERE id = $1 FOR UPDATE', [id]);

/**
 * A purchase locked for a change, in the caller's database transaction: its lottery's row first, then its own, the
 * order every purchase takes its locks in. The lottery is found from the purchase by the statement that locks it (a
 * purchase never changes lottery), a round trip fewer than reading the purchase first. Undefined when there is none.
 *
 * `lottery: 'shared'` is for a change that moves nothing in the lottery's tally (a TrxID given, an approval proposed):
 * the lottery's row is locked FOR SHARE, so its close and its draw (FOR UPDATE) still wait for the change and the
 * change for them, as does every change that moves a ticket, but two such changes do not wait for each other
 * (docs/decisions/093-writes-hold-the-lottery-for-less.md).
 */
export async function lockTransaction(
  db: Db,
  id: number,
  lottery: 'exclusive' | 'shared' = 'exclusive',
): Promise<TransactionRow | undefined> {
  // Both asked at once: a transaction's statements run one after the other, so the purchase's row is locked only once
  // the lottery's lock is granted, and both are written together (docs/decisions/090-a-trx-id-reads-sent-together.md).
  const [locked, row] = await Promise.all([
    db.one<{ id: number }>(
      `SELECT id FROM lotteries WHERE id = (SELECT lottery_id FROM transactions WHERE id = $1) ${lottery === 'shared' ? 'FOR SHARE' : 'FOR UPDATE'}`,
      [id],
    ),
    transactionForUpdate(db, id),
  ]);
  return locked ? row : undefined;
}

/** The lottery's `pending` transactions, locked, in id order: what the freeze rejects (server/draws/freeze.ts). */
export const pendingForUpdate = (db: Db, lotteryId: number) =>
  db.query<TransactionRow>("SELECT * FROM transactions WHERE lottery_id = $1 AND status = 'pending' ORDER BY id FOR UPDATE", [lotteryId]);

export type NewTransaction = {
  user_id: number;
  lottery_id: number;
  ticket: string;
  amount: number;
  payment_method: string;
  payment_number: string;
  trx_id: string | null;
  nid: string;
  idempotency_key: string | null;
};

/**
 * A new pending bKash purchase, answered as the player's list shows it (playerTransaction) by the same statement: the
 * purchase's answer needs no statement of its own after the commit. The statement sees the lottery's tally as before
 * the insert, which a pending purchase does not change: a numbers lottery's jackpot counts paid tickets only
 * (tests/api/lottery-tallies.test.ts checks the answer against the lottery's).
 *
 * Undefined when the lottery has no ticket left. Purchases share the lottery's lock, so the last ticket is decided
 * here: the lottery's tally row is locked first (`room`); a purchase that waited for it reads the row again as the one
 * before it committed it (READ COMMITTED), with its condition tested again; the insert's trigger then adds the ticket
 * to that row, held until this transaction ends (docs/decisions/094-purchases-share-the-lottery.md). A TrxID typed with
 * the purchase has its bKash check begun by the same statement (docs/decisions/103-a-trx-id-check-begun-with-it.md).
 */
export async function insertPurchase(db: Db, t: NewTransaction): Promise<PlayerTransactionRow | undefined> {
  return db.one<PlayerTransactionRow>(
    `WITH room AS (
       SELECT x.lottery_id FROM lottery_tallies x JOIN lotteries l ON l.id = x.lottery_id
       WHERE x.lottery_id = $2 AND x.held < l.total_tickets FOR UPDATE OF x),
     made AS (
       INSERT INTO transactions (user_id, lottery_id, ticket, amount, transaction_type, payment_method, payment_number, trx_id, nid, idempotency_key, status, trx_id_at)
       SELECT $1::bigint, room.lottery_id, $3::text, $4::bigint, 'payment', $5::text, $6::text, $7::text, $8::text, $9::text, 'pending',
         CASE WHEN $7::text IS NULL THEN NULL ELSE now() END
       FROM room RETURNING *),
     begun AS (${beginCheck('made')})
     ${playerSelect('made')}`,
    [t.user_id, t.lottery_id, t.ticket, t.amount, t.payment_method, t.payment_number, t.trx_id, t.nid, t.idempotency_key],
  );
}

/**
 * The TrxID of a pending purchase, stored with its bKash check begun in the same statement: whether a check of this
 * TrxID is open to ask bKash about, begun now or before (docs/decisions/103-a-trx-id-check-begun-with-it.md).
 */
export const setTrxId = async (db: Db, id: number, trxId: string, paymentNumber: string | null): Promise<boolean> =>
  // trx_id_at: when the TrxID was given (docs/rules/payments.md#85-the-48-hour-flag).
  (
    await db.one<{ open: boolean }>(
      `WITH given AS (
         UPDATE transactions SET trx_id = $2, payment_number = COALESCE($3, payment_number), trx_id_at = now(), updated_at = now()
         WHERE id = $1 RETURNING id, trx_id, status, transaction_type),
       begun AS (${beginCheck('given')} RETURNING transaction_id)
       SELECT EXISTS (SELECT 1 FROM begun)
         OR EXISTS (SELECT 1 FROM trx_id_checks WHERE transaction_id = $1 AND trx_id = $2 AND state = 'checking') AS open`,
      [id, trxId, paymentNumber],
    )
  )?.open === true;

export const setStatus = (db: Db, id: number, status: TransactionStatus) =>
  db.one<TransactionRow>('UPDATE transactions SET status = $2, updated_at = now() WHERE id = $1 RETURNING *', [id, status]);

// Lists ---------------------------------------------------------------------------------------------

export type PlayerTransactionRow = Omit<TransactionRow, 'user_id' | 'idempotency_key' | 'nid' | 'updated_at'> & {
  l_name: string;
  l_name_bn: string;
  l_end_date: string;
  l_total_prize: number;
  l_is_result_published: boolean;
  l_drawn_at: string | null;
  l_kind: LotteryKind;
  /** A game's draw's time (docs/rules/games.md), after its sales close; null for a one-off lottery. */
  l_draw_at: string | null;
  /** A numbers draw's numbers (written as a ticket) once the results are published. */
  numbers: string | null;
  prize_id: number | null;
  prize_money: number | null;
  withheld_reason: string | null;
  /** The prize holds Lucky Chance's (its code), alone or with a tier's (docs/rules/games.md#5-lucky-chance). */
  prize_lucky_code: string | null;
  claim_status: ClaimStatus | null;
  /** A game's draw with Lucky Chance: its commitment `C`, which gives every entry its code (docs/rules/draws.md#7a-lucky-chance). */
  lucky_key: string | null;
};

/** A card's own columns over `transactions t`, and its prize's and claim's over `prizes p` and `prize_claims c`. */
const CARD_OWN_COLUMNS = `t.id, t.lottery_id, t.slip_id, t.ticket, t.amount, t.transaction_type, t.payment_method,
    t.payment_number, t.trx_id, t.status, t.created_at`;
const CARD_PRIZE_COLUMNS = 'p.id AS prize_id, p.prize_money, p.withheld_reason, p.lucky_code AS prize_lucky_code, c.status AS claim_status';

/**
 * A prize counts only once its lottery's results are published (the draw publishes both in one transaction); its claim
 * comes with it (docs/rules/lotteries-and-sales.md#11-prize-claims). The lottery's tally (its jackpot) and its draw's
 * commitment (its numbers, its Lucky Chance key) are joined, one row each by primary key, not looked up again for
 * every card of the same lottery (docs/decisions/092-my-lotteries-joins-its-lotteries-once.md).
 */
const playerSelect = (from: string, extra = '') => `SELECT ${CARD_OWN_COLUMNS}, ${CARD_LOTTERY_COLUMNS},
    COALESCE(${jackpotOf('x.paid')}, l.total_prize) AS l_total_prize, ${CARD_PRIZE_COLUMNS}${extra}
  FROM ${from} t
  JOIN lotteries l ON l.id = t.lottery_id
  LEFT JOIN lottery_tallies x ON x.lottery_id = l.id
  LEFT JOIN draw_commitments dc ON dc.lottery_id = l.id
  LEFT JOIN prizes p ON p.transaction_id = t.id AND l.is_result_published
  LEFT JOIN prize_claims c ON c.prize_id = p.id`;
const PLAYER_SELECT = playerSelect('transactions');

/**
 * `only` as SQL (docs/rules/lotteries-and-sales.md#7-buying-a-ticket, "The player's list"): the tickets he holds or paid
 * for, or the purchases awaiting payment (shared/purchases/states.ts ticketState).
 */
const ONLY: Record<MyTransactionFilter | 'all', string> = {
  all: '',
  tickets: " AND (status = 'success' OR (status = 'pending' AND trx_id IS NOT NULL))",
  unfinished: " AND status = 'pending' AND trx_id IS NULL",
};

/** The player's own transactions, newest first: every query names the owner. */
export async function playerTransactions(
  db: Db,
  userId: number,
  limit: number,
  offset: number,
  only: MyTransactionFilter | 'all' = 'all',
): Promise<{ rows: PlayerTransactionRow[]; total: number }> {
  // The page of the player's transactions first (by the index on user and date), its total counted in the same pass;
  // then their lotteries, prizes and claims for those rows only (bench/RESULTS.md: 1.6 ms → 0.6 ms in process).
  const where = `user_id = $1${ONLY[only]}`;
  const page = `(SELECT *, count(*) OVER () AS total_count FROM transactions WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3)`;
  const found = await db.query<PlayerTransactionRow & { total_count: number }>(
    `${playerSelect(page, ', t.total_count::int AS total_count')} ORDER BY t.created_at DESC, t.id DESC`,
    [userId, limit, offset],
  );
  const rows = found.map(({ total_count: _n, ...r }) => r);
  return { rows, total: await totalOf(db, found[0]?.total_count, offset, where, userId) };
}

/** A page's total, as its first row carries it; a page past the end has no row to carry it, the first page empty none. */
async function totalOf(db: Db, carried: number | undefined, offset: number, where: string, userId: number): Promise<number> {
  if (carried !== undefined) return carried;
  if (offset === 0) return 0;
  return (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE ${where}`, [userId]))?.n ?? 0;
}

/** A run of draws once: a slip's entries other than its lead are left out (the slip's summary tells them). */
const RUN_ONCE =
  ' AND (slip_id IS NULL OR EXISTS (SELECT 1 FROM slips s WHERE s.id = transactions.slip_id AND s.lead_id = transactions.id))';

/** A card's own part with its lottery's tally (sales paid, version of the rest), its prize and its claim (playerLotteries). */
type OwnRow = Omit<PlayerTransactionRow, keyof LotteryFacts | 'l_total_prize'> & { x_paid: number | null; x_facts: number | null };

const ownSelect = (from: string, extra: string) => `SELECT ${CARD_OWN_COLUMNS}, x.paid AS x_paid, x.facts AS x_facts,
    ${CARD_PRIZE_COLUMNS}${extra}
  FROM ${from} t
  LEFT JOIN lottery_tallies x ON x.lottery_id = t.lottery_id
  LEFT JOIN prizes p ON p.transaction_id = t.id
  LEFT JOIN prize_claims c ON c.prize_id = p.id`;

/** A card from its own part and its lottery's facts: as playerSelect makes it, a prize shown once its results are published. */
function cardOf({ x_paid, x_facts: _v, ...own }: OwnRow, f: LotteryFacts): PlayerTransactionRow {
  const shown = f.l_is_result_published;
  return {
    ...own,
    l_name: f.l_name,
    l_name_bn: f.l_name_bn,
    l_end_date: f.l_end_date,
    l_total_prize:
      f.l_kind === 'numbers' && f.jackpot_share !== null ? jackpotAmount(x_paid ?? 0, f.jackpot_share, f.rollover_in) : f.total_prize,
    l_is_result_published: f.l_is_result_published,
    l_drawn_at: f.l_drawn_at,
    l_kind: f.l_kind,
    l_draw_at: f.l_draw_at,
    numbers: f.numbers,
    lucky_key: f.lucky_key,
    prize_id: shown ? own.prize_id : null,
    prize_money: shown ? own.prize_money : null,
    withheld_reason: shown ? own.withheld_reason : null,
    prize_lucky_code: shown ? own.prize_lucky_code : null,
    claim_status: shown ? own.claim_status : null,
  };
}

type Lists = { tickets: PlayerTransactionRow[]; total: number; unfinished: PlayerTransactionRow[] };

/**
 * My Lotteries (`GET /api/v1/my-lotteries/`): a page of the player's tickets with their total, and his purchases
 * awaiting payment, newest first, at most `unfinishedMax` (0: none), each list as playerTransactions reads it. One
 * statement reads the player's own rows with their lottery's tally; each lottery's names, dates, results and Lucky
 * Chance key come from `facts` at the version that tally carries (docs/decisions/100-lottery-facts-kept-by-version.md),
 * read by a second statement only for a lottery not kept at it. A lottery that changed between the two is rare: the
 * cards are then read whole, lotteries joined, in one statement.
 */
export async function playerLotteries(
  db: Db,
  userId: number,
  limit: number,
  offset: number,
  unfinishedMax: number,
  facts: LotteryFactsStore,
): Promise<Lists> {
  const where = `user_id = $1${ONLY.tickets}${RUN_ONCE}`;
  const lists = `((SELECT *, count(*) OVER () AS total_count, true AS held FROM transactions WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3)
    UNION ALL (SELECT *, 0::bigint, false FROM transactions WHERE user_id = $1${ONLY.unfinished}${RUN_ONCE}
      ORDER BY created_at DESC, id DESC LIMIT $4))`;
  const params = [userId, limit, offset, unfinishedMax];
  const extra = ', t.total_count::int AS total_count, t.held';
  const own = await db.query<OwnRow & { total_count: number; held: boolean }>(
    `${ownSelect(lists, extra)} ORDER BY t.created_at DESC, t.id DESC`,
    params,
  );
  const versions = new Map<number, number>();
  for (const r of own) if (r.x_facts !== null) versions.set(r.lottery_id, r.x_facts);
  const kept = own.every((r) => r.x_facts !== null) ? await facts.at(db, versions) : null;
  const found = kept
    ? own.map(({ total_count, held, ...r }) => ({ ...cardOf(r, kept.get(r.lottery_id) as LotteryFacts), total_count, held }))
    : await db.query<PlayerTransactionRow & { total_count: number; held: boolean }>(
        `${playerSelect(lists, extra)} ORDER BY t.created_at DESC, t.id DESC`,
        params,
      );
  const tickets: PlayerTransactionRow[] = [];
  const unfinished: PlayerTransactionRow[] = [];
  for (const { total_count: _n, held, ...r } of found) (held ? tickets : unfinished).push(r);
  const carried = found.find((r) => r.held)?.total_count;
  return { tickets, total: await totalOf(db, carried, offset, where, userId), unfinished };
}

export const playerTransaction = (db: Db, userId: number, id: number) =>
  db.one<PlayerTransactionRow>(`${PLAYER_SELECT} WHERE t.user_id = $1 AND t.id = $2`, [userId, id]);

/** The player's entries of one of his slips, draw by draw in draw order, line by line in the order played. */
export const playerSlipEntries = (db: Db, userId: number, slipId: number) =>
  db.query<PlayerTransactionRow>(`${PLAYER_SELECT} WHERE t.user_id = $1 AND t.slip_id = $2 ORDER BY l.draw_at, t.id`, [userId, slipId]);

export type StaffTransactionRow = Omit<TransactionRow, 'idempotency_key'> & {
  u_name: string;
  u_phone: string | null;
  u_email: string | null;
  u_is_active: boolean;
  l_name: string;
  l_name_bn: string;
  l_end_date: string;
  l_total_prize: number;
  l_is_result_published: boolean;
  l_ticket_price: number;
  /** The slip this transaction leads (its whole payment), if any. */
  s_draws: number | null;
  s_lines: number | null;
  s_amount: number | null;
};

const STAFF_SELECT = `SELECT t.id, t.user_id, t.lottery_id, t.ticket, t.amount, t.transaction_type, t.payment_method, t.payment_number,
    t.trx_id, t.status, t.nid, t.created_at, t.updated_at, u.name AS u_name, u.phone AS u_phone, u.email AS u_email,
    u.is_active AS u_is_active, l.name AS l_name, l.name_bn AS l_name_bn, l.end_date AS l_end_date, COALESCE(${JACKPOT}, l.total_prize) AS l_total_prize,
    l.is_result_published AS l_is_result_published, l.ticket_price AS l_ticket_price,
    s.draws AS s_draws, s.lines AS s_lines, s.amount AS s_amount
  FROM transactions t
  JOIN users u ON u.id = t.user_id
  JOIN lotteries l ON l.id = t.lottery_id
  LEFT JOIN slips s ON s.lead_id = t.id`;

export type StaffFilter = {
  /** Part of a name, phone, e-mail, ticket, TrxID, bKash number or lottery name. */
  search: string | null;
  /** The search read as a ticket or a phone number in stored form, matched exactly too. */
  ticket: string | null;
  phone: string | null;
  status: TransactionStatus | null;
  lotteryId: number | null;
};

function staffWhere(f: StaffFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [f.status, f.lotteryId, f.search === null ? null : likePattern(f.search), f.ticket, f.phone];
  const sql = `WHERE ($1::text IS NULL OR t.status = $1)
      AND ($2::bigint IS NULL OR t.lottery_id = $2)
      AND ($3::text IS NULL OR u.name ILIKE $3 OR u.phone ILIKE $3 OR u.email ILIKE $3 OR t.ticket ILIKE $3 OR t.trx_id ILIKE $3
           OR t.payment_number ILIKE $3 OR l.name ILIKE $3 OR l.name_bn ILIKE $3
           OR t.ticket = $4 OR u.phone = $5 OR t.payment_number = $5)`;
  return { sql, params };
}

export async function staffTransactions(
  db: Db,
  f: StaffFilter,
  limit: number,
  offset: number,
): Promise<{ rows: StaffTransactionRow[]; total: number }> {
  const where = staffWhere(f);
  const rows = await db.query<StaffTransactionRow>(
    `${STAFF_SELECT} ${where.sql} ORDER BY t.created_at DESC, t.id DESC LIMIT $6 OFFSET $7`,
    [...where.params, limit, offset],
  );
  // Unsearched, the total is the lotteries' tallies by status (docs/decisions/043-lottery-tallies.md), not a count of
  // every transaction; a search counts the rows it matches.
  const counted =
    f.search === null
      ? await db.one<{ n: number }>(
          `SELECT COALESCE(sum(CASE $1::text WHEN 'success' THEN sold WHEN 'pending' THEN pending WHEN 'failed' THEN failed
             ELSE sold + pending + failed END), 0)::int AS n
           FROM lottery_tallies WHERE $2::bigint IS NULL OR lottery_id = $2`,
          [f.status, f.lotteryId],
        )
      : await db.one<{ n: number }>(
          `SELECT count(*)::int AS n FROM transactions t JOIN users u ON u.id = t.user_id JOIN lotteries l ON l.id = t.lottery_id ${where.sql}`,
          where.params,
        );
  return { rows, total: counted?.n ?? 0 };
}

export const staffTransaction = (db: Db, id: number) => db.one<StaffTransactionRow>(`${STAFF_SELECT} WHERE t.id = $1`, [id]);
