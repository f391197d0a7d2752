/**
 * A lottery's part of a player's card, kept in memory by the version the database gives it
 * (docs/decisions/100-lottery-facts-kept-by-version.md): My Lotteries reads the player's own rows with their lottery's
 * tally (its sales, for the jackpot, and `facts`, the version of the rest), and takes the rest from here while the
 * version it read is the one kept. A lottery's row or its commitment changing gives it a new version in the same
 * transaction (migration 042), so what is kept is never shown once it is out of date, on any instance or worker.
 * It is the lotteries' part only, the same for every player: nothing of anyone's own rows is kept.
 */
import type { Db } from '../db/index.ts';
import type { LotteryKind } from '../../shared/draws/tiers.ts';

/** What every card of one lottery shows of it, as the card's statement named it (PlayerTransactionRow), at `facts`. */
export type LotteryFacts = {
  /** The version it was read at (`lottery_tallies.facts`). */
  facts: number;
  l_name: string;
  l_name_bn: string;
  l_end_date: string;
  l_is_result_published: boolean;
  l_drawn_at: string | null;
  l_kind: LotteryKind;
  l_draw_at: string | null;
  /** A numbers draw's numbers once its results are published, and its Lucky Chance key when it has Lucky Chance. */
  numbers: string | null;
  lucky_key: string | null;
  /** What its jackpot is made of besides its sales (jackpotOf), and the total prize of the tickets kind. */
  total_prize: number;
  jackpot_share: number | null;
  rollover_in: number;
};

/**
 * A card's lottery part as SQL, over `lotteries l` and `draw_commitments dc`: what FACTS keeps and what a statement that
 * joins its lotteries reads (playerSelect, server/purchases/queries.ts), one list so that both make the same card.
 */
export const CARD_LOTTERY_COLUMNS = `l.name AS l_name, l.name_bn AS l_name_bn, l.end_date AS l_end_date,
    l.is_result_published AS l_is_result_published, COALESCE(l.drawn_at, l.end_date) AS l_drawn_at, l.kind AS l_kind,
    l.draw_at AS l_draw_at, CASE WHEN l.is_result_published THEN dc.numbers END AS numbers,
    CASE WHEN l.lucky_count > 0 THEN dc.commitment END AS lucky_key`;

/** One row a lottery: its card part, its version, and what its jackpot is made of besides its sales. */
const FACTS = `SELECT l.id, x.facts, ${CARD_LOTTERY_COLUMNS}, l.total_prize, l.jackpot_share, l.rollover_in
  FROM lotteries l
  JOIN lottery_tallies x ON x.lottery_id = l.id
  LEFT JOIN draw_commitments dc ON dc.lottery_id = l.id
  WHERE l.id = ANY($1::bigint[])`;

/** At most this many lotteries are kept; beyond it, the one kept longest goes (a year of daily draws is 365 a game). */
export const FACTS_KEPT_MAX = 5_000;

/** The lotteries' facts one app process keeps, for one database: one store per Purchases (server/services.ts). */
export class LotteryFactsStore {
  private readonly kept = new Map<number, LotteryFacts>();

  /** How many lotteries it keeps at most (FACTS_KEPT_MAX; fewer in tests). */
  private readonly max: number;

  constructor(max = FACTS_KEPT_MAX) {
    this.max = max;
  }

  /**
   * The facts of these lotteries (id → the version the player's rows read with them): those kept at that version,
   * the others read in one statement. Null when a lottery's version read now is not the one asked for: it changed
   * between the two statements, and the caller reads its cards whole instead.
   */
  async at(db: Db, versions: ReadonlyMap<number, number>): Promise<Map<number, LotteryFacts> | null> {
    const out = new Map<number, LotteryFacts>();
    const missing: number[] = [];
    for (const [id, v] of versions) {
      const f = this.kept.get(id);
      if (f?.facts === v) out.set(id, f);
      else missing.push(id);
    }
    if (!missing.length) return out;
    for (const { id, ...f } of await db.query<LotteryFacts & { id: number }>(FACTS, [missing])) {
      this.keep(id, f);
      if (f.facts === versions.get(id)) out.set(id, f);
    }
    return out.size === versions.size ? out : null;
  }

  /** Keeps what was read unless a later version is kept already (one lottery's versions rise in the order they commit). */
  private keep(id: number, f: LotteryFacts): void {
    const known = this.kept.get(id);
    if (known && known.facts > f.facts) return;
    this.kept.delete(id);
    this.kept.set(id, f);
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value as number);
  }

  /** How many lotteries are kept (for tests). */
  get size(): number {
    return this.kept.size;
  }
}
