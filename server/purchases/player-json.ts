/** A player's transaction as the API answers it (PlayerTransaction): his tickets, My Lotteries, a run's entries. */
import type { z } from 'zod';
import { matchOf, numbersOf, tierOfMatch } from '../../shared/draws/tiers.ts';
import type { PlayerTransaction } from '../../shared/purchases/schemas.ts';
import { luckyCodes } from '../draws/lucky-codes.ts';
import type { PlayerTransactionRow } from './queries.ts';

type Player = z.input<typeof PlayerTransaction>;

/** A numbers draw's result for the ticket, once published (docs/rules/lotteries-and-sales.md#10-results-for-players). */
function numbersResult(r: PlayerTransactionRow): Pick<Player, 'numbers' | 'matched' | 'tier'> {
  const numbers = numbersOf(r.numbers);
  if (!numbers) return { numbers: null, matched: null, tier: null };
  const matched = matchOf(r.ticket, numbers);
  return { numbers, matched, tier: tierOfMatch(matched) };
}

export const playerJson = (r: PlayerTransactionRow): Player => ({
  id: r.id,
  slip_id: r.slip_id,
  transaction_type: r.transaction_type,
  amount: r.amount,
  status: r.status,
  payment_method: r.payment_method,
  payment_number: r.payment_number,
  trx_id: r.trx_id,
  ticket: r.ticket,
  created_at: r.created_at,
  lottery: {
    id: r.lottery_id,
    name: r.l_name,
    name_bn: r.l_name_bn,
    end_date: r.l_end_date,
    total_prize: r.l_total_prize,
    is_result_published: r.l_is_result_published,
    drawn_at: r.l_is_result_published ? r.l_drawn_at : null,
    kind: r.l_kind,
    draw_at: r.l_draw_at,
  },
  ...numbersResult(r),
  is_winning_ticket: r.prize_id !== null,
  prize:
    r.prize_id !== null && r.prize_money !== null
      ? { id: r.prize_id, prize_money: r.prize_money, withheld_reason: r.withheld_reason, lucky: r.prize_lucky_code !== null }
      : null,
  lucky_code: r.lucky_key === null ? null : luckyCodes.code(r.lucky_key, r.ticket),
  // A claim whose code was sent but whose payout details are not in yet is not a claim made (the card still asks for them).
  has_claimed: r.claim_status !== null && r.claim_status !== 'pending',
  claim_status: r.claim_status !== null && r.claim_status !== 'pending' ? r.claim_status : null,
});
