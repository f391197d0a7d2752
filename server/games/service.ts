import type { z } from 'zod';
import {
  STATS_DAYS_MAX,
  STATS_DRAWN,
  type DrawStats,
  type Game,
  type GameBody,
  type GameDetail,
  type GameDraw,
  type GamePatch,
  type GameStats,
  type GamesQuery,
} from '../../shared/games/schemas.ts';
import { daysMask, daysOf, hhmmOf, nextDraws, salesCloseOf } from '../../shared/games/calendar.ts';
import { dhakaDateInputValue, formatDate } from '../../shared/dates.ts';
import { jackpotAmount, numbersOf } from '../../shared/draws/tiers.ts';
import type { AccessClaims } from '../accounts/tokens.ts';
import { recordAudit } from '../audit/record.ts';
import type { Db } from '../db/index.ts';
import type { Keyring } from '../crypto/sealed.ts';
import { announceDraw } from '../draws/commitments.ts';
import { tellNewLottery } from '../messages/outbox.ts';
import { refuse } from '../../shared/api/refusals.ts';
import * as q from './queries.ts';

/** How many drawn draws a game's page lists beside those not drawn yet. */
export const DRAWN_LISTED = 20;

const gameJson = (g: q.GameReadRow): z.input<typeof Game> => {
  const { draw_days, draw_minute, ...rest } = g;
  return { ...rest, draw_days: daysOf(draw_days), draw_time: hhmmOf(draw_minute) };
};

/** Where a draw stands (docs/rules/games.md#3-a-draws-life). */
const stateOf = (d: Pick<q.GameDrawRow, 'drawn' | 'is_result_published' | 'end_date'>, now: number): z.input<typeof GameDraw>['state'] =>
  d.drawn ? (d.is_result_published ? 'drawn' : 'results_withdrawn') : now < Date.parse(d.end_date) ? 'on_sale' : 'closed';

/** What every view of a game's draw says of it: which draw, when, where it stands, what sold and its jackpot. */
const drawBase = (
  d: Pick<q.GameDrawRow, 'lottery_id' | 'draw_at' | 'end_date' | 'drawn' | 'is_result_published' | 'tickets_sold' | 'jackpot'>,
  now: number,
) => ({
  lottery_id: d.lottery_id,
  draw_at: d.draw_at,
  end_date: d.end_date,
  state: stateOf(d, now),
  tickets_sold: d.tickets_sold,
  jackpot: d.jackpot,
});

const drawJson = (d: q.GameDrawRow, now: number): z.input<typeof GameDraw> => ({
  ...drawBase(d, now),
  rollover_in: d.rollover_in,
  rollover_out: d.rollover_out,
  numbers: d.numbers === null ? null : numbersOf(d.numbers),
  prizes_total: d.prizes_total,
});

/** A game's stored values from a body's (the weekdays as their mask, the time as minutes). */
function valuesOf(b: Partial<z.output<typeof GameBody>>): Partial<q.GameValues> {
  const { draw_days, draw_time, ...rest } = b;
  const out: Partial<q.GameValues> = Object.fromEntries(Object.entries(rest).filter(([, x]) => x !== undefined));
  if (draw_days !== undefined) out.draw_days = daysMask(draw_days);
  if (draw_time !== undefined) out.draw_minute = draw_time;
  return out;
}

const DAY_MS = 24 * 3600 * 1000;
/** The Dhaka day `YYYY-MM-DD` `n` days after `day`. */
const dayPlus = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * A draw's sales day by day (shared/games/schemas.ts DrawStats `days`): every Dhaka day from its first on sale (or its
 * first sale, were it earlier) to today or its close (or its last sale, were it later), days without a sale at 0, the
 * jackpot at the end of each computed as the draw's is (jackpotAmount: its share of the paid sales up to that day, plus
 * what rolled in); the last STATS_DAYS_MAX days, the tickets of the days before counted in `tickets_before`.
 */
