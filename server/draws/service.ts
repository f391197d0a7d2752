import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import type { Language } from '../../shared/i18n.ts';
import { CLAIM_DAYS, claimDeadline } from '../../shared/claims/schemas.ts';
import { formatDate, toAsciiDigits, toDigits } from '../../shared/dates.ts';
import type {
  DrawBody,
  DrawReply,
  NotifyBody,
  NotifyReply,
  Participant,
  ParticipantsQuery,
  Prize,
  RandomWinnerBody,
} from '../../shared/draws/schemas.ts';
import { firstDuplicate, ownTicket } from '../../shared/draws/split.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import { formatTaka, splitPrize } from '../../shared/money.ts';
import { paths } from '../../shared/paths.ts';
import { normaliseTicket } from '../../shared/ticket.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type { Texts } from '../i18n.ts';
import { NotifyError, type Notifier } from '../notify/index.ts';
import { likePattern } from '../db/like.ts';
import { recordAudit } from '../audit/record.ts';
import * as q from './queries.ts';
import * as cq from './commitment-queries.ts';
import * as pq from './proposal-queries.ts';
import * as nq from './numbers-queries.ts';
import { publishDraw } from './publish.ts';
import { drawFromFrozen } from './freeze.ts';
import { drawProof, seedForDraw, verifiedBeacon } from './commitments.ts';
import type { Keyring } from '../crypto/sealed.ts';
import { numbersDraw, numbersLottery } from './numbers-draw.ts';
import { beaconFromSignature } from './drand.ts';
import { roundTime, selectWinners, sortedTickets } from './verifiable.ts';
import { ALGORITHM, type DrawProofReply } from '../../shared/draws/proof.ts';

/**
 * Finishing a draw (docs/rules/lotteries-and-sales.md#9-the-draw): staff name the winning tickets; the server checks
 * them against the lottery's sales, splits the lottery's own total prize and publishes the results, all in one
 * database transaction under the lottery's row lock, audited.
 */
export class Draws {
  private readonly db: Db;
  private readonly keys: Keyring;
  private readonly notifier: Notifier;
  private readonly texts: Texts;
  private readonly publicOrigin?: string;
  /** `publicOrigin` (PUBLIC_ORIGIN): the winners' message links to My Lotteries with it; without it, the path alone. */
  constructor(
    db: Db,
    /** The keys the undrawn seeds are sealed with (server/crypto/sealed.ts). */
    keys: Keyring,
    notifier: Notifier,
    /** The app's texts, for the winners' messages in each winner's language. */
    texts: Texts,
    publicOrigin?: string,
  ) {
    this.db = db;
    this.keys = keys;
    this.notifier = notifier;
    this.texts = texts;
    this.publicOrigin = publicOrigin;
  }

  /** The public proof of a lottery's draw (server/draws/commitments.ts). */
  proof(lotteryId: number): ReturnType<typeof drawProof> {
    return drawProof(this.db, this.keys, lotteryId);
  }

