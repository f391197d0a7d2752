/**
 * Send Money reconciled with the bKash statement (docs/rules/payments.md#8-send-money-reconciled-with-the-statement):
 * staff upload the merchant statement; each row that matches a pending purchase in TrxID, amount and sender approves
 * it; the rest are listed for a person or left alone; a person resolves a listed row; a purchase whose TrxID is in no
 * statement 48 hours after it was given is flagged. Reading is statement-parser.ts, deciding statement-match.ts (both pure);
 * this carries the decisions out, in one database transaction per upload, audited.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type {
  FlaggedPurchase,
  ReconciliationState,
  DiscardBody,
  ResolveBody,
  Statement,
  StatementDetail,
  StatementReason,
  StatementRowOut,
  StatementRowsQuery,
  StatementUploadReply,
} from '../../shared/payments/statement-schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { uniqueViolation, type Db } from '../db/index.ts';
import { refuse, refusal } from '../../shared/api/refusals.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import { LANGUAGES } from '../../shared/i18n.ts';
import type { Texts } from '../i18n.ts';
import { approveFromStatement, type StatementApproval } from '../purchases/service.ts';
import { closedError, saleAndClosed } from '../lotteries/freeze.ts';
import { readStatement, STATEMENT_MAX_ROWS, type StatementRead } from './statement-parser.ts';
import { matchStatement } from './statement-match.ts';
import { approveStep, confirmRefusal, discardRefusal, rowsRefusal } from './statement-steps.ts';
import * as q from './statement-queries.ts';

/** Uploads take turns (one database-wide lock while an upload is stored): the same file twice at once is one upload. */
const UPLOAD_LOCK_KEY = 7_041_978;

type StatementOut = z.input<typeof Statement>;
type RowOut = z.input<typeof StatementRowOut>;

const statementJson = (s: q.StatementRecord): StatementOut => ({
  id: s.id,
  file_name: s.file_name,
  sha256: s.sha256,
  size_bytes: s.size_bytes,
  uploaded_by: { id: s.uploaded_by, name: s.uploader_name },
  created_at: s.created_at,
  status: s.status,
  confirmation:
    s.confirmed_by !== null && s.confirmed_at ? { by: { id: s.confirmed_by, name: s.confirmer_name ?? '' }, at: s.confirmed_at } : null,
  discard:
    s.discarded_by !== null && s.discarded_at && s.discard_reason !== null
      ? { by: { id: s.discarded_by, name: s.discarder_name ?? '' }, at: s.discarded_at, reason: s.discard_reason }
      : null,
  counts: { rows_read: s.rows_read, approved: s.approved, review: s.review, ignored: s.ignored, problems: s.problems, open: s.open },
});

const rowJson = (r: q.StatementRowRecord): RowOut => ({
  id: r.id,
  statement_id: r.statement_id,
  line: r.line,
  decision: r.decision,
  reason: r.reason as StatementReason | null,
  trx_id: r.trx_id,
  amount: r.amount,
  sender: r.sender,
  sender_masked: r.sender_masked,
  at: r.at,
  type: r.type,
  direction: r.direction,
  raw: r.raw,
  purchase:
    r.p_id !== null && r.p_status !== null && r.p_user_id !== null && r.p_lottery_id !== null
      ? {
          id: r.p_id,
          status: r.p_status,
          amount: r.p_amount ?? 0,
          trx_id: r.p_trx_id,
          payment_number: r.p_payment_number ?? '',
          ticket: r.p_ticket ?? '',
          user: { id: r.p_user_id, name: r.p_user_name ?? '', phone: r.p_user_phone },
          lottery: { id: r.p_lottery_id, name: r.p_lottery_name ?? '', name_bn: r.p_lottery_name_bn ?? '' },
        }
      : null,
  proposal:
    r.proposed_by !== null && r.proposed_at && r.proposal_note !== null
      ? { by: { id: r.proposed_by, name: r.proposer_name ?? '' }, at: r.proposed_at, note: r.proposal_note }
      : null,
  resolution:
    r.resolution && r.resolved_by !== null && r.resolved_at && r.resolution_note !== null
      ? { action: r.resolution, by: { id: r.resolved_by, name: r.resolver_name ?? '' }, at: r.resolved_at, note: r.resolution_note }
      : null,
});

