import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';
import type { LotteryFilter } from '../../shared/lotteries/schemas.ts';
import { COMMITMENT, DRAWN, HELD, NUMBERS_COLUMNS, PROOF_STATE, type LotteryRow } from './queries.ts';
import type { LotteryKind } from '../../shared/draws/tiers.ts';

/** A lottery as staff manage it (docs/rules/lotteries-and-sales.md#1-lottery-fields). */
export type StaffLotteryRow = LotteryRow & { drawn_at: string | null; prizes: number; created_at: string; updated_at: string };

const STAFF_COLUMNS = `l.id, l.name, l.name_bn, l.description, l.description_bn, l.start_date, l.end_date, l.ticket_price, l.total_tickets,
  l.winners, l.total_prize, l.published, l.featured, l.is_result_published, l.drawn_at, ${DRAWN} AS drawn, l.created_at, l.updated_at,
  ${HELD}::int AS tickets_sold, (SELECT count(*) FROM prizes p WHERE p.lottery_id = l.id)::int AS prizes, ${COMMITMENT},
  ${PROOF_STATE}, ${NUMBERS_COLUMNS}`;

const FILTERS: Record<LotteryFilter, string> = {
  all: 'true',
  active: 'l.published',
  inactive: 'NOT l.published',
  featured: 'l.featured',
  result_published: 'l.is_result_published',
  result_not_published: 'NOT l.is_result_published',
};

/** Every lottery, newest first, searched by name or description in either language, filtered. */
export async function staffLotteries(
  db: Db,
  f: { search: string | null; filter: LotteryFilter },
  limit: number,
  offset: number,
): Promise<{ rows: StaffLotteryRow[]; total: number }> {
  const where = `WHERE ${FILTERS[f.filter]} AND ($1::text IS NULL OR l.name ILIKE $1 OR l.name_bn ILIKE $1 OR l.description ILIKE $1
    OR l.description_bn ILIKE $1)`;
  const search = f.search === null ? null : likePattern(f.search);
  const rows = await db.query<StaffLotteryRow>(
    `SELECT ${STAFF_COLUMNS} FROM lotteries l ${where} ORDER BY l.created_at DESC, l.id DESC LIMIT $2 OFFSET $3`,
    [search, limit, offset],
  );
  const total = (await db.one<{ n: number }>(`SELECT count(*)::int AS n FROM lotteries l ${where}`, [search]))?.n ?? 0;
  return { rows, total };
}

export const staffLottery = (db: Db, id: number) =>
  db.one<StaffLotteryRow>(`SELECT ${STAFF_COLUMNS} FROM lotteries l WHERE l.id = $1`, [id]);

/** The columns staff may set, as stored. */
export type LotteryValues = {
  name: string;
  name_bn: string;
  description: string;
  description_bn: string;
  winners: number;
  ticket_price: number;
  total_prize: number;
  total_tickets: number;
  start_date: string;
  end_date: string;
  published: boolean;
  featured: boolean;
  is_result_published: boolean;
  /** docs/rules/lotteries-and-sales.md#1-lottery-fields; a numbers lottery stores winners and total_prize as 1, unused. */
  kind: LotteryKind;
  jackpot_share: number | null;
  tier2_prize: number | null;
  tier3_prize: number | null;
  tier4_prize: number | null;
  tier5_prize: number | null;
  rollover_to: number | null;
};

/** The settable columns in one order: INSERT, UPDATE and the locked read are written from this list. */
const SETTABLE = [
  'name',
  'name_bn',
  'description',
  'description_bn',
  'winners',
  'ticket_price',
  'total_prize',
  'total_tickets',
  'start_date',
  'end_date',
  'published',
  'featured',
  'is_result_published',
  'kind',
  'jackpot_share',
  'tier2_prize',
  'tier3_prize',
  'tier4_prize',
  'tier5_prize',
  'rollover_to',
] as const satisfies readonly (keyof LotteryValues)[];
type Settable = (typeof SETTABLE)[number];
/** The compiler fails here when LotteryValues gains a column SETTABLE does not list. */
const listsEvery: [Exclude<keyof LotteryValues, Settable>] extends [never] ? true : false = true;
void listsEvery;

/** A new lottery: its result is not published (the column's default). */
const INSERTED = SETTABLE.filter((c) => c !== 'is_result_published');

export async function insertLottery(db: Db, l: Omit<LotteryValues, 'is_result_published'>): Promise<number> {
  const row = await db.one<{ id: number }>(
    `INSERT INTO lotteries (${INSERTED.join(', ')}) VALUES (${INSERTED.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    INSERTED.map((c) => l[c]),
  );
  if (!row) throw new Error('insert returned nothing');
  return row.id;
}

/** Locks the lottery's row (the lock purchases and the draw take first) and reads it. */
export const lotteryForUpdate = (db: Db, id: number) =>
  db.one<LotteryValues & { id: number; drawn_at: string | null; rollover_in: number; game_id: number | null }>(
    `SELECT id, ${SETTABLE.join(', ')}, drawn_at, rollover_in, game_id FROM lotteries WHERE id = $1 FOR UPDATE`,
    [id],
  );

/** The position of a settable column's value in updateLottery's parameters ($1 is the id). */
const param = (c: Settable) => `$${SETTABLE.indexOf(c) + 2}`;

/**
 * Writes every settable column (the caller merged the change into the stored values). A result published for the
 * first time stamps drawn_at.
 */
export const updateLottery = (db: Db, id: number, l: LotteryValues) =>
  db.query(
    `UPDATE lotteries SET ${SETTABLE.map((c) => `${c} = ${param(c)}`).join(', ')},
       drawn_at = CASE WHEN ${param('is_result_published')} AND drawn_at IS NULL THEN now() ELSE drawn_at END, updated_at = now()
     WHERE id = $1`,
    [id, ...SETTABLE.map((c) => l[c])],
  );

/** Tickets that hold a combination of the lottery (for lowering its tickets on sale). */
export const heldCount = async (db: Db, id: number) =>
  (await db.one<{ n: number }>(`SELECT ${HELD}::int AS n FROM lotteries l WHERE l.id = $1`, [id]))?.n ?? 0;

export const prizeCount = async (db: Db, id: number) =>
  (await db.one<{ n: number }>('SELECT count(*)::int AS n FROM prizes WHERE lottery_id = $1', [id]))?.n ?? 0;

/** What a lottery named as a rollover target must be: a numbers lottery not drawn (docs/rules/lotteries-and-sales.md#9-the-draw). */
export const rolloverTarget = (db: Db, id: number) =>
  db.one<{ id: number; kind: LotteryKind; drawn: boolean }>(
    `SELECT l.id, l.kind, (${DRAWN} OR l.is_result_published) AS drawn FROM lotteries l WHERE l.id = $1`,
    [id],
  );
