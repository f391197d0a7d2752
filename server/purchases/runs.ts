/**
 * Runs of consecutive draws, paid once (docs/rules/games.md#6-consecutive-draws-and-play-slips, decision 078): a slip
 * of a game's lines for its next draws, each line of each draw its own pending transaction, all paid by one bKash
 * checkout of the slip's first entry (its lead) and confirmed together, or none.
 */
import type { z } from 'zod';
import { refuse } from '../../shared/api/refusals.ts';
import { QUICK_PICK, type Run, type RunBody } from '../../shared/purchases/runs.ts';
import { formatTicket, randomTicket } from '../../shared/ticket.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import { throttle } from '../http/rate-limit.ts';
import { lockLotteryForSale, saleState } from '../lotteries/service.ts';
import { saleAndClosed } from '../lotteries/freeze.ts';
import { stillOnSale } from '../../shared/lotteries/freeze.ts';
import { tellPurchase } from '../messages/outbox.ts';
import { checkPlay } from '../play-safe/service.ts';
import { refuseStaffPlay } from '../play-safe/staff.ts';
import * as q from './queries.ts';
import * as rq from './run-queries.ts';
import { playerJson } from './player-json.ts';
import type { TransactionRow } from './queries.ts';

/** How many random combinations a quick pick tries before it gives up on one free in every draw (never, in practice). */
const QUICK_TRIES = 100;

type RunJson = z.input<typeof Run>;

/** The same limit as a single purchase (server/purchases/service.ts PURCHASE_LIMIT): a slip is a purchase. */
const RUN_LIMIT = { max: 30, windowSec: 60 };

export class Runs {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /**
   * A slip: its lines for the game's next `draws` draws on sale (fewer when fewer are on sale: the run is shortened
   * before payment, and the answer says so), each line of each draw a pending entry, one amount for the whole,
   * counted whole against the player's limits now. A combination held in one of the draws is refused, naming the draw
   * and suggesting one free in all of them; a quick pick is free in all of them. With an idempotency key used before,
   * the slip made then.
   */
  async create(caller: AccessClaims, body: z.output<typeof RunBody>, key: string | null): Promise<{ created: boolean; run: RunJson }> {
    refuseStaffPlay(caller);
    const userId = caller.user_id;
    await throttle(this.db, [[`purchase:user:${userId}`, RUN_LIMIT]]);
    const made = await this.db.tx(async (tx) => {
      if (key !== null) {
        const before = await rq.slipByKey(tx, userId, key);
        if (before) return { created: false, id: before.id };
      }
      if (!(await rq.gameExists(tx, body.game_id))) refuse('run_game_not_found');
      const wanted = await rq.drawsOnSale(tx, body.game_id, body.draws);
      // The lotteries' locks in id order (the order every purchase and draw takes them in), then what is on sale now.
      for (const id of wanted.map((d) => d.id).sort((a, b) => a - b)) await lockLotteryForSale(tx, id);
      const draws = (await rq.drawsOnSale(tx, body.game_id, body.draws)).filter((d) => wanted.some((w) => w.id === d.id));
      if (!draws.length) refuse('run_no_draws');
      const ids = draws.map((d) => d.id);
      const lines = await this.linesFor(tx, body.lines, ids, draws);
      const amount = lines.length * draws.reduce((sum, d) => sum + Number(d.ticket_price), 0);
      if (!Number.isSafeInteger(amount)) throw new RangeError(`the slip's amount ${amount} is beyond exact whole taka`);
      // The whole run counts against his limits now (docs/rules/play-safe.md#4-every-purchase-path).
      await checkPlay(tx, caller, amount);
      const slipId = await rq.insertSlip(tx, {
        user_id: userId,
        game_id: body.game_id,
        lines: lines.length,
        draws: draws.length,
        draws_asked: body.draws,
        amount,
        idempotency_key: key,
      });
      let lead: number | null = null;
      for (const d of draws)
        for (const ticket of lines) {
          const id = await rq.insertEntry(tx, {
            user_id: userId,
            lottery_id: d.id,
            ticket,
            amount: Number(d.ticket_price),
            slip_id: slipId,
          });
          lead ??= id;
        }
      await rq.setLead(tx, slipId, lead as number);
      return { created: true, id: slipId };
    });
    return { created: made.created, run: await this.own(userId, made.id) };
  }

  /** The caller's own slip with its entries; another player's answers as none. */
  one(caller: AccessClaims, id: number): Promise<RunJson> {
    return this.own(caller.user_id, id);
  }

