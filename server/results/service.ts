/**
 * The results archive and "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players): every drawn
 * lottery whose results are published, paged and searched, each with its winning tickets or its prizes by tier; and
 * every past draw a ticket won, or would have won had it been sold.
 */
import type { z } from 'zod';
import { ALGORITHM } from '../../shared/draws/proof.ts';
import { matchOf, numbersOf, tierOf, TIERS, type Tier } from '../../shared/draws/tiers.ts';
import {
  CHECK_NUMBERS_DRAWS,
  type ArchivedResult,
  type CheckHit,
  type CheckNumbersReply,
  type Checked,
  type NumberFrequency,
} from '../../shared/results/schemas.ts';
import { refuse } from '../../shared/api/refusals.ts';
import { LAST_MAX, MAIN_MAX } from '../../shared/ticket.ts';
import type { Db } from '../db/index.ts';
import { luckyCode } from '../draws/verifiable.ts';
import * as q from './queries.ts';

type Result = z.input<typeof ArchivedResult>;
type Hit = z.input<typeof CheckHit>;

/** What each ticket of a tier is paid by a lottery's settings: tiers 2–5 their fixed prize, the jackpot its whole amount. */
function tierAmount(
  l: Pick<q.ArchiveRow, 'tier2_prize' | 'tier3_prize' | 'tier4_prize' | 'tier5_prize'>,
  tier: Tier,
  jackpot: number | null,
): number {
  const fixed = [null, jackpot, l.tier2_prize, l.tier3_prize, l.tier4_prize, l.tier5_prize][tier];
  return fixed ?? 0;
}

/**
 * The tiers of a numbers draw as the archive shows them: each tier with the prizes it paid (a tier paying 0 pays none)
 * and what each paid; a jackpot nobody won shows the jackpot itself (it rolled over).
 */
export function tierSummary(
  l: Pick<q.ArchiveRow, 'tier2_prize' | 'tier3_prize' | 'tier4_prize' | 'tier5_prize' | 'jackpot'>,
  counts: { tier: number; winners: number; each: number }[],
): { tier: Tier; winners: number; prize: number }[] {
  return TIERS.map((tier) => {
    const c = counts.find((x) => x.tier === tier);
    return { tier, winners: c?.winners ?? 0, prize: c ? c.each : tierAmount(l, tier, l.jackpot) };
  });
}

