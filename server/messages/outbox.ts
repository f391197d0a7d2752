/**
 * Writing a player's message in the transaction of the event it tells of (docs/rules/messages.md#1-one-event-one-message).
 * Each message has a key unique to its event: the same event seen twice, by one instance or two, writes one row
 * (`ON CONFLICT DO NOTHING`). The row is the notifications page's entry and its SMS's place in the queue at once; the
 * SMS goes after the commit (server/messages/service.ts dispatch), so a rolled-back event sends nothing.
 */
import type { PayoutRefusalReason } from '../../shared/claims/payout.ts';
import type { Db } from '../db/index.ts';
import { queuePush } from '../push/service.ts';
import { CLAIM_DAYS } from '../../shared/claims/schemas.ts';
import {
  MARKETING,
  SWITCHABLE,
  isSwitchable,
  MessageParams,
  type MessageKind,
  type ParamsOf,
  type RejectReason,
} from '../../shared/messages/kinds.ts';

/** Whether `userId` gets messages of `kind`: the kinds about his money always; the others as he set (or their default). */
async function wants(tx: Db, userId: number, kind: MessageKind): Promise<boolean> {
  if (MARKETING.includes(kind)) {
    const excluded = await tx.one('SELECT 1 FROM play_limits WHERE user_id = $1 AND (excluded_until > now() OR timeout_until > now())', [
      userId,
    ]);
    if (excluded) return false;
  }
  if (!isSwitchable(kind)) return true;
  const row = await tx.one<{ enabled: boolean }>(`SELECT ${kind} AS enabled FROM message_settings WHERE user_id = $1`, [userId]);
  return row ? row.enabled : SWITCHABLE[kind];
}

/**
 * One message to one player, unless he switched its kind off. `sms: false`: the notifications page only (staff send
 * the SMS of a prize with Notify Winners). The parameters are checked against the kind's schema before they are stored.
 */