/**
 * A whole file refused by the reader (docs/rules/payments.md#81-reading-the-statement). The names of the columns a file
 * lacks are worded in every language with the app's texts; run() words the refusal in the caller's.
 */
export function fileRefusal(read: Extract<StatementRead, { ok: false }>, texts: Texts): Refusal {
  switch (read.reason) {
    case 'empty':
      return refusal('statement_empty');
    case 'too_large':
      return refusal('statement_too_large');
    case 'too_many_rows':
      return refusal('statement_too_many_rows', { vars: { max: STATEMENT_MAX_ROWS } });
    case 'format_not_supported':
      return refusal('statement_format_not_supported', { vars: { format: (read.format ?? 'xlsx').toUpperCase() } });
    case 'unreadable':
      return read.line
        ? refusal('statement_unreadable_line', { vars: { line: read.line }, extra: { line: read.line } })
        : refusal('statement_unreadable');
    case 'not_a_statement': {
      const missing = read.missing ?? [];
      const columns = Object.fromEntries(
        LANGUAGES.map((lng) => [lng, missing.map((c) => texts(`api:statement.columns.${c}`, { lng })).join(', ')]),
      );
      return refusal('not_a_statement', { vars: { columns }, extra: { missing } });
    }
  }
}

/** Why a purchase could not be approved, as the confirmation records it on its row (review). */
const approvalReason = (r: Exclude<StatementApproval, { ok: true }>['reason']): StatementReason =>
  r === 'not_found' ? 'changed_meanwhile' : r;

/**
 * Why a confirmed resolution could not approve its purchase. A lottery closed for changes is still refused by
 * server/lotteries/freeze.ts closedError.
 */
function approvalRefusal(no: Exclude<StatementApproval, { ok: true }>): Error {
  if ('closed' in no) return closedError(no.closed);
  if (no.reason === 'own_purchase') return refusal('statement_own_purchase');
  return refusal('statement_purchase_changed');
}

/** A step refused by statement-steps.ts; `not_awaiting` says what became of the upload. */
function stepRefusal(
  code: 'own_upload' | 'not_awaiting' | 'awaiting_confirmation' | 'statement_discarded' | 'own_proposal',
  status: q.StatementRecord['status'],
): Refusal {
  switch (code) {
    case 'own_upload':
      return refusal('statement_own_upload');
    case 'own_proposal':
      return refusal('statement_own_proposal');
    case 'not_awaiting':
      return refusal(status === 'discarded' ? 'statement_already_discarded' : 'statement_already_confirmed');
    case 'awaiting_confirmation':
      return refusal('statement_rows_await_confirmation');
    case 'statement_discarded':
      return refusal('statement_discarded');
  }
}

export class Statements {
  private readonly db: Db;
  private readonly receiver: string;
  private readonly texts: Texts;
  constructor(
    db: Db,
    /** Our bKash receiver number (BKASH_RECEIVER_NUMBER): rows paid to it are money received. */
    receiver: string,
    /** The app's texts, for the names of a refused file's missing columns in every language (fileRefusal). */
    texts: Texts,
  ) {
    this.db = db;
    this.receiver = receiver;
    this.texts = texts;
  }

  /** Where each of these Send Money purchases stands with the statements, read through `db` (the caller's transaction). */
  async reconciliationOf(transactionIds: number[], db: Db = this.db): Promise<Map<number, ReconciliationState>> {
    if (!transactionIds.length) return new Map();
    const rows = await q.reconciliationOf(db, transactionIds);
    return new Map(rows.flatMap((r) => (r.state ? [[r.id, r.state] as const] : [])));
  }

  /** Statement rows waiting for a person and flagged purchases, together (the dashboard). */
  toDecide(): Promise<number> {
    return q.toDecide(this.db);
  }