export class Results {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** `GET /api/v1/results/`: three statements a page, whatever its lotteries (docs/rules/lotteries-and-sales.md#10-results-for-players). */
  async archive(f: q.ArchiveFilter, limit: number, offset: number): Promise<{ items: Result[]; total: number }> {
    const { rows, total } = await q.archivePage(this.db, f, limit, offset);
    const numbersIds = rows.filter((r) => r.kind === 'numbers').map((r) => r.id);
    const ticketsIds = rows.filter((r) => r.kind === 'tickets').map((r) => r.id);
    const [counts, winners, withheld] = await Promise.all([
      q.tierCounts(this.db, numbersIds),
      q.winningTickets(this.db, ticketsIds),
      q.withheldTotals(
        this.db,
        rows.map((r) => r.id),
      ),
    ]);
    const items = rows.map((r): Result => {
      const numbers = r.kind === 'numbers' ? numbersOf(r.numbers) : null;
      return {
        lottery: {
          id: r.id,
          name: r.name,
          name_bn: r.name_bn,
          kind: r.kind,
          drawn_at: r.drawn_at,
          total_prize: r.jackpot ?? r.total_prize,
        },
        numbers,
        tiers:
          r.kind === 'numbers'
            ? tierSummary(
                r,
                counts.filter((c) => c.lottery_id === r.id),
              )
            : null,
        winners:
          r.kind === 'tickets'
            ? winners
                .filter((w) => w.lottery_id === r.id)
                .map(({ ticket, prize_money, withheld_reason }) => ({ ticket, prize_money, withheld_reason }))
            : null,
        lucky:
          r.lucky !== null && r.commitment !== null && r.lucky_prize > 0
            ? { prize: r.lucky_prize, codes: (r.lucky === '' ? [] : r.lucky.split('\n')).map((x) => luckyCode(r.commitment as string, x)) }
            : null,
        withheld: withheld.find((w) => w.lottery_id === r.id)?.amount ?? 0,
        rollover: r.kind === 'numbers' && r.rollover_out && r.rollover_to !== null ? { amount: r.rollover_out, to: r.rollover_to } : null,
        algorithm: r.verifiable ? ALGORITHM : 'unverifiable',
        beacon_unverified: r.beacon_unverified,
        frozen: r.frozen,
      };
    });
    return { items, total };
  }

  /**
   * `GET /api/v1/results/frequency/` (docs/rules/games.md#7-charts): per game, how many of its draws with published
   * results drew each main number and each last number. Every active game that has such a draw, or the one game asked
   * for (404 when there is none), counted here from the drawn numbers: two statements.
   */
  async frequency(gameId: number | null): Promise<z.input<typeof NumberFrequency>[]> {
    const games = await q.frequencyGames(this.db, gameId);
    if (gameId !== null && !games.length) refuse('game_not_found');
    const drawn = await q.gameDrawnNumbers(
      this.db,
      games.map((g) => g.id),
    );
    return games
      .map((g) => {
        const main = Array<number>(MAIN_MAX).fill(0);
        const last = Array<number>(LAST_MAX).fill(0);
        let draws = 0;
        let latest: string | null = null;
        for (const d of drawn) {
          const numbers = d.game_id === g.id ? numbersOf(d.numbers) : null;
          if (!numbers) continue;
          draws += 1;
          for (const n of numbers.slice(0, 5)) main[n - 1] = (main[n - 1] ?? 0) + 1;
          last[(numbers[5] as number) - 1] = (last[(numbers[5] as number) - 1] ?? 0) + 1;
          if (latest === null || Date.parse(d.drawn_at) > Date.parse(latest)) latest = d.drawn_at;
        }
        return { game: g, draws, last_drawn_at: latest, main, last };
      })
      .filter((f) => gameId !== null || f.draws > 0);
  }

  /**
   * `GET /api/v1/check-numbers/`: the winning-tickets draws whose winners include the ticket, and the latest
   * CHECK_NUMBERS_DRAWS numbers draws in which it reaches a tier (matched here with `tierOf`, the rule the draw paid
   * with), newest first; each says whether the ticket was sold there and what it paid or would have paid.
   */
  async check(checked: Checked): Promise<z.input<typeof CheckNumbersReply>> {
    if (checked.code !== null) return this.checkCode(checked.code);
    const ticket = checked.ticket;
    const [prizes, draws] = await Promise.all([q.ticketPrizes(this.db, ticket), q.numbersDraws(this.db, CHECK_NUMBERS_DRAWS)]);
    const reached = draws.flatMap((d) => {
      const numbers = numbersOf(d.numbers);
      const tier = numbers ? tierOf(ticket, numbers) : null;
      return numbers && tier !== null ? [{ d, numbers, tier }] : [];
    });
    const details = await q.numbersHitDetails(
      this.db,
      ticket,
      reached.map((r) => r.d.id),
    );
    const lotteryOf = ({ id, name, name_bn, kind, drawn_at }: q.HitLottery) => ({ id, name, name_bn, kind, drawn_at });
    const hits: Hit[] = [
      ...prizes.map((p) => ({
        lottery: lotteryOf(p),
        tier: null,
        prize: p.prize_money,
        sold: true,
        withheld_reason: p.withheld_reason,
        numbers: null,
        matched: null,
        lucky_code: null,
      })),
      ...reached.map(({ d, numbers, tier }): Hit => {
        const x = details.find((e) => e.id === d.id);
        // Unsold, the jackpot's combination won nobody the jackpot (a combination is sold once): it all rolled over.
        const would = x ? tierAmount(x, tier, x.rollover_out) : 0;
        return {
          lottery: lotteryOf(d),
          tier,
          prize: x?.sold && x.prize_money !== null ? x.prize_money : would,
          sold: x?.sold ?? false,
          withheld_reason: x?.withheld_reason ?? null,
          numbers,
          matched: matchOf(ticket, numbers),
          lucky_code: null,
        };
      }),
    ].sort((a, b) => Date.parse(b.lottery.drawn_at) - Date.parse(a.lottery.drawn_at) || b.lottery.id - a.lottery.id);
    return { ticket, code: null, hits, numbers_draws_checked: draws.length, numbers_draws_limit: CHECK_NUMBERS_DRAWS };
  }

  /** A Lucky Chance code: the game draws that drew it, newest first, each with what it paid (docs/rules/games.md#5-lucky-chance). */
  private async checkCode(code: string): Promise<z.input<typeof CheckNumbersReply>> {
    const rows = await q.codePrizes(this.db, code);
    const hits: Hit[] = rows.map((r) => ({
      lottery: { id: r.id, name: r.name, name_bn: r.name_bn, kind: r.kind, drawn_at: r.drawn_at },
      tier: null,
      prize: r.lucky_prize,
      sold: true,
      withheld_reason: r.withheld_reason,
      numbers: numbersOf(r.numbers),
      matched: null,
      lucky_code: code,
    }));
    return { ticket: null, code, hits, numbers_draws_checked: 0, numbers_draws_limit: CHECK_NUMBERS_DRAWS };
  }
}
