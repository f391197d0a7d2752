import type { z } from 'zod';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type {
  ActivateBody,
  ActivateReply,
  GenerateBody,
  GeneratedTicket,
  GeneratedTicketsQuery,
} from '../../shared/generated-tickets/schemas.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { cryptoRandomInt, formatTicket, normaliseTicket, randomTicket } from '../../shared/ticket.ts';
import { toAsciiDigits } from '../../shared/dates.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { procedure, uniqueViolation, type Db } from '../db/index.ts';
import { countFailure, FAILURE_STEPS, failuresCounted, refuseWhileBackingOff, type Limit } from '../http/rate-limit.ts';
import { recordAudit } from '../audit/record.ts';
import { lockLotteryForSale, saleState, type SaleState } from '../lotteries/service.ts';
import { checkPlay } from '../play-safe/service.ts';
import { refuseStaffPlay } from '../play-safe/staff.ts';
import * as q from './queries.ts';
import type { Language } from '../../shared/i18n.ts';
import { sealSecret, type Keyring } from '../crypto/sealed.ts';

type Staff = z.input<typeof GeneratedTicket>;
type Activated = z.input<typeof ActivateReply>;

/**
 * A staff search as the list reads it: part of a ticket number or a lottery name, a ticket in any written form, or a
 * whole secret (16 digits, also with spaces or dashes), found by its lookup hashes: a sealed secret cannot be searched
 * by a part (docs/rules/tickets.md#6-generated-tickets).
 */
export function searchOf(keys: Keyring, search: string | null): Pick<q.GeneratedFilter, 'search' | 'ticket' | 'secretLookups'> {
  const digits = search ? toAsciiDigits(search).replace(/[\s-]/g, '') : '';
  return {
    search,
    ticket: search ? normaliseTicket(toAsciiDigits(search)) : null,
    secretLookups: /^\d{16}$/.test(digits) ? keys.lookups('generated-secret', digits) : null,
  };
}

/** A generated ticket's secret as staff see and export it: opened from its sealed form (or a row not sealed yet). */
export function secretOf(keys: Keyring, r: Pick<q.GeneratedRow, 'secret_number' | 'secret_sealed'>): string {
  if (r.secret_sealed !== null) return keys.open('generated-secret', r.secret_sealed);
  if (r.secret_number === null) throw new Error('a generated ticket without a secret');
  return r.secret_number;
}

/**
 * Wrong ticket and secret pairs (docs/rules/limits.md#1-rate-limits, docs/decisions/025-limits-for-shared-addresses.md),
 * counted in the steps of server/http/rate-limit.ts: per player as failed logins are (5 in 15 minutes, 20 a day), and
 * per address with more room, since many players share one mobile operator's address. Nothing is counted per ticket
 * number: a stranger's wrong tries against a ticket number must never keep its owner, who holds the right secret, out.
 */
export const ACTIVATION_FAILURES = {
  user: FAILURE_STEPS,
  address: [
    { max: 20, windowSec: 15 * 60 },
    { max: 100, windowSec: 24 * 60 * 60 },
  ],
} as const satisfies Record<string, readonly Limit[]>;

/** How many rounds of random combinations generation tries before it gives up on a nearly full lottery. */
const ROUNDS = 50;

/** Constraint of migration 001: a combination held twice in one lottery. */
const TICKET_HELD = 'transactions_ticket_held';

/** 16 digits from a cryptographic random source (docs/rules/tickets.md#6-generated-tickets). */
export const randomSecret = (): string => [0, 1].map(() => String(cryptoRandomInt(100_000_000)).padStart(8, '0')).join('');

/** Sales are closed for generation and activation: the end date has passed, or the lottery was drawn (results out or taken back). */
const closed = (sale: SaleState) => sale.is_result_published || sale.drawn || new Date(sale.end_date).getTime() <= Date.now();

const staffJson = (keys: Keyring, r: q.StaffGeneratedRow): Staff => ({
  id: r.id,
  ticket_number: r.ticket_number,
  secret_number: secretOf(keys, r),
  is_activated: r.activated_at !== null,
  activated_by: r.activated_by === null ? null : { id: r.activated_by, name: r.u_name ?? '', email: r.u_email, phone: r.u_phone },
  activated_at: r.activated_at,
  transaction_id: r.transaction_id,
  created_by: r.created_by,
  created_at: r.created_at,
  lottery: {
    id: r.lottery_id,
    name: r.l_name,
    name_bn: r.l_name_bn,
    ticket_price: r.l_ticket_price,
    total_prize: r.l_total_prize,
    end_date: r.l_end_date,
  },
});