export function salesByDay(
  d: Pick<q.StatsDrawRow, 'start_date' | 'end_date' | 'jackpot_share' | 'rollover_in'>,
  sold: readonly Pick<q.SalesDayRow, 'day' | 'tickets' | 'paid'>[],
  now: number,
): Pick<z.input<typeof DrawStats>, 'days' | 'tickets_before'> {
  const until = Math.min(now, Date.parse(d.end_date));
  const opened = dhakaDateInputValue(d.start_date) ?? '';
  const closed = dhakaDateInputValue(new Date(until)) ?? opened;
  const first = [opened, sold[0]?.day ?? opened].sort()[0] as string;
  const last = [closed, first, sold.at(-1)?.day ?? closed].sort().at(-1) as string;
  const count = Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / DAY_MS) + 1;
  const skipped = Math.max(0, count - STATS_DAYS_MAX);
  const byDay = new Map(sold.map((s) => [s.day, s]));
  const days: z.input<typeof DrawStats>['days'] = [];
  let paid = 0;
  let before = 0;
  for (let i = 0; i < count; i++) {
    const day = dayPlus(first, i);
    const s = byDay.get(day);
    paid += s?.paid ?? 0;
    if (i < skipped) before += s?.tickets ?? 0;
    else days.push({ date: day, tickets: s?.tickets ?? 0, jackpot: jackpotAmount(paid, d.jackpot_share, d.rollover_in) });
  }
  return { days, tickets_before: before };
}

/**
 * A game's draw's name in a language: the game's name and the draw's Dhaka date (`Bhagya Lotto · 5 Dec 2026`), the
 * date's spaces unbreakable, so that a card's name never splits the date across lines (docs/rules/money-and-time.md).
 */
export const drawName = (game: string, drawAt: Date, lng: 'en' | 'bn'): string =>
  `${game} · ${(formatDate(drawAt, lng) ?? '').replace(/ /g, '\u00a0')}`;

/**
 * Puts the game's next draws on sale (docs/rules/games.md#2-the-calendar), in the caller's transaction and under the
 * game's lock (`g` read with it): each of its next `draws_ahead` draws whose sales are still open that is not made
 * yet becomes a published numbers lottery with the game's settings of now, its draw announced (commitment and beacon
 * round), the players who asked told, audited `lottery.create` by `actorId` (null: the calendar job). The first one
 * made takes the jackpot waiting in the game. A paused game makes none. Answers the lotteries made.
 */
export async function keepOnSale(tx: Db, keys: Keyring, g: q.GameRow, actorId: number | null, now = Date.now()): Promise<number[]> {
  if (!g.active) return [];
  const wanted = nextDraws(g, now, g.draws_ahead);
  if (!wanted.length) return [];
  const made = new Set(await q.drawsFrom(tx, g.id, wanted[0] as Date));
  const ids: number[] = [];
  let carry = g.carry;
  for (const drawAt of wanted) {
    if (made.has(drawAt.getTime())) continue;
    const end = salesCloseOf(drawAt, g.close_minutes);
    const id = await q.insertDraw(tx, {
      game_id: g.id,
      draw_at: drawAt,
      start_date: new Date(Math.min(now, end.getTime() - 1000)),
      end_date: end,
      name: drawName(g.name, drawAt, 'en'),
      name_bn: g.name_bn ? drawName(g.name_bn, drawAt, 'bn') : '',
      description: g.description,
      description_bn: g.description_bn,
      ticket_price: g.ticket_price,
      total_tickets: g.tickets_per_draw,
      jackpot_share: g.jackpot_share,
      tier2_prize: g.tier2_prize,
      tier3_prize: g.tier3_prize,
      tier4_prize: g.tier4_prize,
      tier5_prize: g.tier5_prize,
      lucky_count: g.lucky_count,
      lucky_prize: g.lucky_prize,
      rollover_in: carry,
    });
    if (id === undefined) continue;
    await announceDraw(tx, keys, id, end, now);
    await tellNewLottery(tx, id);
    await recordAudit(tx, {
      actorId,
      action: 'lottery.create',
      entity: 'lottery',
      entityId: String(id),
      before: null,
      after: { game_id: g.id, draw_at: drawAt.toISOString(), end_date: end.toISOString(), rollover_in: carry },
    });
    if (carry > 0) {
      await q.setCarry(tx, g.id, 0);
      carry = 0;
    }
    ids.push(id);
  }
  return ids;
}

/**
 * Staff define games (docs/rules/games.md#1-the-game): list, read, create, change, pause; every change audited in the
 * transaction that makes it, under the game's lock. Creating an active game, or a change that leaves it active, puts
 * its next draws on sale at once, as the calendar job would on its next run.
 */
