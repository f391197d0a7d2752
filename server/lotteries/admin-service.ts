import { tellNewLottery } from '../messages/outbox.ts';
import type { z } from 'zod';
import {
  NUMBERS_FIELDS,
  TICKETS_FIELDS,
  type LotteryBody,
  type LotteryPatch,
  type StaffLottery,
  type StaffLotteriesQuery,
} from '../../shared/lotteries/schemas.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import type { Db } from '../db/index.ts';
import type { Refusal } from '../../shared/api/refusal.ts';
import { refuse, refusal, type RefusalName } from '../../shared/api/refusals.ts';
import { recordAudit } from '../audit/record.ts';
import { announceDraw } from '../draws/commitments.ts';
import type { Keyring } from '../crypto/sealed.ts';
import * as q from './admin-queries.ts';
import { isPurchasable } from './service.ts';
import { isSuperuserNow } from '../users/service.ts';

type Staff = z.input<typeof StaffLottery>;

const staffJson = (r: q.StaffLotteryRow): Staff => ({ ...r, total_prize: r.jackpot ?? r.total_prize, purchasable: isPurchasable(r) });

/**
 * The stored `winners` and `total_prize` of a numbers lottery: the table's checks want them, nothing reads them (its
 * prizes are by tier, its total prize shown is the jackpot; docs/decisions/032-numbers-draw-tiers.md).
 */
const NUMBERS_PLACEHOLDER = { winners: 1, total_prize: 1 } as const;

/** The rollover target named: a numbers lottery, not drawn, not the lottery itself (400 under `rollover_to` otherwise). */
async function rolloverTargetValid(tx: Db, self: number | null, target: number): Promise<boolean> {
  const r = target === self ? undefined : await q.rolloverTarget(tx, target);
  return !!r && r.kind === 'numbers' && !r.drawn;
}

/** Refusals of fields, each field's last one kept: thrown as one answer (the first one's code), or nothing when none. */
function refuseFields(byField: Map<string, Refusal>): void {
  const [first, ...more] = byField.values();
  if (first) throw more.length ? refusal(first.refusal as RefusalName, { ...first.details, with: more }) : first;
}

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
  private readonly db: Db;
  private readonly keys: Keyring;
  constructor(
    db: Db,
    /** The keys a new draw's seed is sealed with (server/crypto/sealed.ts). */
    keys: Keyring,
  ) {
    this.db = db;
    this.keys = keys;
  }

  async list(query: z.output<typeof StaffLotteriesQuery>): Promise<{ items: Staff[]; total: number }> {
    const { rows, total } = await q.staffLotteries(this.db, { search: query.search, filter: query.filter }, query.limit, query.offset);
    return { items: rows.map(staffJson), total };
  }

  async one(id: number): Promise<Staff> {
    const row = await q.staffLottery(this.db, id);
    if (!row) refuse('lottery_not_found');
    return staffJson(row);
  }

  async create(staff: AccessClaims, body: z.output<typeof LotteryBody>): Promise<Staff> {
    const id = await this.db.tx(async (tx) => {
      const numbers = body.kind === 'numbers';
      if (numbers && body.rollover_to != null && !(await rolloverTargetValid(tx, null, body.rollover_to)))
        refuse('rollover_target_invalid');
      // The schema required the fields of the body's kind (shared/lotteries/schemas.ts checkKind).
      const id = await q.insertLottery(tx, {
        ...body,
        winners: numbers ? NUMBERS_PLACEHOLDER.winners : (body.winners as number),
        total_prize: numbers ? NUMBERS_PLACEHOLDER.total_prize : (body.total_prize as number),
        jackpot_share: numbers ? (body.jackpot_share ?? null) : null,
        tier2_prize: numbers ? (body.tier2_prize ?? null) : null,
        tier3_prize: numbers ? (body.tier3_prize ?? null) : null,
        tier4_prize: numbers ? (body.tier4_prize ?? null) : null,
        tier5_prize: numbers ? (body.tier5_prize ?? null) : null,
        rollover_to: numbers ? (body.rollover_to ?? null) : null,
      });
      // A published lottery announces its draw at once (docs/rules/draws.md#2-the-seed-and-its-commitment), and players
      // who asked to hear of new lotteries are told (docs/rules/messages.md).
      if (body.published) {
        await announceDraw(tx, this.keys, id, body.end_date);
        await tellNewLottery(tx, id);
      }
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
    return this.one(id);
  }

  /** A change of some fields; the checks across fields apply to the lottery as it will be. The same values again change nothing. */
  async update(staff: AccessClaims, id: number, patch: z.output<typeof LotteryPatch>): Promise<Staff> {
    await this.db.tx(async (tx) => {
      const cur = await q.lotteryForUpdate(tx, id);
      if (!cur) refuse('lottery_not_found');
      const { id: _id, drawn_at: _drawn, rollover_in: rolloverIn, game_id: gameId, ...before } = cur;
      const { results_reason: resultsReason, ...fields } = patch;
      await unpublishing(tx, staff, before.is_result_published && fields.is_result_published === false, resultsReason);
      const after: q.LotteryValues = { ...before, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
      const errors = kindErrors(before, after, patch);
      if (after.kind === 'numbers') Object.assign(after, NUMBERS_PLACEHOLDER);
      else
        Object.assign(after, {
          jackpot_share: null,
          tier2_prize: null,
          tier3_prize: null,
          tier4_prize: null,
          tier5_prize: null,
          rollover_to: null,
        });
      if (after.rollover_to !== null && after.rollover_to !== before.rollover_to) {
        if (!(await rolloverTargetValid(tx, id, after.rollover_to))) errors.set('rollover_to', refusal('rollover_target_invalid'));
      }
      if (Date.parse(after.end_date) <= Date.parse(after.start_date)) errors.set('end_date', refusal('lottery_end_before_start'));
      if (after.winners > after.total_tickets) errors.set('winners', refusal('lottery_winners_over_tickets'));
      const held = after.total_tickets !== before.total_tickets ? await q.heldCount(tx, id) : 0;
      if (after.total_tickets < held) errors.set('total_tickets', refusal('total_tickets_below_held', { vars: { held } }));
      refuseFields(errors);
      const diff = changes(before, after);
      if (!Object.keys(diff.after).length) return;
      // A game's draw has its game's calendar and prizes (docs/rules/games.md#1-the-game): only its texts and flags change here.
      if (gameId !== null && Object.keys(diff.after).some((k) => !GAME_DRAW_SETTABLE.has(k as keyof q.LotteryValues)))
        refuse('lottery_of_game');
      // The kind and a numbers lottery's prizes are what its tickets were sold with (docs/rules/lotteries-and-sales.md#1-lottery-fields).
      if (PRIZE_SETTINGS.some((k) => k in diff.after)) {
        if (before.kind === 'numbers' && after.kind !== 'numbers' && rolloverIn > 0) refuse('lottery_kind_rollover');
        if ((await q.heldCount(tx, id)) > 0) refuse('lottery_prizes_fixed');
      }
      // A numbers lottery's results are its numbers draw's (docs/rules/lotteries-and-sales.md#9-the-draw): published
      // without it, nobody would be paid and its jackpot would roll nowhere.
      if (diff.after.is_result_published === true && after.kind === 'numbers' && !cur.drawn_at) refuse('numbers_results_need_draw');
      // The jackpot's destination is named until the draw, which reads it.
      if ('rollover_to' in diff.after && (cur.drawn_at || before.is_result_published)) refuse('lottery_drawn_prize_fixed');
      // Once drawn, the prizes were paid out of this total and among at most these winners.
      if (
        (diff.after.total_prize !== undefined || (diff.after.winners !== undefined && after.winners < before.winners)) &&
        (await q.prizeCount(tx, id)) > 0
      )
        refuse('lottery_drawn_prize_fixed');
      await q.updateLottery(tx, id, after);
      // Published and not drawn: its draw announced, or its beacon round moved with the end of sales while it may.
      if (after.published && !cur.drawn_at && !after.is_result_published) await announceDraw(tx, this.keys, id, after.end_date);
      if (after.published && !before.published && !cur.drawn_at && !after.is_result_published) await tellNewLottery(tx, id);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'lottery.update',
        entity: 'lottery',
        entityId: String(id),
        before: diff.before,
        after: resultsReason === undefined ? diff.after : { ...diff.after, results_reason: resultsReason },
      });
    });
    return this.one(id);
  }
}

