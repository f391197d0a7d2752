import type { Db } from '../db/index.ts';
import type { AUDIT_ENTITIES } from '../../shared/audit/schemas.ts';

/**
 * The actions the audit log records, by name (docs/rules/security.md#7-audit-log). A new audited action is added here
 * and in that section.
 */
export type AuditAction =
  | 'transaction.approval_proposed'
  | 'transaction.approval_rejected'
  | 'transaction.approval_lapsed'
  | 'transaction.approve'
  | 'transaction.reject'
  | 'transaction.remove_approval'
  | 'transaction.move_to_pending'
  | 'transaction.confirmed_by_bkash'
  | 'transaction.checkout_failed'
  | 'payment.refund_due'
  | 'payment.refunded'
  | 'statement.upload'
  | 'statement.confirm'
  | 'statement.discard'
  | 'statement.resolve'
  | 'statement.propose'
  | 'lottery.create'
  | 'lottery.update'
  | 'lottery.draw'
  | 'lottery.draw_proposed'
  | 'lottery.draw_rejected'
  | 'lottery.beacon'
  | 'lottery.freeze'
  | 'lottery.rollover'
  | 'lottery.notify_winners'
  | 'prize.withholding_proposed'
  | 'prize.withhold'
  | 'prize.withholding_rejected'
  | 'prize.withholding_withdrawn'
  | 'claim.transfer_approved'
  | 'claim.transfer_completed'
  | 'claim.transfer_failed'
  | 'claim.payout_sent'
  | 'claim.payout_waiting'
  | 'claim.payout_completed'
  | 'claim.payout_refused'
  | 'claim.payout_unknown'
  | 'claim.payout_settled'
  | 'claim.payout_not_sent'
  | 'game.create'
  | 'game.update'
  | 'bkash_agreement.create'
  | 'bkash_agreement.cancel'
  | 'generated_ticket.create'
  | 'generated_ticket.delete'
  | 'user.create'
  | 'user.update'
  | 'play.self_exclusion'
  | 'play.time_out';

/** The kinds of thing a record is about (its `entity`). */
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

export type AuditRecord = {
  /**
   * The staff account that made the change (or the player himself, for his own break from play:
   * docs/rules/play-safe.md#5-what-staff-see); null when the system made it on bKash's word (docs/rules/payments.md). */
  actorId: number | null;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string;
  /** The thing before and after the change, as JSON; null where there was none (a creation, a deletion). */
  before: unknown;
  after: unknown;
};

/**
 * Writes one audit record (docs/rules/security.md#7-audit-log). Every feature writes its records through this
 * function, with `db` the transaction of the change it records, so that there is never a change without its record.
 * Records are only ever added: nothing in the product changes or deletes one (server/audit/queries.ts reads them).
 */
export const recordAudit = (db: Db, a: AuditRecord) =>
  db.query('INSERT INTO audit_log (actor_id, action, entity, entity_id, before, after) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)', [
    a.actorId,
    a.action,
    a.entity,
    a.entityId,
    JSON.stringify(a.before),
    JSON.stringify(a.after),
  ]);