export class GameAdmin {
  private readonly db: Db;
  private readonly keys: Keyring;
  constructor(
    db: Db,
    /** The keys its draws' seeds are sealed with (server/crypto/sealed.ts). */
    keys: Keyring,
  ) {
    this.db = db;
    this.keys = keys;
  }

  async list(query: z.output<typeof GamesQuery>): Promise<{ items: z.input<typeof Game>[]; total: number }> {
    const { rows, total } = await q.games(this.db, query.limit, query.offset);
    return { items: rows.map(gameJson), total };
  }

  async one(id: number): Promise<z.input<typeof GameDetail>> {
    const g = await q.game(this.db, id);
    if (!g) refuse('game_not_found');
    const now = Date.now();
    return { ...gameJson(g), draws: (await q.gameDraws(this.db, id, DRAWN_LISTED)).map((d) => drawJson(d, now)) };
  }

  /**
   * `GET /api/v1/games/{id}/stats/`: the figures of the game's charts (docs/rules/games.md#7-charts), in four statements
   * whatever the number of draws: the draws, their sales per Dhaka day, and what their prizes owe.
   */
  async stats(id: number): Promise<z.input<typeof GameStats>> {
    const g = await q.game(this.db, id);
    if (!g) refuse('game_not_found');
    const now = Date.now();
    const draws = await q.statsDraws(this.db, id, STATS_DRAWN);
    const ids = draws.map((d) => d.lottery_id);
    const drawnIds = draws.filter((d) => d.drawn).map((d) => d.lottery_id);
    const [sold, owed] = await Promise.all([q.salesDays(this.db, ids), q.owedToWinners(this.db, drawnIds)]);
    const soldOf = new Map<number, q.SalesDayRow[]>();
    for (const s of sold) {
      const list = soldOf.get(s.lottery_id);
      if (list) list.push(s);
      else soldOf.set(s.lottery_id, [s]);
    }
    const owedOf = new Map(owed.map((o) => [o.lottery_id, o]));
    return {
      game_id: id,
      draws: draws.map((d) => {
        const o = owedOf.get(d.lottery_id);
        return {
          ...drawBase(d, now),
          ...salesByDay(d, soldOf.get(d.lottery_id) ?? [], now),
          owed: d.drawn
            ? { paid_out: o?.paid_out ?? 0, claimed: o?.claimed ?? 0, unclaimed: o?.unclaimed ?? 0, withheld: o?.withheld ?? 0 }
            : null,
        };
      }),
    };
  }

  async create(staff: AccessClaims, body: z.output<typeof GameBody>): Promise<z.input<typeof GameDetail>> {
    const id = await this.db.tx(async (tx) => {
      const values = { ...valuesOf(body), starts_at: body.starts_at ?? new Date().toISOString() } as q.GameValues;
      const id = await q.insertGame(tx, values);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'game.create',
        entity: 'game',
        entityId: String(id),
        before: null,
        after: body,
      });
      const g = await q.gameForUpdate(tx, id);
      if (g) await keepOnSale(tx, this.keys, g, staff.user_id);
      return id;
    });
    return this.one(id);
  }

  /** A change of some fields, for the draws put on sale after it. The same values again change nothing. */
  async update(staff: AccessClaims, id: number, patch: z.output<typeof GamePatch>): Promise<z.input<typeof GameDetail>> {
    await this.db.tx(async (tx) => {
      const cur = await q.gameForUpdate(tx, id);
      if (!cur) refuse('game_not_found');
      const after: q.GameValues = { ...cur, ...valuesOf(patch) };
      if ((after.lucky_count === 0) !== (after.lucky_prize === 0)) refuse('lucky_both');
      const before: Record<string, unknown> = {};
      const changed: Record<string, unknown> = {};
      for (const k of q.GAME_SETTABLE) {
        const same = k === 'starts_at' ? Date.parse(cur[k]) === Date.parse(after[k]) : cur[k] === after[k];
        if (!same) {
          before[k] = cur[k];
          changed[k] = after[k];
        }
      }
      if (!Object.keys(changed).length) return;
      await q.updateGame(tx, id, after);
      await recordAudit(tx, {
        actorId: staff.user_id,
        action: 'game.update',
        entity: 'game',
        entityId: String(id),
        before,
        after: changed,
      });
      await keepOnSale(tx, this.keys, { ...cur, ...after }, staff.user_id);
    });
    return this.one(id);
  }
}