  /**
   * Winners chosen by hand, as an unverifiable draw (docs/rules/lotteries-and-sales.md#9-the-draw): one staff member
   * proposes the tickets with a reason; nothing is paid until a second one approves. Only once sales are closed, from
   * the tickets frozen then, and never a ticket of his own. The tickets are checked now (so a wrong one is told at once)
   * and again at approval.
   */
  async propose(staff: AccessClaims, body: z.output<typeof DrawBody>): Promise<pq.ProposalRow> {
    const id = await this.db.tx(async (tx) => {
      const lottery = await q.lockDrawLottery(tx, body.lottery_id);
      if (!lottery) refuse('draw_lottery_id_not_found');
      await this.checkChosen(tx, lottery, body.tickets, [staff.user_id], staff.user_id);
      if (await pq.hasPendingProposal(tx, lottery.id)) refuse('draw_proposal_pending');
      const proposalId = await pq.insertProposal(tx, {
        lotteryId: lottery.id,
        tickets: body.tickets,
        reason: body.reason,
        by: staff.user_id,
      });
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.draw_proposed',
        entity: 'lottery',
        entityId: String(lottery.id),
        before: null,
        after: { proposal_id: proposalId, tickets: body.tickets, reason: body.reason },
      });
      return proposalId;
    });
    return (await pq.proposal(this.db, id)) as pq.ProposalRow;
  }

  /**
   * A second staff member approves a pending proposal: its tickets are checked again under the lottery's lock and the
   * draw is finished with them. Its author cannot approve it (403), whatever his rights; nor can anyone while a chosen
   * ticket is his or the author's.
   */
  async approve(staff: AccessClaims, proposalId: number): Promise<z.input<typeof DrawReply>> {
    return this.db.tx(async (tx) => {
      const p = await this.lockPending(tx, proposalId);
      if (p.proposal.proposed_by === staff.user_id) refuse('second_staff_required');
      const tickets = p.proposal.tickets.split('\n');
      const sold = await this.checkChosen(tx, p.lottery, tickets, [staff.user_id, p.proposal.proposed_by], staff.user_id);
      await pq.decide(tx, proposalId, 'approved', staff.user_id);
      return this.award(
        tx,
        staff.user_id,
        p.lottery,
        tickets.map((ticket) => ({ ticket, id: sold.get(ticket) as number })),
        {
          algorithm: 'unverifiable',
          proposal_id: proposalId,
          proposed_by: p.proposal.proposed_by,
          approved_by: staff.user_id,
          reason: p.proposal.reason,
        },
      );
    });
  }

  /** Rejects a pending proposal (its author withdraws it the same way): nothing is paid, the lottery can be proposed again. */
  async reject(staff: AccessClaims, proposalId: number): Promise<pq.ProposalRow> {
    await this.db.tx(async (tx) => {
      const p = await this.lockPending(tx, proposalId);
      await pq.decide(tx, proposalId, 'rejected', staff.user_id);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.draw_rejected',
        entity: 'lottery',
        entityId: String(p.lottery.id),
        before: { proposal_id: proposalId, status: 'pending' },
        after: { proposal_id: proposalId, status: 'rejected' },
      });
    });
    return (await pq.proposal(this.db, proposalId)) as pq.ProposalRow;
  }

  /** A lottery's proposals, newest first (staff). */
  async proposals(lotteryId: number): Promise<pq.ProposalRow[]> {
    if (!(await q.lotteryExists(this.db, lotteryId))) refuse('draw_lottery_not_found');
    return pq.proposalsOf(this.db, lotteryId);
  }

  /** The lottery's lock, then the proposal's: a proposal still pending of a lottery not drawn yet, or a clear refusal. */
  private async lockPending(tx: Db, proposalId: number) {
    const lotteryId = await pq.lotteryOfProposal(tx, proposalId);
    const lottery = lotteryId === undefined ? undefined : await q.lockDrawLottery(tx, lotteryId);
    const proposal = lottery ? await pq.lockProposal(tx, proposalId) : undefined;
    if (!lottery || !proposal) refuse('draw_proposal_not_found');
    // The text names the state in the caller's language (api:drawProposal.status.<state>).
    if (proposal.status !== 'pending') refuse('draw_proposal_decided', { vars: { status: proposal.status } });
    return { lottery, proposal };
  }

  /**
   * The checks of chosen winning tickets, under the lottery's lock (docs/rules/lotteries-and-sales.md#9-the-draw): not
   * drawn yet, sales closed and the tickets frozen (frozen now when no job did it yet, and still the frozen set), each
   * ticket once, at most the lottery's winners, each a `success` ticket of the lottery, and none held by these staff
   * members (`staff`: who proposes; at approval who approves and who proposed; `caller` is the one asking). Answers each
   * ticket's transaction.
   */
  private async checkChosen(
    tx: Db,
    lottery: q.DrawLottery,
    tickets: readonly string[],
    staff: readonly number[],
    caller: number,
  ): Promise<Map<string, number>> {
    // Results published, or a draw whose results were taken back: either way this lottery has been drawn.
    if (lottery.is_result_published || (await q.hasPrizes(tx, lottery.id))) refuse('draw_already_finished');
    // A numbers lottery's prizes follow from the numbers drawn (docs/rules/lotteries-and-sales.md#9-the-draw): no
    // winning tickets are chosen for it.
    if (lottery.kind === 'numbers') refuse('numbers_kind');
    // Winners are chosen from the tickets as they stood at the close, never while they can still change: the same
    // frozen set the verifiable draw draws from (docs/rules/draws.md#3-the-tickets).
    if (Date.now() < Date.parse(lottery.end_date)) refuse('draw_sales_open');
    await drawFromFrozen(tx, lottery.id);
    const twice = firstDuplicate(tickets);
    if (twice) refuse('draw_ticket_twice', { vars: { ticket: twice } });
    if (tickets.length > lottery.winners) refuse('draw_too_many_tickets', { vars: { count: tickets.length, winners: lottery.winners } });
    const rows = new Map((await q.soldTickets(tx, lottery.id, tickets)).map((r) => [r.ticket, r]));
    const unsold = tickets.filter((x) => !rows.has(x));
    // One message per ticket not sold, all under `tickets`.
    const [first, ...more] = unsold.map((ticket) => refusal('draw_ticket_not_sold', { vars: { ticket } }));
    if (first) throw more.length ? refusal(first.refusal, { ...first.details, with: more }) : first;
    // Nobody names his own ticket a winner, nor approves a proposal that names his or its author's.
    const own = ownTicket(
      tickets.map((x) => rows.get(x) as q.SoldTicket),
      staff,
    );
    if (own) refuse(own.holder === caller ? 'draw_own_ticket' : 'draw_proposer_ticket', { vars: { ticket: own.ticket } });
    return new Map([...rows].map(([ticket, r]) => [ticket, r.id]));
  }

  /**
   * The draw by the procedure (docs/rules/draws.md): once sales are closed and the beacon's value is known, the
   * lottery's `success` tickets are frozen, the winners drawn from the seed, the tickets and the beacon, the prizes
   * awarded as every draw does, and the seed revealed with the proof, in one transaction under the lottery's lock (two
   * staff members drawing at once: one draw, the other 409).
   */
  async verifiableDraw(actorId: number | null, lotteryId: number): Promise<z.input<typeof DrawReply>> {
    return this.db.tx(async (tx) => {
      // A numbers draw may lock the lottery its jackpot rolls into as well: both are locked here, in id order, so that
      // two lotteries naming each other and drawn at the same moment take turns instead of deadlocking.
      const target = await nq.rolloverTargetOf(tx, lotteryId);
      await q.lockLotteries(tx, target === null ? [lotteryId] : [lotteryId, target]);
      const lottery = await q.lockDrawLottery(tx, lotteryId);
      if (!lottery) refuse('draw_lottery_not_found');
      if (lottery.is_result_published || (await q.hasPrizes(tx, lottery.id))) refuse('draw_already_finished');
      const c = await cq.commitmentForUpdate(tx, lottery.id);
      if (!c) refuse('draw_not_announced');
      if (Date.now() < Date.parse(lottery.end_date)) refuse('draw_sales_open');
      if (!c.beacon_value) refuse('beacon_missing', { vars: { round: c.beacon_round } });
      // Only drand's signed value draws (docs/rules/draws.md#4-the-beacon, decision 046): a value typed before, or a
      // sample, waits for the round's signature. Checked again here, not taken from the database on its word.
      if (!verifiedBeacon(c)) refuse('beacon_unverified', { vars: { round: c.beacon_round } });
      // The tickets frozen at the close, frozen now if no job did it yet, and still the same (docs/rules/draws.md#3-the-tickets).
      await drawFromFrozen(tx, lottery.id);
      // A numbers lottery draws numbers and pays tiers, with or without tickets (server/draws/numbers-draw.ts).
      const numbers = await numbersLottery(tx, lottery.id);
      if (numbers) {
        // Named another target between the read above and the lock: the locks taken are not the ones needed. (A game's
        // draw finds its game's next draw again under the game's lock: a later one made since has a greater id.)
        if (numbers.game_id === null && numbers.rollover_to !== target) refuse('draw_try_again');
        return numbersDraw(tx, actorId, numbers, {
          seed: seedForDraw(this.keys, c),
          beacon_value: c.beacon_value,
          beacon_round: c.beacon_round,
        });
      }
      const sold = await cq.successTickets(tx, lottery.id);
      if (!sold.length) refuse('draw_no_tickets');
      const ids = new Map(sold.map((r) => [r.ticket, r.id]));
      const tickets = sortedTickets(sold.map((r) => r.ticket));
      const seed = seedForDraw(this.keys, c);
      const drawn = selectWinners({ seed, tickets, beacon: c.beacon_value, winners: lottery.winners });
      await cq.recordDraw(tx, lottery.id, {
        seed,
        tickets: tickets.join('\n'),
        ticketsDigest: drawn.tickets_digest,
        maxWinners: lottery.winners,
        winners: drawn.winners.join('\n'),
      });
      return this.award(
        tx,
        actorId,
        lottery,
        drawn.winners.map((ticket) => ({ ticket, id: ids.get(ticket) as number })),
        { algorithm: ALGORITHM, tickets_digest: drawn.tickets_digest, beacon_round: Number(c.beacon_round) },
      );
    });
  }

  /**
   * The beacon for the announced round (docs/rules/draws.md#4-the-beacon), as staff read it from any drand relay: its
   * signature, which is verified against drand quicknet's public key and gives the value (SHA-256 of it); a value
   * typed alone is refused by the body's schema (decision 046). Only after the round's time (before it nobody knows
   * it), once: the same signature again changes nothing, and nothing replaces a verified value; it replaces a value
   * typed before decision 046 (or a sample), which nobody had checked. Recorded with who entered it. Neither staff nor
   * the operator choose it: the round was fixed when the lottery was published, and the signature proves the value.
   */
  async setBeacon(
    staff: AccessClaims,
    lotteryId: number,
    body: { value?: string | undefined; signature?: string | undefined },
  ): Promise<z.input<typeof DrawProofReply>> {
    await this.db.tx(async (tx) => {
      const lottery = await q.lockDrawLottery(tx, lotteryId);
      if (!lottery) refuse('draw_lottery_not_found');
      const c = await cq.commitmentForUpdate(tx, lotteryId);
      if (!c) refuse('draw_not_announced');
      if (c.revealed_at) refuse('draw_already_finished');
      const round = Number(c.beacon_round);
      // The texts write the round in the caller's digits and the time his way (shared/draws/refusals.ts).
      const at = roundTime(round);
      if (Date.now() < at.getTime()) refuse('beacon_not_yet', { vars: { round, at: at.toISOString() } });
      const b = beaconFromSignature(round, body.signature);
      if (!b) refuse('beacon_signature_invalid', { vars: { round } });
      const v = b.randomness;
      const signature = b.signature;
      // A verified value is drand's: nothing replaces it, and the same again changes nothing. A value typed without a
      // signature (before decision 046), or a sample, is replaced by the verified one, whether it differs or not.
      const known = verifiedBeacon(c);
      if (known && c.beacon_value === v) return;
      if (known) refuse('beacon_set');
      await cq.setBeaconSignature(tx, lotteryId, v, signature, staff.user_id);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.beacon',
        entity: 'lottery',
        entityId: String(lotteryId),
        before: { beacon_round: round, beacon_value: c.beacon_value, beacon_signature: c.beacon_signature },
        after: { beacon_round: round, beacon_value: v, beacon_signature: signature },
      });
    });
    return drawProof(this.db, this.keys, lotteryId);
  }

  /** The winners' prizes and the results, in the draw's transaction: what every draw does once its winners are known. */
  private async award(
    tx: Db,
    actorId: number | null,
    lottery: q.DrawLottery,
    winners: { ticket: string; id: number }[],
    how: Record<string, unknown>,
  ): Promise<z.input<typeof DrawReply>> {
    const { each, remainder } = splitPrize(lottery.total_prize, winners.length);
    const prizes: q.PrizeRow[] = [];
    for (const w of winners)
      prizes.push(await q.insertPrize(tx, { lottery_id: lottery.id, transaction_id: w.id, ticket: w.ticket, prize_money: each }));
    const drawnAt = await publishDraw(tx, actorId, lottery.id, {
      total_prize: lottery.total_prize,
      remainder,
      prizes: prizes.map((p) => ({ id: p.id, ticket: p.ticket, transaction_id: p.transaction_id, prize_money: p.prize_money })),
      ...how,
    });
    return { lottery_id: lottery.id, drawn_at: drawnAt, total_prize: lottery.total_prize, remainder, prizes };
  }

  /** A lottery's prizes (staff), in the order the draw chose them. */
  async prizes(lotteryId: number): Promise<z.input<typeof Prize>[]> {
    if (!(await q.lotteryExists(this.db, lotteryId))) refuse('draw_lottery_not_found');
    return q.prizesOf(this.db, lotteryId);
  }

  /**
   * A page of the lottery's participants, its `success` transactions in the order they were bought, searched by
   * name, phone or ticket (docs/rules/lotteries-and-sales.md#9-the-draw).
   */
  async participants(
    lotteryId: number,
    query: z.output<typeof ParticipantsQuery>,
  ): Promise<{ items: z.input<typeof Participant>[]; total: number }> {
    if (!(await q.lotteryExists(this.db, lotteryId))) refuse('draw_lottery_not_found');
    const search = query.search ?? null;
    const { rows, total } = await q.participants(
      this.db,
      lotteryId,
      {
        like: search === null ? null : likePattern(search),
        ticket: search === null ? null : normaliseTicket(toAsciiDigits(search)),
        phone: search === null ? null : normalisePhone(toAsciiDigits(search)),
      },
      query.limit,
      query.offset,
    );
    return { items: rows, total };
  }

  /**
   * One ticket chosen uniformly by a CSPRNG among the lottery's `success` tickets not excluded: count them, draw an
   * index with node:crypto randomInt, read that one row in id order (docs/decisions/017-draw-page-and-notify.md). A
   * ticket approved or rejected between the count and the read can leave the index past the end: then count again.
   */
  async randomWinner(body: z.output<typeof RandomWinnerBody>): Promise<z.input<typeof Participant>> {
    const exclude = body.exclude ?? [];
    const lottery = await q.noticeLottery(this.db, body.lottery_id);
    if (!lottery) refuse('draw_lottery_id_not_found');
    if (lottery.is_result_published || (await q.hasPrizes(this.db, lottery.id))) refuse('draw_already_finished');
    for (let attempt = 0; attempt < 3; attempt++) {
      const n = await q.eligibleCount(this.db, lottery.id, exclude);
      if (n === 0) break;
      const row = await q.eligibleAt(this.db, lottery.id, exclude, n === 1 ? 0 : randomInt(n));
      if (row) return row;
    }
    refuse('no_tickets_left');
  }

  /**
   * Sends each winner of a published draw one message per prize (SMS to his phone, else e-mail), in his language. A
   * prize is taken (notified_at set) before its message is sent, so a second press, or two at once, sends nothing
   * twice; a message that could not be sent gives its prize back for the next press. Audited. The answer's detail is
   * in the caller's language `lng`.
   */
  async notifyWinners(staff: AccessClaims, body: z.output<typeof NotifyBody>, lng: Language): Promise<z.input<typeof NotifyReply>> {
    const lottery = await q.noticeLottery(this.db, body.lottery_id);
    if (!lottery) refuse('draw_lottery_id_not_found');
    if (!lottery.is_result_published || !lottery.drawn_at) refuse('notify_results_not_published');
    const { sent, failed } = await this.sendWinners(staff.user_id, lottery, lottery.drawn_at);
    if (failed.length && !sent.length) refuse('winners_notify_failed', { vars: { count: failed.length } });
    const detail = failed.length
      ? this.texts('api:drawAdmin.notifiedPartly', { lng, count: sent.length, failed: failed.length })
      : sent.length
        ? this.texts('api:drawAdmin.notified', { lng, count: sent.length })
        : this.texts('api:drawAdmin.alreadyNotified', { lng });
    return { detail, notified: sent.length, failed: failed.length };
  }

  /**
   * Tells the winners of the drawn lottery `lottery` not told yet (Draws.notifyWinners), audited with `actorId` (null:
   * the game's draw job, docs/rules/games.md#3-a-draws-life). Answers the prizes told and those whose message failed.
   */
  async sendWinners(actorId: number | null, lottery: q.NoticeLottery, drawnAt: string): Promise<{ sent: number[]; failed: number[] }> {
    const winners = await q.takeUnnotified(this.db, lottery.id);
    const sent: number[] = [];
    const failed: number[] = [];
    for (const w of winners) {
      const to = w.phone ?? w.email;
      try {
        if (!to) throw new NotifyError('the winner has neither phone nor e-mail');
        await this.notifier.send({
          channel: w.phone ? 'sms' : 'email',
          to,
          purpose: 'winner',
          ...winnerMessage(this.texts, lottery, w, drawnAt, this.publicOrigin),
        });
        sent.push(w.id);
      } catch {
        // The transport logged why (server/notify/index.ts); the next press (or run) tries this prize again.
        await q.releaseNotice(this.db, w.id);
        failed.push(w.id);
      }
    }
    if (winners.length)
      await recordAudit(this.db, {
        actorId,
        action: 'lottery.notify_winners',
        entity: 'lottery',
        entityId: String(lottery.id),
        before: null,
        after: { notified: sent, failed },
      });
    return { sent, failed };
  }

  /** The lottery as the winners' messages name it, once its results are published and drawn (undefined otherwise). */
  async drawnForNotice(lotteryId: number): Promise<{ lottery: q.NoticeLottery; drawnAt: string } | undefined> {
    const lottery = await q.noticeLottery(this.db, lotteryId);
    return lottery?.is_result_published && lottery.drawn_at ? { lottery, drawnAt: lottery.drawn_at } : undefined;
  }
}

/**
 * The winner's message in his messages' language (users.language, docs/rules/messages.md): the lottery, his ticket,
 * the prize in taka, and that it must be claimed within 30 days at My Lotteries.
 */
function winnerMessage(
  t: Texts,
  l: q.NoticeLottery,
  w: q.WinnerRow,
  drawnAt: string,
  origin: string | undefined,
): { subject: string; text: string } {
  const deadline = claimDeadline(drawnAt);
  const link = origin ? new URL(paths.myLotteries, origin).href : paths.myLotteries;
  const lng = w.language;
  const vars = {
    lng,
    lottery: lng === 'bn' && l.name_bn ? l.name_bn : l.name,
    ticket: toDigits(w.ticket, lng),
    prize: formatTaka(w.prize_money, lng),
    days: CLAIM_DAYS,
    date: formatDate(deadline, lng) ?? deadline,
    link,
  };
  return { subject: t('api:drawAdmin.messageSubject', vars), text: t('api:drawAdmin.messageText', vars) };
}