/**
 * Taking published results back (docs/rules/lotteries-and-sales.md#9-the-draw) is a superuser's act, as the database
 * has him now, with a reason (`results_reason`, audited); a reason given for anything else is refused.
 */
async function unpublishing(tx: Db, staff: AccessClaims, unpublish: boolean, reason: string | undefined): Promise<void> {
  if (!unpublish) {
    if (reason !== undefined) refuse('unpublish_reason_only_then');
    return;
  }
  if (!(await isSuperuserNow(tx, staff.user_id))) refuse('unpublish_superuser_only');
  if (reason === undefined) refuse('unpublish_reason_required');
}

/** What staff change of a game's draw themselves; the rest is the game's. */
const GAME_DRAW_SETTABLE: ReadonlySet<keyof q.LotteryValues> = new Set([
  'name',
  'name_bn',
  'description',
  'description_bn',
  'published',
  'featured',
  'is_result_published',
]);

/** The settings a ticket is sold with: the kind and a numbers lottery's prizes. */
const PRIZE_SETTINGS: readonly (keyof q.LotteryValues)[] = ['kind', ...NUMBERS_FIELDS];

/**
 * A change checked against the kind the lottery will have: the fields of the other kind refused, and on a change of
 * kind the fields of the new one required (a numbers lottery stores no total prize or winners of its own, a
 * winning-tickets lottery no tiers).
 */
function kindErrors(before: q.LotteryValues, after: q.LotteryValues, patch: z.output<typeof LotteryPatch>): Map<string, Refusal> {
  const errors = new Map<string, Refusal>();
  const given = patch as Record<string, unknown>;
  const numbers = after.kind === 'numbers';
  if (numbers) {
    for (const f of TICKETS_FIELDS) if (given[f] !== undefined && given[f] !== null) errors.set(f, refusal(`${f}_tickets_kind_only`));
  } else
    for (const f of [...NUMBERS_FIELDS, 'rollover_to'] as const)
      if (given[f] !== undefined && given[f] !== null) errors.set(f, refusal(`${f}_numbers_kind_only`));
  if (after.kind !== before.kind)
    for (const f of numbers ? NUMBERS_FIELDS : TICKETS_FIELDS) if (given[f] === undefined) errors.set(f, refusal(`${f}_kind_needs`));
  return errors;
}