export async function tell<K extends MessageKind>(
  tx: Db,
  m: { userId: number; kind: K; key: string; params: ParamsOf<K>; sms?: boolean },
): Promise<void> {
  if (!(await wants(tx, m.userId, m.kind))) return;
  const params = MessageParams[m.kind].parse(m.params);
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO player_messages (user_id, kind, event_key, params, sms_state) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (event_key) DO NOTHING RETURNING id`,
    [m.userId, m.kind, m.key, JSON.stringify(params), m.sms === false ? 'none' : 'queued'],
  );
  // Its pushes, in the same transaction: once per message and device (docs/rules/messages.md#6-push-notifications).
  await queuePush(
    tx,
    rows.map((r) => r.id),
  );
}

type PurchaseFacts = {
  user_id: number;
  transaction_id: number;
  ticket: string;
  amount: number;
  lottery_id: number;
  lottery: string;
  lottery_bn: string;
  /** The transaction's time in microseconds: in a key, it tells two changes of one purchase apart. */
  at: string;
};

const purchaseFacts = (tx: Db, transactionId: number) =>
  tx.one<PurchaseFacts>(
    `SELECT t.user_id, t.id AS transaction_id, t.ticket, t.amount, l.id AS lottery_id, l.name AS lottery, l.name_bn AS lottery_bn,
            (extract(epoch FROM now()) * 1000000)::bigint::text AS at
     FROM transactions t JOIN lotteries l ON l.id = t.lottery_id WHERE t.id = $1`,
    [transactionId],
  );

/**
 * A purchase confirmed (by staff, by bKash, by the statement) or rejected by staff. The key names the purchase and the
 * outcome with the time of the change, so a ticket confirmed, taken back and confirmed again is told each time.
 */
export async function tellPurchase(
  tx: Db,
  transactionId: number,
  outcome: { kind: 'ticket_confirmed' } | { kind: 'ticket_rejected'; reason: RejectReason },
): Promise<void> {
  const f = await purchaseFacts(tx, transactionId);
  if (!f) return;
  const { user_id: userId, at, ...facts } = f;
  const key = `${outcome.kind}:${transactionId}:${at}`;
  if (outcome.kind === 'ticket_confirmed') await tell(tx, { userId, kind: 'ticket_confirmed', key, params: facts });
  else await tell(tx, { userId, kind: 'ticket_rejected', key, params: { ...facts, reason: outcome.reason } });
}

/** Money bKash gave back for a purchase that could not be confirmed: once per payment. */
export async function tellRefund(tx: Db, transactionId: number, paymentId: string, trxId: string, amount: number): Promise<void> {
  const f = await purchaseFacts(tx, transactionId);
  if (!f) return;
  const { user_id: userId, at: _at, ...facts } = f;
  await tell(tx, { userId, kind: 'payment_refunded', key: `payment_refunded:${paymentId}`, params: { ...facts, amount, trx_id: trxId } });
}

/**
 * Every prize of a lottery whose results were just published, one message per prize, with its claim deadline
 * (CLAIM_DAYS after the draw). No SMS: the winner's SMS is the one staff send with Notify Winners, so that a winner
 * never gets two; a push to his devices if he wants results pushed.
 */
export async function tellPrizesWon(tx: Db, lotteryId: number): Promise<void> {
  const rows = await tx.query<{ id: number }>(
    `INSERT INTO player_messages (user_id, kind, event_key, params, sms_state)
     SELECT t.user_id, 'prize_won', 'prize_won:' || p.id,
            jsonb_build_object('prize_id', p.id, 'lottery_id', l.id, 'lottery', l.name, 'lottery_bn', l.name_bn,
              'ticket', p.ticket, 'amount', p.prize_money,
              'deadline', to_char((l.drawn_at + make_interval(days => $2)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
            'none'
     FROM prizes p JOIN transactions t ON t.id = p.transaction_id JOIN lotteries l ON l.id = p.lottery_id
     WHERE p.lottery_id = $1 AND l.drawn_at IS NOT NULL AND p.prize_money > 0
     ON CONFLICT (event_key) DO NOTHING
     RETURNING id`,
    [lotteryId, CLAIM_DAYS],
  );
  // The winners' pushes (docs/rules/messages.md#6-push-notifications): the page's entry and the push at once; the SMS
  // stays with Notify Winners.
  await queuePush(
    tx,
    rows.map((r) => r.id),
  );
}

/**
 * A prize withheld by two staff members (docs/rules/lotteries-and-sales.md#9-the-draw): its winner is told why, by SMS
 * (e-mail without a phone) in his language and on his notifications page; once per prize.
 */
export async function tellWithheld(tx: Db, prizeId: number, reason: string): Promise<void> {
  const f = await tx.one<{ user_id: number; ticket: string; amount: number; lottery_id: number; lottery: string; lottery_bn: string }>(
    `SELECT t.user_id, p.ticket, p.prize_money AS amount, l.id AS lottery_id, l.name AS lottery, l.name_bn AS lottery_bn
     FROM prizes p JOIN transactions t ON t.id = p.transaction_id JOIN lotteries l ON l.id = p.lottery_id WHERE p.id = $1`,
    [prizeId],
  );
  if (!f) return;
  const { user_id: userId, ...facts } = f;
  await tell(tx, { userId, kind: 'prize_withheld', key: `prize_withheld:${prizeId}`, params: { ...facts, prize_id: prizeId, reason } });
}

/** A prize transfer staff marked done or failed; the key names the claim, the outcome and the time of the change. */
export async function tellPayout(
  tx: Db,
  claimId: number,
  kind: 'payout_sent' | 'payout_failed',
  how: { trx_id?: string; reference?: string; refusal?: PayoutRefusalReason } = {},
): Promise<void> {
  const f = await tx.one<{
    user_id: number;
    prize_id: number;
    ticket: string;
    amount: number;
    lottery_id: number;
    lottery: string;
    lottery_bn: string;
    at: string;
  }>(
    `SELECT t.user_id, p.id AS prize_id, p.ticket, p.prize_money AS amount, l.id AS lottery_id, l.name AS lottery,
            l.name_bn AS lottery_bn, (extract(epoch FROM now()) * 1000000)::bigint::text AS at
     FROM prize_claims c JOIN prizes p ON p.id = c.prize_id JOIN transactions t ON t.id = p.transaction_id
     JOIN lotteries l ON l.id = p.lottery_id WHERE c.id = $1`,
    [claimId],
  );
  if (!f) return;
  const { user_id: userId, at, ...params } = f;
  await tell(tx, { userId, kind, key: `${kind}:${claimId}:${at}`, params: { ...params, ...how } });
}

/**
 * A lottery published for sale: every player who opted in and bought a ticket of a lottery of the same kind before
 * (not self-excluded, still active) is told once.
 */
export async function tellNewLottery(tx: Db, lotteryId: number): Promise<void> {
  await tx.query(
    `INSERT INTO player_messages (user_id, kind, event_key, params)
     SELECT s.user_id, 'new_lottery', 'new_lottery:' || l.id || ':' || s.user_id,
            jsonb_build_object('lottery_id', l.id, 'lottery', l.name, 'lottery_bn', l.name_bn, 'price', l.ticket_price,
              'draw_date', to_char(l.end_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
     FROM lotteries l
     JOIN message_settings s ON s.new_lottery
     JOIN users u ON u.id = s.user_id AND u.is_active
     WHERE l.id = $1 AND l.published AND l.end_date > now()
       AND NOT EXISTS (SELECT 1 FROM play_limits x WHERE x.user_id = s.user_id AND (x.excluded_until > now() OR x.timeout_until > now()))
       AND EXISTS (SELECT 1 FROM transactions t JOIN lotteries o ON o.id = t.lottery_id
                   WHERE t.user_id = s.user_id AND t.status = 'success' AND o.kind = l.kind AND o.id <> l.id)
     ON CONFLICT (event_key) DO NOTHING`,
    [lotteryId],
  );
}

/**
 * The claim reminders due now: a prize not yet claimed (no payout details
 * submitted), whose deadline is within 7 days (the 7-day one) or within 1 day (the 1-day one), to a player who did not
 * switch reminders off. One per prize and reminder, whichever instance's job writes it first.
 */
export async function writeDueReminders(db: Db): Promise<number> {
  const rows = await db.query(
    `WITH due AS (
       SELECT p.id AS prize_id, t.user_id, p.ticket, p.prize_money, l.id AS lottery_id, l.name, l.name_bn,
              l.drawn_at + make_interval(days => $1) AS deadline
       FROM prizes p JOIN transactions t ON t.id = p.transaction_id JOIN lotteries l ON l.id = p.lottery_id
       LEFT JOIN prize_claims c ON c.prize_id = p.id
       WHERE l.is_result_published AND l.drawn_at IS NOT NULL AND p.prize_money > 0
         AND (c.id IS NULL OR c.status = 'pending')
         AND l.drawn_at + make_interval(days => $1) > now()
         AND l.drawn_at + make_interval(days => $1) <= now() + interval '7 days'
     )
     INSERT INTO player_messages (user_id, kind, event_key, params)
     SELECT d.user_id, 'claim_reminder', 'claim_reminder:' || r.days || ':' || d.prize_id,
            jsonb_build_object('prize_id', d.prize_id, 'lottery_id', d.lottery_id, 'lottery', d.name, 'lottery_bn', d.name_bn,
              'ticket', d.ticket, 'amount', d.prize_money, 'days', r.days,
              'deadline', to_char(d.deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
     FROM due d
     CROSS JOIN LATERAL (SELECT CASE WHEN d.deadline <= now() + interval '1 day' THEN 1 ELSE 7 END AS days) r
     WHERE coalesce((SELECT s.claim_reminder FROM message_settings s WHERE s.user_id = d.user_id), true)
     ON CONFLICT (event_key) DO NOTHING
     RETURNING id`,
    [CLAIM_DAYS],
  );
  return rows.length;
}

/**
 * After a draw (server/draws/publish.ts): each paid run with an entry in it that has one draw left not drawn tells its
 * player, once (docs/rules/games.md#6-consecutive-draws-and-play-slips): which draw and when, to play his numbers again.
 */
export async function tellRunsLastDraw(tx: Db, lotteryId: number): Promise<void> {
  const runs = await tx.query<{
    id: number;
    user_id: number;
    draws: number;
    lottery_id: number;
    name: string;
    name_bn: string;
    draw_at: string;
  }>(
    `SELECT s.id, s.user_id, s.draws, l.id AS lottery_id, l.name, l.name_bn, COALESCE(l.draw_at, l.end_date) AS draw_at
     FROM slips s
     JOIN LATERAL (SELECT array_agg(DISTINCT t.lottery_id) AS left FROM transactions t JOIN lotteries x ON x.id = t.lottery_id
                   WHERE t.slip_id = s.id AND x.drawn_at IS NULL AND NOT x.is_result_published) r ON cardinality(r.left) = 1
     JOIN lotteries l ON l.id = r.left[1]
     WHERE s.status = 'paid' AND s.draws > 1 AND EXISTS (SELECT 1 FROM transactions t WHERE t.slip_id = s.id AND t.lottery_id = $1)`,
    [lotteryId],
  );
  for (const r of runs)
    await tell(tx, {
      userId: Number(r.user_id),
      kind: 'run_last_draw',
      key: `run_last_draw:${r.id}`,
      params: {
        lottery_id: Number(r.lottery_id),
        lottery: r.name,
        lottery_bn: r.name_bn,
        run_id: Number(r.id),
        draws: r.draws,
        draw_date: new Date(r.draw_at).toISOString(),
      },
    });
}
