import { BEACON_SOURCE } from '../../shared/draws/proof.ts';
import type { Db } from '../db/index.ts';

/**
 * A row of `draw_commitments` (migration 014). The seed is secret until `revealed_at`: until then it is kept sealed in
 * `seed_sealed` and `seed` is null; the draw writes it in clear as it reveals it (migration 027,
 * docs/rules/draws.md#2-the-seed-and-its-commitment).
 */
export type CommitmentRow = {
  lottery_id: number;
  seed: string | null;
  seed_sealed: string | null;
  commitment: string;
  beacon_source: string;
  beacon_round: number;
  beacon_value: string | null;
  beacon_entered_by: number | null;
  /** drand's signature of the round (migration 015), when it was fetched or entered: SHA-256 of it is `beacon_value`. */
  beacon_signature: string | null;
  /** A demo draw's sample value, not drand's (migration 017): the proof says so. */
  beacon_sample: boolean;
  tickets: string | null;
  tickets_digest: string | null;
  max_winners: number | null;
  winners: string | null;
  /** A numbers draw's result written as a ticket (migration 016), set with revealed_at. */
  numbers: string | null;
  /** A game's draw's Lucky Chance winners in the order drawn, one per line (migration 035); null without Lucky Chance. */
  lucky: string | null;
  revealed_at: string | null;
};

type New = Pick<CommitmentRow, 'lottery_id' | 'commitment' | 'beacon_source' | 'beacon_round'> & { seed_sealed: string };

export const commitmentForUpdate = (db: Db, lotteryId: number) =>
  db.one<CommitmentRow>('SELECT * FROM draw_commitments WHERE lottery_id = $1 FOR UPDATE', [lotteryId]);

/** The announcement only: what may be shown before the draw (never the seed). */
export const announcement = (db: Db, lotteryId: number) =>
  db.one<Omit<CommitmentRow, 'seed' | 'seed_sealed'>>(
    `SELECT lottery_id, commitment, beacon_source, beacon_round, beacon_value, beacon_signature, beacon_sample, beacon_entered_by, tickets, tickets_digest,
       max_winners, winners, numbers, lucky, revealed_at
     FROM draw_commitments WHERE lottery_id = $1`,
    [lotteryId],
  );

/** The seed, once the draw revealed it (undefined before). */
export const revealedSeed = async (db: Db, lotteryId: number) =>
  (await db.one<{ seed: string }>('SELECT seed FROM draw_commitments WHERE lottery_id = $1 AND revealed_at IS NOT NULL', [lotteryId]))
    ?.seed;

/** The draw by the procedure: what it saw and chose, and the seed revealed (in clear from now on, the sealed one emptied). */
export const recordDraw = (
  db: Db,
  lotteryId: number,
  d: { seed: string; tickets: string; ticketsDigest: string; maxWinners: number; winners: string },
) =>
  db.query(
    `UPDATE draw_commitments SET tickets = $2, tickets_digest = $3, max_winners = $4, winners = $5, seed = $6, seed_sealed = NULL,
       revealed_at = now(), updated_at = now()
     WHERE lottery_id = $1`,
    [lotteryId, d.tickets, d.ticketsDigest, d.maxWinners, d.winners, d.seed],
  );

/** The tickets of the lottery's \`success\` transactions with their transactions: the participants the draw freezes. */
export const successTickets = (db: Db, lotteryId: number) =>
  db.query<{ id: number; ticket: string }>("SELECT id, ticket FROM transactions WHERE lottery_id = $1 AND status = 'success'", [lotteryId]);

/** A new announcement; a second one for the lottery (two instances at once) changes nothing. */
export const insertCommitment = (db: Db, c: New) =>
  db.query(
    `INSERT INTO draw_commitments (lottery_id, seed_sealed, commitment, beacon_source, beacon_round) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (lottery_id) DO NOTHING`,
    [c.lottery_id, c.seed_sealed, c.commitment, c.beacon_source, c.beacon_round],
  );

export const setBeaconRound = (db: Db, lotteryId: number, round: number) =>
  db.query('UPDATE draw_commitments SET beacon_round = $2, updated_at = now() WHERE lottery_id = $1', [lotteryId, round]);

/** Published lotteries not drawn yet that announced nothing (made before announcements, or straight in the database). */
export const unannounced = (db: Db) =>
  db.query<{ id: number; end_date: string }>(
    `SELECT l.id, l.end_date FROM lotteries l
     WHERE l.published AND NOT l.is_result_published AND l.drawn_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM draw_commitments c WHERE c.lottery_id = l.id)`,
  );

/** What the proof of a lottery needs of it: published, drawn or not, and its end of sales. */
export const lotteryForProof = (db: Db, lotteryId: number) =>
  db.one<{ id: number; published: boolean; drawn: boolean; end_date: string; lucky_count: number }>(
    `SELECT id, published, (is_result_published OR drawn_at IS NOT NULL) AS drawn, end_date, lucky_count FROM lotteries WHERE id = $1`,
    [lotteryId],
  );

/**
 * Announced draws still waiting for their beacon whose round has come (`beacon_round ≤ upToRound`): not drawn, not
 * revealed, no value yet. The beacon job fetches these (server/draws/beacon-job.ts), oldest round first.
 */
export const awaitingBeacon = (db: Db, upToRound: number, limit: number) =>
  db.query<{ lottery_id: number; beacon_round: number }>(
    `SELECT c.lottery_id, c.beacon_round FROM draw_commitments c JOIN lotteries l ON l.id = c.lottery_id
     WHERE c.beacon_value IS NULL AND c.revealed_at IS NULL AND c.beacon_source = $1 AND c.beacon_round <= $2
       AND l.published AND NOT l.is_result_published AND l.drawn_at IS NULL
     ORDER BY c.beacon_round, c.lottery_id LIMIT $3`,
    [BEACON_SOURCE, upToRound, limit],
  );

/**
 * Stores a fetched, verified beacon once: only while the value is missing, the draw not revealed and the round the one
 * verified. Two instances at once: one row is changed, the other finds none (undefined) and records nothing.
 */
export const storeFetchedBeacon = async (db: Db, lotteryId: number, b: { round: number; value: string; signature: string }) =>
  (
    await db.one<{ lottery_id: number }>(
      `UPDATE draw_commitments SET beacon_value = $3, beacon_signature = $4, beacon_entered_by = NULL, beacon_entered_at = now(),
         updated_at = now()
       WHERE lottery_id = $1 AND beacon_round = $2 AND beacon_value IS NULL AND revealed_at IS NULL
       RETURNING lottery_id`,
      [lotteryId, b.round, b.value, b.signature],
    )
  )?.lottery_id;

/**
 * Staff's entry of the round's signature (verified by the caller): the value derived from it, and who entered it. It
 * replaces a value typed without a signature before decision 046, or a sample, which is then no longer one.
 */
export const setBeaconSignature = (db: Db, lotteryId: number, value: string, signature: string, by: number) =>
  db.query(
    `UPDATE draw_commitments SET beacon_value = $2, beacon_signature = $3, beacon_sample = false, beacon_entered_by = $4,
       beacon_entered_at = now(), updated_at = now()
     WHERE lottery_id = $1`,
    [lotteryId, value, signature, by],
  );
