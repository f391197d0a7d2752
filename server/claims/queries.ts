import type { Db } from '../db/index.ts';
import { likePattern } from '../db/like.ts';
import type { ClaimStatus, PayoutMethod } from '../../shared/claims/schemas.ts';
import type { PayoutRow as PayoutTry } from './payout-queries.ts';

/** A winning ticket of a player: its prize, lottery and claim (null columns when no claim was started). */
export type WinningRow = {
  prize_id: number;
  prize_money: number;
  ticket: string;
  transaction_id: number;
  user_id: number;
  lottery_id: number;
  l_name: string;
  l_name_bn: string;
  /** When the draw was finished (the lottery's end date for results published before draws were recorded). */
  drawn_at: string;
  c_id: number | null;
  c_status: ClaimStatus | null;
  c_method: PayoutMethod | null;
  c_account_number: string | null;
  c_account_holder_name: string | null;
  c_bank_name: string | null;
  c_branch_name: string | null;
  c_submitted_at: string | null;
  c_updated_at: string | null;
  c_transfer_reference: string | null;
  /** When the player's phone, e-mail or (by staff) password last changed: the start of the hold on his claims. */
  u_contact_changed_at: string | null;
  /** Why the prize was withheld (docs/rules/lotteries-and-sales.md#9-the-draw); null when it was not. */
  withheld_reason: string | null;
};

/** Only prizes of published results count: a result taken back by staff takes its prizes out of view too. */
const WINNING_SELECT = `SELECT p.id AS prize_id, p.prize_money, p.ticket, p.transaction_id, t.user_id, l.id AS lottery_id,
    l.name AS l_name, l.name_bn AS l_name_bn, COALESCE(l.drawn_at, l.end_date) AS drawn_at,
    c.id AS c_id, c.status AS c_status, c.payment_method AS c_method, c.account_number AS c_account_number,
    c.account_holder_name AS c_account_holder_name, c.bank_name AS c_bank_name, c.branch_name AS c_branch_name,
    c.submitted_at AS c_submitted_at, c.updated_at AS c_updated_at, c.transfer_reference AS c_transfer_reference,
    u.contact_changed_at AS u_contact_changed_at,
    p.withheld_reason
  FROM prizes p
  JOIN transactions t ON t.id = p.transaction_id
  JOIN users u ON u.id = t.user_id
  JOIN lotteries l ON l.id = p.lottery_id
  LEFT JOIN prize_claims c ON c.prize_id = p.id
  WHERE l.is_result_published AND t.user_id = $1`;