/** What the audit log keeps of a generated ticket: never its secret. */
const auditSnapshot = (r: q.GeneratedRow) => ({
  lottery_id: r.lottery_id,
  ticket_number: r.ticket_number,
  created_by: r.created_by,
  created_at: r.created_at,
});

/** An activation's transaction: the purchase it made (or made before, for this player), or not his to activate. */
type Activation = { ok: true; transactionId: number } | { ok: false };

/**
 * The transaction of an activation (GeneratedTickets.activate), run where the database is
 * (docs/decisions/099-writes-run-on-the-database-thread.md): under the lottery's lock, the ticket's row, then the sale.
 */
export const activateTx = procedure(
  'activate',
  async (tx, { caller, generatedId, lotteryId }: { caller: AccessClaims; generatedId: number; lotteryId: number }): Promise<Activation> => {
    const userId = caller.user_id;
    await lockLotteryForSale(tx, lotteryId);
    const g = await q.generatedForUpdate(tx, generatedId);
    if (!g) return { ok: false } as const;
    if (g.activated_at !== null && g.transaction_id !== null)
      return g.activated_by === userId ? ({ ok: true, transactionId: g.transaction_id } as const) : ({ ok: false } as const);
    const sale = await saleState(tx, g.lottery_id);
    if (!sale) return { ok: false } as const;
    if (closed(sale)) refuse('activation_lottery_ended');
    // An activation is play: self-exclusion and spend limits apply as to a purchase (docs/rules/play-safe.md#4-every-purchase-path).
    await checkPlay(tx, caller, sale.ticket_price);
    const transactionId = await q.insertActivation(tx, {
      user_id: userId,
      lottery_id: g.lottery_id,
      ticket: g.ticket_number,
      amount: sale.ticket_price,
    });
    if (!(await q.markActivated(tx, g.id, userId, transactionId))) throw new Error('generated ticket changed under its lock');
    return { ok: true, transactionId } as const;
  },
);

/**
 * Generated tickets (docs/rules/tickets.md#6-generated-tickets, #7-activating-a-generated-ticket,
 * #8-deleting-and-exporting-generated-tickets, docs/decisions/015-generated-tickets.md): staff make, list and delete
 * them; a player activates one with its secret, which makes it his `success` transaction.
 */
export class GeneratedTickets {
  private readonly db: Db;
  readonly keys: Keyring;
  constructor(
    db: Db,
    /** The keys the secrets are sealed with (server/crypto/sealed.ts). */
    keys: Keyring,
  ) {
    this.db = db;
    this.keys = keys;
  }