  private async own(userId: number, id: number): Promise<RunJson> {
    const s = await rq.slip(this.db, id);
    if (!s || Number(s.user_id) !== userId) refuse('run_not_found');
    const entries = await q.playerSlipEntries(this.db, userId, id);
    return {
      id: Number(s.id),
      game_id: Number(s.game_id),
      draws: s.draws,
      draws_asked: s.draws_asked,
      lines: s.lines,
      amount: Number(s.amount),
      status: s.status,
      lead_id: Number(s.lead_id),
      created_at: s.created_at,
      entries: entries.map(playerJson),
    };
  }

  /**
   * The slip's lines as combinations: a typed one refused when it is on two lines or held in one of the draws (the
   * refusal names the first such draw and suggests a free combination); a quick pick drawn free in every draw.
   */
  private async linesFor(tx: Db, typed: readonly string[], ids: readonly number[], draws: readonly { id: number; draw_at: string }[]) {
    const out: string[] = [];
    for (const line of typed) {
      if (line === QUICK_PICK) continue;
      if (out.includes(line)) refuse('run_line_twice', { vars: { ticket: line } });
      const held = await rq.holdersAmong(tx, ids, line);
      if (held.length) {
        const first = draws.find((d) => held.includes(d.id)) ?? draws[0];
        const suggestion = await this.freeCombination(tx, ids, [...out, line]);
        refuse('run_ticket_taken', {
          vars: { ticket: line, date: first?.draw_at, suggestion },
          extra: { ticket: line, lottery_id: first?.id, suggestion },
        });
      }
      out.push(line);
    }
    for (const line of typed) if (line === QUICK_PICK) out.push(await this.freeCombination(tx, ids, out));
    return out;
  }

  /** A random combination held in none of the draws and not already on the slip. */
  private async freeCombination(tx: Db, ids: readonly number[], taken: readonly string[]): Promise<string> {
    for (let i = 0; i < QUICK_TRIES; i++) {
      const t = formatTicket(randomTicket());
      if (!taken.includes(t) && !(await rq.holdersAmong(tx, ids, t)).length) return t;
    }
    refuse('run_no_draws');
  }
}

// The slip's payment (server/payments/service.ts): the lead's checkout pays the whole -----------------------------------

/** A slip as its lead's payment sees it: the slip, its other entries locked, whether any of them can no longer be paid. */
export type RunForPayment = { slip: rq.SlipRow; siblings: TransactionRow[]; closed: boolean };

/** The slip of a purchase, when it is one entry of a run (no lock): what the checkout's start reads. */
export async function runOfPurchase(db: Db, tx: Pick<TransactionRow, 'slip_id'>) {
  if (tx.slip_id === null) return undefined;
  const s = await rq.slip(db, Number(tx.slip_id));
  if (!s) return undefined;
  // Each of its draws once, however many lines the slip has.
  const sales = await Promise.all((await rq.lotteriesOfSlip(db, Number(s.id))).map((id) => saleState(db, id)));
  const now = Date.now();
  return { slip: s, onSale: sales.every((x) => x !== undefined && stillOnSale(x, now)) };
}

/**
 * Under the lead's lottery's lock and its own (lockPurchaseForPayment): the other lotteries of the slip locked in id
 * order (the lead's draw is the earliest, so its lottery is the first), the slip and its other entries, and whether
 * any entry's draw is closed for changes.
 */
export async function lockRunForPayment(tx: Db, slipId: number, leadId: number): Promise<RunForPayment | undefined> {
  const lotteries = await rq.lotteriesOfSlip(tx, slipId);
  for (const id of lotteries) await lockLotteryForSale(tx, id);
  const slip = await rq.slipForUpdate(tx, slipId);
  if (!slip) return undefined;
  const siblings = await rq.siblingsForUpdate(tx, slipId, leadId);
  // Each draw of the run once, however many lines the slip has (the lead's draw is among them: it is checked again here).
  let closed = false;
  for (const s of await Promise.all(lotteries.map((id) => saleAndClosed(tx, id)))) if (!s || s.closed) closed = true;
  return { slip, siblings, closed };
}

/**
 * How a purchase was confirmed, written on its audit (server/purchases/service.ts confirmPurchase) and, for a run's
 * lead, on each other entry's: by bKash's word (no actor) or by staff, with its proof (the checkout's paymentID,
 * bKash's answer to the TrxID, the proposal or the statement).
 */
export type RunAudit = {
  actorId: number | null;
  action: 'transaction.confirmed_by_bkash' | 'transaction.approve';
  proof: Record<string, unknown>;
};