export async function winningTickets(
  db: Db,
  userId: number,
  limit: number,
  offset: number,
): Promise<{ rows: WinningRow[]; total: number }> {
  const rows = await db.query<WinningRow>(`${WINNING_SELECT} ORDER BY COALESCE(l.drawn_at, l.end_date) DESC, p.id LIMIT $2 OFFSET $3`, [
    userId,
    limit,
    offset,
  ]);
  const total =
    (
      await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM prizes p JOIN transactions t ON t.id = p.transaction_id JOIN lotteries l ON l.id = p.lottery_id
          WHERE l.is_result_published AND t.user_id = $1`,
        [userId],
      )
    )?.n ?? 0;
  return { rows, total };
}

/** The player's own winning ticket of this prize; undefined for another player's prize or one not (yet) published. */
export const winningTicket = (db: Db, userId: number, prizeId: number) =>
  db.one<WinningRow>(`${WINNING_SELECT} AND p.id = $2`, [userId, prizeId]);

/** The claim of a prize, made `pending` the first time its code is sent. */
export const startClaim = (db: Db, prizeId: number, userId: number) =>
  db.query('INSERT INTO prize_claims (prize_id, user_id) VALUES ($1, $2) ON CONFLICT (prize_id) DO NOTHING', [prizeId, userId]);

export type Payout = {
  payment_method: PayoutMethod;
  account_number: string;
  account_holder_name: string;
  bank_name: string;
  branch_name: string;
};

/**
 * Stores the payout details when the claim may take them (started or failed transfer); undefined when it may not,
 * for instance because a concurrent request of the same player stored them first, or the prize is withheld: the
 * prize's row is locked first (the order withholding takes: prize, then claim), so a withholding approved at that
 * moment is either seen (nothing stored) or waits.
 */
export const submitPayout = (db: Db, prizeId: number, userId: number, p: Payout) =>
  db.one<{ id: number }>(
    `WITH unwithheld AS (SELECT id FROM prizes WHERE id = $1 AND withheld_at IS NULL FOR UPDATE)
     INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, account_holder_name, bank_name, branch_name, submitted_at)
     SELECT unwithheld.id, $2, 'payment_info_submitted', $3, $4, $5, $6, $7, now() FROM unwithheld
     ON CONFLICT (prize_id) DO UPDATE SET status = 'payment_info_submitted', payment_method = EXCLUDED.payment_method,
       account_number = EXCLUDED.account_number, account_holder_name = EXCLUDED.account_holder_name, bank_name = EXCLUDED.bank_name,
       branch_name = EXCLUDED.branch_name, submitted_at = now(), updated_at = now(),
       transfer_approved_by = NULL, transfer_approved_at = NULL, transfer_failure = NULL
     WHERE prize_claims.status IN ('pending', 'transfer_failed') AND prize_claims.user_id = EXCLUDED.user_id
     RETURNING id`,
    [prizeId, userId, p.payment_method, p.account_number, p.account_holder_name, p.bank_name, p.branch_name],
  );

// Staff --------------------------------------------------------------------------------------------

export type ClaimRow = {
  id: number;
  prize_id: number;
  user_id: number;
  status: ClaimStatus;
  payment_method: PayoutMethod | null;
  account_number: string;
  account_holder_name: string;
  bank_name: string;
  branch_name: string;
  submitted_at: string | null;
  created_at: string;
  updated_at: string;
  transfer_approved_by: number | null;
  transfer_approved_at: string | null;
  transfer_reference: string | null;
  transfer_failure: string | null;
};

export const claimForUpdate = (db: Db, id: number) => db.one<ClaimRow>('SELECT * FROM prize_claims WHERE id = $1 FOR UPDATE', [id]);

/**
 * The claim's transfer decided: completed with what proves it (bKash's TrxID, or a reference of a transfer by hand),
 * or failed (with bKash's refusal code when bKash refused it).
 */
export const setClaimStatus = (db: Db, id: number, status: ClaimStatus, proof: { reference?: string; failure?: string } = {}) =>
  db.one<ClaimRow>(
    `UPDATE prize_claims SET status = $2, transfer_reference = $3, transfer_failure = $4, updated_at = now() WHERE id = $1 RETURNING *`,
    [id, status, proof.reference ?? null, proof.failure ?? null],
  );

/** A second staff member approves the transfer of the claim's payout details (docs/rules/lotteries-and-sales.md#11-prize-claims). */
export const approveTransfer = (db: Db, id: number, staffId: number) =>
  db.one<ClaimRow>(
    'UPDATE prize_claims SET transfer_approved_by = $2, transfer_approved_at = now(), updated_at = now() WHERE id = $1 RETURNING *',
    [id, staffId],
  );

/** What a transfer's checks need of a claim: its prize's money and its winner's last change, the winner's row shared-locked. */
export type PayoutRow = { prize_money: number; contact_changed_at: string | null; contact_changed_by: number | null };

/**
 * The prize money and the winner's last change of phone, e-mail or password. The user's row is locked FOR SHARE, so
 * a change of his account being made now is either seen here or waits until the transfer is decided.
 */
export const payoutFacts = (db: Db, claim: { prize_id: number; user_id: number }) =>
  db.one<PayoutRow>(
    `SELECT p.prize_money, u.contact_changed_at, u.contact_changed_by FROM prizes p, users u
      WHERE p.id = $1 AND u.id = $2 FOR SHARE OF u`,
    [claim.prize_id, claim.user_id],
  );

export type StaffClaimRow = ClaimRow & {
  u_contact_changed_at: string | null;
  u_contact_changed_by: number | null;
  a_name: string | null;
  u_name: string;
  u_phone: string | null;
  u_email: string | null;
  p_ticket: string;
  p_prize_money: number;
  lottery_id: number;
  l_name: string;
  l_name_bn: string;
  /** The latest payout try by bKash with the name of who pressed Pay now, as JSON; null when none. */
  payout: (PayoutTry & { pressed_name: string }) | null;
};

const STAFF_SELECT = `SELECT c.*, (SELECT row_to_json(x) FROM (SELECT pp.*, pu.name AS pressed_name FROM prize_payouts pp
      JOIN users pu ON pu.id = pp.pressed_by WHERE pp.claim_id = c.id ORDER BY pp.try DESC LIMIT 1) x) AS payout, u.name AS u_name, u.phone AS u_phone, u.email AS u_email, p.ticket AS p_ticket, p.prize_money AS p_prize_money,
    l.id AS lottery_id, l.name AS l_name, l.name_bn AS l_name_bn,
    u.contact_changed_at AS u_contact_changed_at, u.contact_changed_by AS u_contact_changed_by, a.name AS a_name
  FROM prize_claims c JOIN users u ON u.id = c.user_id JOIN prizes p ON p.id = c.prize_id JOIN lotteries l ON l.id = p.lottery_id
  LEFT JOIN users a ON a.id = c.transfer_approved_by`;

export const staffClaim = (db: Db, id: number) => db.one<StaffClaimRow>(`${STAFF_SELECT} WHERE c.id = $1`, [id]);

export type StaffClaimFilter = {
  search: string | null;
  /** The search read as a ticket or a phone number in stored form, matched exactly too. */
  ticket: string | null;
  phone: string | null;
  status: ClaimStatus | null;
  method: PayoutMethod | null;
};

/** Every claim, the newest change first, searched and filtered. */
export async function staffClaims(
  db: Db,
  f: StaffClaimFilter,
  limit: number,
  offset: number,
): Promise<{ rows: StaffClaimRow[]; total: number }> {
  const where = `WHERE ($1::text IS NULL OR c.status = $1) AND ($2::text IS NULL OR c.payment_method = $2)
    AND ($3::text IS NULL OR u.name ILIKE $3 OR u.phone ILIKE $3 OR u.email ILIKE $3 OR l.name ILIKE $3 OR l.name_bn ILIKE $3
         OR p.ticket ILIKE $3 OR p.ticket = $4 OR u.phone = $5)`;
  const params = [f.status, f.method, f.search === null ? null : likePattern(f.search), f.ticket, f.phone];
  const rows = await db.query<StaffClaimRow>(`${STAFF_SELECT} ${where} ORDER BY c.updated_at DESC, c.id DESC LIMIT $6 OFFSET $7`, [
    ...params,
    limit,
    offset,
  ]);
  const total =
    (
      await db.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM prize_claims c JOIN users u ON u.id = c.user_id JOIN prizes p ON p.id = c.prize_id
           JOIN lotteries l ON l.id = p.lottery_id ${where}`,
        params,
      )
    )?.n ?? 0;
  return { rows, total };
}

export const claimsSummary = (db: Db) =>
  db.one<{ total_claims: number; total_prize_amount: string; pending_transfers: number }>(
    `SELECT count(*)::int AS total_claims, COALESCE(sum(p.prize_money), 0)::text AS total_prize_amount,
       count(*) FILTER (WHERE c.status = 'payment_info_submitted')::int AS pending_transfers
     FROM prize_claims c JOIN prizes p ON p.id = c.prize_id`,
  );