  /**
   * An upload (docs/rules/payments.md#83-uploading-a-statement): the file read, its rows matched to the purchases that
   * carry its TrxIDs, and in one database transaction the upload and every row stored with its decision, and the
   * upload audited. It approves nothing: its `approve` rows wait for a second staff member (`confirm`). The same bytes
   * again answer the earlier upload and change nothing.
   */
  async upload(
    staff: AccessClaims,
    bytes: Buffer | undefined,
    fileName: string,
  ): Promise<{ created: boolean; reply: z.input<typeof StatementUploadReply> }> {
    if (!bytes) refuse('statement_no_file');
    if (bytes.length === 0) refuse('statement_empty');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const earlier = await q.statementBySha(this.db, sha256);
    if (earlier) return { created: false, reply: { ...statementJson(earlier), repeated: true } };
    const read = readStatement(bytes, fileName, { receiver: this.receiver });
    if (!read.ok) throw fileRefusal(read, this.texts);

    const id = await this.db
      .tx(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [UPLOAD_LOCK_KEY]);
        if (await q.statementBySha(tx, sha256)) return null;
        const statementId = await q.insertStatement(tx, { fileName, sha256, sizeBytes: bytes.length, uploadedBy: staff.user_id });
        const trxIds = [...new Set(read.rows.map((r) => r.trxId))];
        const purchases = trxIds.length ? await q.purchasesByTrxIds(tx, trxIds) : [];
        const rows: q.NewStatementRow[] = matchStatement(read.rows, purchases).map(({ row: r, ...d }) => ({
          line: r.line,
          trx_id: r.trxId,
          amount: r.amount,
          sender: r.sender,
          sender_masked: r.senderMasked,
          at: r.at,
          type: r.type,
          direction: r.direction,
          raw: null,
          transaction_id: d.transactionId,
          decision: d.kind,
          reason: d.kind === 'approve' ? null : d.reason,
        }));
        for (const p of read.problems)
          rows.push({
            line: p.line,
            decision: 'problem',
            reason: p.reason,
            trx_id: null,
            amount: null,
            sender: null,
            sender_masked: false,
            at: null,
            type: null,
            direction: null,
            raw: p.raw,
            transaction_id: null,
          });
        rows.sort((a, b) => a.line - b.line);
        await q.insertRows(tx, statementId, rows);
        const count = (k: q.NewStatementRow['decision']) => rows.filter((r) => r.decision === k).length;
        const counts = {
          rows_read: rows.length,
          approved: count('approve'),
          review: count('review'),
          ignored: count('ignore'),
          problems: count('problem'),
        };
        await q.setCounts(tx, statementId, counts);
        await recordAudit(tx, {
          actorId: staff.user_id,
          action: 'statement.upload',
          entity: 'statement',
          entityId: String(statementId),
          before: null,
          after: {
            file_name: fileName,
            sha256,
            size_bytes: bytes.length,
            ...counts,
            status: 'awaiting_confirmation',
            to_approve: rows.filter((r) => r.decision === 'approve').map((r) => r.transaction_id),
          },
        });
        return statementId;
      })
      .catch((err: unknown) => {
        // Another instance stored the same bytes between our check and our insert: it is that upload.
        if (uniqueViolation(err) === 'bkash_statements_sha256_key') return null;
        throw err;
      });
    if (id === null) {
      const first = await q.statementBySha(this.db, sha256);
      if (!first) throw new Error('statement vanished');
      return { created: false, reply: { ...statementJson(first), repeated: true } };
    }
    const stored = await q.statementById(this.db, id);
    if (!stored) throw new Error('statement vanished');
    return { created: true, reply: { ...statementJson(stored), repeated: false } };
  }

  /** The uploads, newest first. */
  async list(limit: number, offset: number): Promise<{ items: StatementOut[]; total: number }> {
    const { rows, total } = await q.statements(this.db, limit, offset);
    return { items: rows.map(statementJson), total };
  }

  /** One upload and a page of its rows, in line order. */
  async one(id: number, query: z.output<typeof StatementRowsQuery>): Promise<z.input<typeof StatementDetail>> {
    const s = await q.statementById(this.db, id);
    if (!s) refuse('statement_not_found');
    const { rows, total } = await q.rowsOf(this.db, id, query.decision, query.limit, query.offset);
    return { statement: statementJson(s), rows: rows.map(rowJson), total };
  }

  /**
   * A second staff member confirms an upload awaiting confirmation (docs/rules/payments.md#84-confirming-or-discarding-an-upload):
   * each `approve` row approves its purchase if it still may at this moment (approveFromStatement: pending with that
   * TrxID, neither the uploader's nor the confirmer's own, on sale), else becomes a review row with the reason. Never
   * the uploader (403 `own_upload`); once (409 `not_awaiting`: the upload is locked, so of many at once one confirms).
   * Takes its turn with uploads and other confirmations, so two never lock lotteries in opposite orders.
   */
  async confirm(staff: AccessClaims, id: number): Promise<StatementOut> {
    return this.decideUpload(
      staff,
      id,
      'statement.confirm',
      (s) => confirmRefusal(s, staff.user_id),
      async (tx, s) => {
        const approved: number[] = [];
        const refused: { transaction_id: number; reason: StatementReason }[] = [];
        for (const row of await q.approveRowsOf(tx, id)) {
          const done = await approveFromStatement(tx, {
            transactionId: row.transaction_id,
            trxId: row.trx_id,
            staffId: staff.user_id,
            proposedBy: s.uploaded_by,
            statementId: id,
            line: row.line,
          });
          if (done.ok) approved.push(row.transaction_id);
          else {
            const reason = approvalReason(done.reason);
            await q.setReview(tx, row.id, reason);
            refused.push({ transaction_id: row.transaction_id, reason });
          }
        }
        await q.setConfirmed(tx, id, staff.user_id);
        const counts = await q.countsOf(tx, id);
        await q.setCounts(tx, id, counts);
        return { status: 'confirmed', confirmed_by: staff.user_id, ...counts, approved_transactions: approved, refused };
      },
    );
  }

  /** A staff member sets aside an upload awaiting confirmation, with a reason: it approves nothing. Audited. */
  async discard(staff: AccessClaims, id: number, body: z.output<typeof DiscardBody>): Promise<StatementOut> {
    return this.decideUpload(staff, id, 'statement.discard', discardRefusal, async (tx) => {
      await q.setDiscarded(tx, id, staff.user_id, body.reason);
      return { status: 'discarded', discarded_by: staff.user_id, reason: body.reason };
    });
  }

  /**
   * An upload awaiting confirmation decided once (docs/rules/payments.md#84-confirming-or-discarding-an-upload): it
   * takes its turn with uploads and other decisions, is locked, and if `refusal` allows, `act` decides it in the same
   * database transaction; audited as `action` with what `act` answers. Answers the upload as it is after.
   */
  private async decideUpload(
    staff: AccessClaims,
    id: number,
    action: 'statement.confirm' | 'statement.discard',
    refusal: (s: q.LockedStatement) => 'own_upload' | 'not_awaiting' | null,
    act: (tx: Db, s: q.LockedStatement) => Promise<Record<string, unknown>>,
  ): Promise<StatementOut> {
    await this.db.tx(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [UPLOAD_LOCK_KEY]);
      const s = await q.statementForUpdate(tx, id);
      if (!s) refuse('statement_not_found');
      const denied = refusal(s);
      if (denied) throw stepRefusal(denied, s.status);
      const after = await act(tx, s);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action,
        entity: 'statement',
        entityId: String(id),
        before: { status: s.status, uploaded_by: s.uploaded_by },
        after: { uploaded_by: s.uploaded_by, ...after },
      });
    });
    return this.stored(id);
  }

  private async stored(id: number): Promise<StatementOut> {
    const s = await q.statementById(this.db, id);
    if (!s) refuse('statement_not_found');
    return statementJson(s);
  }

  /**
   * A person decides a row listed for review (docs/rules/payments.md#86-resolving-a-row), with a note: the first
   * `approve` proposes approving the pending purchase that carries the row's TrxID (the amount or sender that differed
   * is his call), a second staff member's `approve` approves it; `dismiss` changes nothing else. Once per row; only
   * on a confirmed upload; never a row of his own purchase, never confirming his own proposal; audited.
   */
  async resolve(staff: AccessClaims, rowId: number, body: z.output<typeof ResolveBody>): Promise<RowOut> {
    await this.db.tx(async (tx) => {
      const row = await q.rowForUpdate(tx, rowId);
      if (!row) refuse('statement_row_not_found');
      if (row.decision !== 'review') refuse('statement_row_not_review');
      if (row.resolution !== null) refuse('statement_row_already_resolved');
      const early = rowsRefusal(row.statement_status);
      if (early) throw stepRefusal(early, row.statement_status);
      // The purchase the row names, else the one that carries its TrxID now (the player may have given it since).
      const named = row.transaction_id !== null ? await q.ownerOf(tx, row.transaction_id) : undefined;
      const holder = row.trx_id !== null ? await q.trxIdOwner(tx, row.trx_id) : undefined;
      if ((named && named.user_id === staff.user_id) || (holder && holder.user_id === staff.user_id)) refuse('statement_own_purchase');
      let transactionId: number | null = null;
      if (body.action === 'approve') {
        if (row.direction === 'out') refuse('statement_not_received');
        if (!holder || row.trx_id === null) refuse('statement_no_purchase');
        const step = approveStep(row.proposed_by, staff.user_id);
        if (step === 'own_proposal') throw stepRefusal(step, row.statement_status);
        if (row.proposed_by === null) {
          // step === 'propose': the first approval is a proposal; a second staff member approves the purchase (or
          // anyone dismisses the row). A purchase that can no longer be confirmed is refused as its confirmation would
          // be (docs/rules/lotteries-and-sales.md#8-transaction-states), first: from the close the answer is the same
          // whether or not the freeze has rejected the purchase. No status changes here, so no lottery lock is needed:
          // the confirmation checks again under it.
          const closed = (await saleAndClosed(tx, holder.lottery_id))?.closed;
          if (closed) throw closedError(closed);
          if (holder.status !== 'pending') refuse('statement_purchase_changed');
          await q.proposeRow(tx, rowId, staff.user_id, body.note);
          await recordAudit(tx, {
            actorId: staff.user_id,
            action: 'statement.propose',
            entity: 'statement',
            entityId: String(row.statement_id),
            before: { row_id: row.id, line: row.line, trx_id: row.trx_id, reason: row.reason, transaction_id: row.transaction_id },
            after: { row_id: row.id, proposal: 'approve', note: body.note, transaction_id: holder.id },
          });
          return;
        }
        const done = await approveFromStatement(tx, {
          transactionId: holder.id,
          trxId: row.trx_id,
          staffId: staff.user_id,
          proposedBy: row.proposed_by,
          statementId: row.statement_id,
          line: row.line,
          note: body.note,
        });
        if (!done.ok) throw approvalRefusal(done);
        transactionId = holder.id;
      }
      const resolution = body.action === 'approve' ? 'approved' : 'dismissed';
      await q.resolveRow(tx, rowId, { resolution, by: staff.user_id, note: body.note, transactionId });
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'statement.resolve',
        entity: 'statement',
        entityId: String(row.statement_id),
        before: {
          row_id: row.id,
          line: row.line,
          trx_id: row.trx_id,
          decision: row.decision,
          reason: row.reason,
          transaction_id: row.transaction_id,
        },
        after: {
          row_id: row.id,
          resolution,
          note: body.note,
          transaction_id: transactionId ?? row.transaction_id,
          ...(row.proposed_by !== null ? { proposed_by: row.proposed_by, proposal_note: row.proposal_note } : {}),
        },
      });
    });
    const out = await q.rowById(this.db, rowId);
    if (!out) refuse('statement_row_not_found');
    return rowJson(out);
  }

  /** Pending Send Money purchases whose TrxID is in no statement 48 hours after it was given, oldest first. */
  async flagged(limit: number, offset: number): Promise<{ items: z.input<typeof FlaggedPurchase>[]; total: number }> {
    const { rows, total } = await q.flagged(this.db, limit, offset);
    return {
      items: rows.map((r) => ({
        id: r.id,
        status: r.status,
        amount: r.amount,
        trx_id: r.trx_id,
        trx_id_at: r.trx_id_at,
        payment_number: r.payment_number,
        ticket: r.ticket,
        created_at: r.created_at,
        user: { id: r.user_id, name: r.user_name, phone: r.user_phone },
        lottery: { id: r.lottery_id, name: r.lottery_name, name_bn: r.lottery_name_bn },
      })),
      total,
    };
  }
}
