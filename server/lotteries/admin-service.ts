import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { LotteryBody, LotteryPatch, StaffLottery, StaffLotteriesQuery } from '../../shared/lotteries/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { recordAudit } from '../audit/record.ts';
import { announceDraw } from '../draws/commitments.ts';
import * as q from './admin-queries.ts';
import { isPurchasable } from './service.ts';

type Staff = z.input<typeof StaffLottery>;

const staffJson = (r: q.StaffLotteryRow): Staff => ({ ...r, purchasable: isPurchasable(r) });

/** The fields of a change whose value differs from the stored one, before and after (for the audit log). */
function changes(before: q.LotteryValues, after: q.LotteryValues): { before: Partial<q.LotteryValues>; after: Partial<q.LotteryValues> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const k of Object.keys(after) as (keyof q.LotteryValues)[]) {
    const same = k === 'start_date' || k === 'end_date' ? Date.parse(before[k]) === Date.parse(after[k]) : before[k] === after[k];
    if (!same) {
      b[k] = before[k];
      a[k] = after[k];
    }
  }
  return { before: b as Partial<q.LotteryValues>, after: a as Partial<q.LotteryValues> };
}

/**
 * Staff manage lotteries (docs/rules/lotteries-and-sales.md#1-lottery-fields): list, read, create, change; every
 * change audited in the database transaction that makes it, under the lottery's row lock.
 */
export class LotteryAdmin {
  constructor(private readonly db: Db) {}

  async list(query: z.output<typeof StaffLotteriesQuery>): Promise<{ items: Staff[]; total: number }> {
    const { rows, total } = await q.staffLotteries(this.db, { search: query.search, filter: query.filter }, query.limit, query.offset);
    return { items: rows.map(staffJson), total };
  }

  async one(id: number, t: TFunction): Promise<Staff> {
    const row = await q.staffLottery(this.db, id);
    if (!row) throw ApiError.detail(404, t('api:lotteryNotFound'), 'not_found');
    return staffJson(row);
  }

  async create(staff: AccessClaims, body: z.output<typeof LotteryBody>, t: TFunction): Promise<Staff> {
    const id = await this.db.tx(async (tx) => {
      const id = await q.insertLottery(tx, body);
      // A published lottery announces its draw at once (docs/rules/draws.md#2-the-seed-and-its-commitment).
      if (body.published) await announceDraw(tx, id, body.end_date, t);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.create',
        entity: 'lottery',
        entityId: String(id),
        before: null,
        after: body,
      });
      return id;
    });
    return this.one(id, t);
  }

  /** A change of some fields; the checks across fields apply to the lottery as it will be. The same values again change nothing. */
  async update(staff: AccessClaims, id: number, patch: z.output<typeof LotteryPatch>, t: TFunction): Promise<Staff> {
    await this.db.tx(async (tx) => {
      const cur = await q.lotteryForUpdate(tx, id);
      if (!cur) throw ApiError.detail(404, t('api:lotteryNotFound'), 'not_found');
      const { id: _id, drawn_at: _drawn, ...before } = cur;
      const after: q.LotteryValues = { ...before, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
      const errors: Record<string, string[]> = {};
      if (Date.parse(after.end_date) <= Date.parse(after.start_date)) errors.end_date = [t('validation:endBeforeStart')];
      if (after.winners > after.total_tickets) errors.winners = [t('validation:winnersOverTickets')];
      const held = after.total_tickets !== before.total_tickets ? await q.heldCount(tx, id) : 0;
      if (after.total_tickets < held) errors.total_tickets = [t('api:totalTicketsBelowHeld', { held })];
      if (Object.keys(errors).length) throw ApiError.fields(errors);
      const diff = changes(before, after);
      if (!Object.keys(diff.after).length) return;
      // Once drawn, the prizes were paid out of this total and among at most these winners.
      if (
        (diff.after.total_prize !== undefined || (diff.after.winners !== undefined && after.winners < before.winners)) &&
        (await q.prizeCount(tx, id)) > 0
      )
        throw ApiError.detail(409, t('api:lotteryDrawnPrizeFixed'), 'already_drawn');
      await q.updateLottery(tx, id, after);
      // Published and not drawn: its draw announced, or its beacon round moved with the end of sales while it may.
      if (after.published && !cur.drawn_at && !after.is_result_published) await announceDraw(tx, id, after.end_date, t);
      await recordAudit(tx, { actorId: staff.user_id, action: 'lottery.update', entity: 'lottery', entityId: String(id), ...diff });
    });
    return this.one(id, t);
  }
}