  /**
   * Staff: `quantity` tickets of random combinations not held in the lottery, each with a random secret, made under
   * the lottery's row lock (the lock purchases take), audited in the same database transaction.
   */
  async generate(staff: AccessClaims, body: z.output<typeof GenerateBody>): Promise<Staff[]> {
    const ids = await this.db.tx(async (tx) => {
      if (!(await lockLotteryForSale(tx, body.lottery_id))) refuse('generated_lottery_not_found');
      const sale = await saleState(tx, body.lottery_id);
      if (!sale) refuse('generated_lottery_not_found');
      if (closed(sale)) refuse('generated_lottery_ended');
      const left = Math.max(0, sale.total_tickets - sale.tickets_sold);
      if (body.quantity > left) refuse('generated_tickets_left', { vars: { left } });
      const chosen = new Set<string>();
      for (let round = 0; round < ROUNDS && chosen.size < body.quantity; round++) {
        const candidates = new Set<string>();
        while (candidates.size < body.quantity - chosen.size) {
          const c = formatTicket(randomTicket());
          if (!chosen.has(c)) candidates.add(c);
        }
        const held = await q.heldAmong(tx, body.lottery_id, [...candidates]);
        for (const c of candidates) if (!held.has(c)) chosen.add(c);
      }
      if (chosen.size < body.quantity) refuse('generated_tickets_left', { vars: { left: chosen.size } });
      const rows = await q.insertGenerated(
        tx,
        body.lottery_id,
        staff.user_id,
        [...chosen].map((ticket) => ({ ticket, ...sealSecret(this.keys, randomSecret()) })),
      );
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'generated_ticket.create',
        entity: 'lottery',
        entityId: String(body.lottery_id),
        before: null,
        after: { quantity: rows.length, tickets: rows.map((r) => ({ id: r.id, ticket_number: r.ticket_number })) },
      });
      return rows.map((r) => r.id);
    });
    return (await q.staffGeneratedByIds(this.db, ids)).map((r) => staffJson(this.keys, r));
  }

  /** Staff: the generated tickets, newest first, searched and filtered. */
  async list(query: z.output<typeof GeneratedTicketsQuery>): Promise<{ items: Staff[]; total: number }> {
    const { rows, total } = await q.staffGenerated(
      this.db,
      { ...searchOf(this.keys, query.search), lotteryId: query.lottery_id, activation: query.activation ?? 'all' },
      query.limit,
      query.offset,
    );
    return { items: rows.map((r) => staffJson(this.keys, r)), total };
  }

  /** Staff: deletes a ticket that was not activated (an activated one is a sale); audited. */
  async remove(staff: AccessClaims, id: number): Promise<void> {
    const known = await q.generatedById(this.db, id);
    if (!known) refuse('generated_ticket_not_found');
    await this.db.tx(async (tx) => {
      // The lottery first, then the ticket: the order activation takes its locks in.
      await lockLotteryForSale(tx, known.lottery_id);
      const before = await q.generatedForUpdate(tx, id);
      if (!before) refuse('generated_ticket_not_found');
      if (before.activated_at !== null) refuse('ticket_activated');
      if (!(await q.deleteGenerated(tx, id))) refuse('generated_ticket_not_found');
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'generated_ticket.delete',
        entity: 'generated_ticket',
        entityId: String(id),
        before: auditSnapshot(before),
        after: null,
      });
    });
  }

  /**
   * A player activates a generated ticket with its secret (docs/rules/tickets.md#7-activating-a-generated-ticket).
   * A wrong pair, and a ticket another player activated, are one answer that tells nothing of which half was wrong;
   * each counts against the player and his address, never against the ticket number (its owner always gets in). The
   * caller's own activation sent again answers as the first did (a retry after a lost answer). Under the lottery's row
   * lock, so that of two activations at once exactly one wins.
   */
  async activate(caller: AccessClaims, body: z.output<typeof ActivateBody>, ip: string, lng: Language): Promise<Activated> {
    refuseStaffPlay(caller);
    const userId = caller.user_id;
    const player = `activate:fail:user:${userId}`;
    const address = `activate:fail:ip:${ip}`;
    await refuseWhileBackingOff(this.db, player, ACTIVATION_FAILURES.user);
    // An address's failures hold back only a player who failed himself lately: on a shared address, another's wrong
    // tries never keep out a player who types his secret right, while one machine with many accounts still gets at
    // most one wrong try per account once the address is over (docs/rules/limits.md#1-rate-limits).
    if ((await failuresCounted(this.db, player, ACTIVATION_FAILURES.user)) > 0)
      await refuseWhileBackingOff(this.db, address, ACTIVATION_FAILURES.address);
    const wrong = async () => {
      await countFailure(this.db, player, ACTIVATION_FAILURES.user);
      await countFailure(this.db, address, ACTIVATION_FAILURES.address);
      return refusal('activation_invalid');
    };
    const found = await q.byPair(this.db, body.ticket_number, this.keys.lookups('generated-secret', body.secret_number));
    if (!found) throw await wrong();
    let outcome: Activation;
    try {
      outcome = await this.db.run(activateTx, { caller, generatedId: found.id, lotteryId: found.lottery_id });
    } catch (err) {
      // Cannot happen while purchases refuse a combination a generated ticket holds; a conflict, never a 500.
      if (uniqueViolation(err) === TICKET_HELD) refuse('activation_ticket_taken');
      throw err;
    }
    if (!outcome.ok) throw await wrong();
    const names = await q.lotteryNames(this.db, found.lottery_id);
    return {
      lottery_id: found.lottery_id,
      lottery_name: names ? lotteryName(names, lng) : '',
      status: 'success',
      ticket: found.ticket_number,
      transaction_id: outcome.transactionId,
    };
  }
}