/** The slip's money arrived: every other entry becomes `success` with the lead, audited as the lead was, and the slip is paid. */
export async function confirmRun(tx: Db, run: RunForPayment, trxId: string, audit: RunAudit): Promise<void> {
  for (const before of run.siblings) {
    const after = await q.setStatus(tx, Number(before.id), 'success');
    await recordAudit(tx, {
      actorId: audit.actorId,
      action: audit.action,
      entity: 'transaction',
      entityId: String(before.id),
      before: { status: before.status, slip_id: run.slip.id },
      after: { status: after?.status ?? 'success', slip_id: run.slip.id, ...audit.proof, trx_id: trxId },
    });
    await tellPurchase(tx, Number(before.id), { kind: 'ticket_confirmed' });
  }
  await rq.settleSlip(tx, Number(run.slip.id), 'paid', trxId);
}

/**
 * A run's lead paid with Send Money was confirmed by its TrxID — bKash's check, two staff members, the statement
 * (docs/rules/games.md#6-consecutive-draws-and-play-slips) — its own row by the caller, under its lottery's lock: the
 * run's other lotteries locked in id order, its other entries confirmed with it, the slip paid with the TrxID. Nothing
 * for a purchase bought alone, or a slip no longer pending.
 */
export async function confirmRestOfRun(tx: Db, lead: TransactionRow, trxId: string, audit: RunAudit): Promise<void> {
  if (lead.slip_id === null) return;
  const run = await lockRunForPayment(tx, Number(lead.slip_id), Number(lead.id));
  if (!run || run.slip.status !== 'pending' || Number(run.slip.lead_id) !== Number(lead.id)) return;
  await confirmRun(tx, run, trxId, audit);
}

/**
 * Staff's own status change of an entry of a run (docs/rules/games.md#6-consecutive-draws-and-play-slips): the run is
 * one purchase, so only its lead, while the slip waits for its payment, may be rejected (or asked to be approved, which
 * goes to two people); anything else is refused.
 */
export async function refuseRunChange(tx: Db, before: TransactionRow, status: string): Promise<void> {
  if (before.slip_id === null) return;
  const s = await rq.slip(tx, Number(before.slip_id));
  if (!s || Number(s.lead_id) !== Number(before.id) || s.status !== 'pending' || !['failed', 'success'].includes(status))
    refuse('status_run_entry');
}

/** Staff rejected a run's lead: its other entries still pending fail with it, and the slip fails (their lotteries locked first). */
export async function endRunWithLead(tx: Db, lead: TransactionRow): Promise<void> {
  if (lead.slip_id === null) return;
  const run = await lockRunForPayment(tx, Number(lead.slip_id), Number(lead.id));
  if (run) await endRun(tx, run, 'rejected');
}

/** The slip's payment ended without a ticket: its other entries still pending fail with it, and the slip fails. */
export async function endRun(tx: Db, run: Pick<RunForPayment, 'slip' | 'siblings'>, reason: string): Promise<void> {
  for (const before of run.siblings) {
    if (before.status !== 'pending') continue;
    await q.setStatus(tx, Number(before.id), 'failed');
    await recordAudit(tx, {
      actorId: null,
      action: 'transaction.checkout_failed',
      entity: 'transaction',
      entityId: String(before.id),
      before: { status: 'pending', slip_id: run.slip.id },
      after: { status: 'failed', slip_id: run.slip.id, reason },
    });
  }
  if (run.slip.status === 'pending') await rq.settleSlip(tx, Number(run.slip.id), 'failed', null);
}

/**
 * A slip entry rejected at its draw's close (the freeze): the whole slip can no longer be paid, so its other pending
 * entries are released too (their lotteries locked in id order after the closing one, which is the earliest).
 */
export async function endRunAtClose(tx: Db, entry: TransactionRow): Promise<void> {
  if (entry.slip_id === null) return;
  const slipId = Number(entry.slip_id);
  for (const id of await rq.lotteriesOfSlip(tx, slipId)) if (id !== Number(entry.lottery_id)) await lockLotteryForSale(tx, id);
  const slip = await rq.slipForUpdate(tx, slipId);
  if (!slip || slip.status !== 'pending') return;
  // This lottery's own pending entries are the freeze's to reject (each with its message): only the later draws' here.
  const later = (await rq.siblingsForUpdate(tx, slipId, Number(entry.id))).filter((e) => Number(e.lottery_id) !== Number(entry.lottery_id));
  await endRun(tx, { slip, siblings: later }, 'sales_closed');
}
