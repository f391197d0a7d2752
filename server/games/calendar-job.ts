import { Refusal } from '../../shared/api/refusal.ts';
import type { Db } from '../db/index.ts';
import type { Keyring } from '../crypto/sealed.ts';
import type { Draws } from '../draws/service.ts';
import type { Logger } from '../log.ts';
import { repeat, type Stop } from '../repeat.ts';
import * as q from './queries.ts';
import { keepOnSale } from './service.ts';

/** How often the calendar runs, and how soon after the start (docs/rules/games.md#3-a-draws-life). */
export const CALENDAR_EVERY_MS = 30_000;
export const CALENDAR_FIRST_MS = 4_000;
/** At most this many draws are drawn in one run; the rest wait for the next. */
export const DRAW_BATCH = 10;

/** What one run did. */
export type CalendarRun = { made: number; drawn: number; told: number };

/**
 * The games' calendar (docs/rules/games.md): every active game's next draws kept on sale, and every game's draw drawn
 * by the procedure once its time and its beacon have come, its results published and its winners told, with nobody
 * pressing anything. Every instance may run it: a draw is made once (the game's lock, and the unique instant) and
 * drawn once (the lottery's lock; the second finds it drawn).
 */
export class GameCalendar {
  private readonly db: Db;
  private readonly keys: Keyring;
  private readonly draws: Pick<Draws, 'verifiableDraw' | 'drawnForNotice' | 'sendWinners'>;
  private readonly log: Logger;
  constructor(db: Db, keys: Keyring, draws: Pick<Draws, 'verifiableDraw' | 'drawnForNotice' | 'sendWinners'>, log: Logger) {
    this.db = db;
    this.keys = keys;
    this.draws = draws;
    this.log = log;
  }

  /** Each active game's next draws put on sale, each game in a transaction of its own under its lock. */
  async keepAllOnSale(now = Date.now()): Promise<number> {
    let made = 0;
    for (const { id } of await q.activeGames(this.db)) {
      made += (
        await this.db.tx(async (tx) => {
          const g = await q.gameForUpdate(tx, Number(id));
          return g ? keepOnSale(tx, this.keys, g, null, now) : [];
        })
      ).length;
    }
    return made;
  }

  /**
   * The games' draws due drawn (Draws.verifiableDraw with no actor) and their winners told. A draw refused stays for the
   * next run: its beacon not verified yet, or drawn meanwhile by another instance or by staff (then its winners are
   * still told here, once: each prize is taken before its message is sent).
   */
  async drawDue(now = Date.now()): Promise<{ drawn: number; told: number }> {
    let drawn = 0;
    let told = 0;
    for (const { id } of await q.dueDraws(this.db, new Date(now), DRAW_BATCH)) {
      const lotteryId = Number(id);
      try {
        await this.draws.verifiableDraw(null, lotteryId);
        drawn += 1;
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        if (err.refusal !== 'draw_already_finished')
          this.log.warn({ lottery: lotteryId, refusal: err.refusal }, 'a game draw is due but could not be drawn yet');
      }
      const d = await this.draws.drawnForNotice(lotteryId);
      if (d) told += (await this.draws.sendWinners(null, d.lottery, d.drawnAt)).sent.length;
    }
    return { drawn, told };
  }

  /** One run: the draws due drawn first (their jackpots roll into draws that exist), then the calendar kept. */
  async runOnce(now = Date.now()): Promise<CalendarRun> {
    const { drawn, told } = await this.drawDue(now);
    const made = await this.keepAllOnSale(now);
    return { made, drawn, told };
  }
}

/** The calendar of this instance: shortly after the start and every 30 s, a run (GameCalendar.runOnce). */
export function scheduleCalendar(calendar: GameCalendar, log: Logger): Stop {
  const run = async () => {
    const r = await calendar.runOnce();
    if (r.made || r.drawn || r.told) log.info(r, 'game calendar: draws made, drawn and winners told');
  };
  return repeat({ run, firstMs: CALENDAR_FIRST_MS, everyMs: CALENDAR_EVERY_MS, log, failed: 'the game calendar failed' });
}
