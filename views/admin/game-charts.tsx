/**
 * The charts of a game's page for staff (docs/rules/games.md#7-charts): a draw's tickets sold per Dhaka day and its
 * jackpot as it grows, the draw chosen by `?draw=` (a plain GET form, no JavaScript), and what the last drawn draws
 * owe their winners; the figures of `GET /api/v1/games/{id}/stats/`.
 */
import type { z } from 'zod';
import { formatDate, formatNumber } from '../../shared/dates.ts';
import type { DrawStats, GameStats } from '../../shared/games/schemas.ts';
import type { Language } from '../../shared/i18n.ts';
import { formatTaka } from '../../shared/money.ts';
import { adminPaths } from '../../shared/paths.ts';
import { BarChart, StepChart, type Point } from '../components/charts.tsx';
import { Alert } from '../components/form.tsx';
import type { TFunction } from '../i18n.tsx';

type Stats = z.output<typeof GameStats>;
type Draw = z.output<typeof DrawStats>;

/** A date's day and month without its year, for a label under an axis: `5 Dec`, `৫ ডিসেম্বর`. */
export function dayMonth(iso: string, lng: Language): string {
  const full = formatDate(iso, lng) ?? '';
  return full.replace(/\s+\S+$/, '');
}

/**
 * The draw whose sales are charted: the one `?draw=` names among the game's charted draws, else the next draw on sale
 * (the earliest), else the latest closed, else the latest drawn; null when the game has none.
 */
export function chartedDraw(stats: Stats, wanted: number | null): Draw | null {
  const named = stats.draws.find((d) => d.lottery_id === wanted);
  if (named) return named;
  const onSale = stats.draws.filter((d) => d.state === 'on_sale');
  return onSale.at(-1) ?? stats.draws.find((d) => d.state === 'closed') ?? stats.draws[0] ?? null;
}

/** The draws in runs of the same state, in their order (the latest first): the choice's groups. */
function groups(draws: readonly Draw[]): { state: Draw['state']; draws: Draw[] }[] {
  const out: { state: Draw['state']; draws: Draw[] }[] = [];
  for (const d of draws) {
    const last = out.at(-1);
    if (last?.state === d.state) last.draws.push(d);
    else out.push({ state: d.state, draws: [d] });
  }
  return out;
}

export function GameCharts({
  gameId,
  stats,
  wanted,
  lng,
  t,
}: {
  gameId: number;
  /** null: the figures could not be read. */
  stats: Stats | null;
  wanted: number | null;
  lng: Language;
  t: TFunction;
}) {
  return (
    <section className="draw-section game-charts" aria-labelledby="game-charts">
      <h2 id="game-charts">{t('games.charts.title')}</h2>
      <p className="muted">{t('games.charts.lead')}</p>
      {stats === null ? (
        <Alert kind="error">{t('games.charts.loadFailed')}</Alert>
      ) : (
        <Charts gameId={gameId} stats={stats} wanted={wanted} lng={lng} t={t} />
      )}
    </section>
  );
}

function Charts({ gameId, stats, wanted, lng, t }: { gameId: number; stats: Stats; wanted: number | null; lng: Language; t: TFunction }) {
  const draw = chartedDraw(stats, wanted);
  const drawn = stats.draws.filter((d) => d.owed !== null).reverse();
  const count = (n: number) => formatNumber(n, lng);
  const taka = (n: number) => formatTaka(n, lng);
  const date = (iso: string) => formatDate(iso, lng) ?? iso;
  return (
    <>
      {draw ? (
        <>
          <form method="get" action={`${adminPaths.game(gameId)}#game-charts`} className="chart-pick">
            <div className="field">
              <label htmlFor="chart-draw">{t('games.charts.pick')}</label>
              <select id="chart-draw" name="draw" defaultValue={String(draw.lottery_id)}>
                {groups(stats.draws).map((g) => (
                  <optgroup key={g.draws[0]?.lottery_id} label={t(`games.states.${g.state}`)}>
                    {g.draws.map((d) => (
                      <option key={d.lottery_id} value={d.lottery_id}>
                        {date(d.draw_at)}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-ghost">
              {t('games.charts.show')}
            </button>
          </form>
          <Sales draw={draw} lng={lng} t={t} count={count} taka={taka} date={date} />
        </>
      ) : null}

      <h3 className="chart-title">{t('games.charts.owedTitle')}</h3>
      {drawn.length ? (
        <>
          <p className="muted">{t('games.charts.owedLead', { n: count(drawn.length) })}</p>
          <Owed drawn={drawn} lng={lng} t={t} count={count} taka={taka} date={date} />
        </>
      ) : (
        <p className="empty-state empty-state--card">{t('games.charts.owedNone')}</p>
      )}
    </>
  );
}

type Formats = { lng: Language; t: TFunction; count: (n: number) => string; taka: (n: number) => string; date: (iso: string) => string };

/** The draw's tickets per day and its jackpot at the end of each day. */
function Sales({ draw, lng, t, count, taka, date }: { draw: Draw } & Formats) {
  const days = draw.days;
  const sold = days.reduce((a, d) => a + d.tickets, 0);
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last || sold + draw.tickets_before === 0)
    return (
      <>
        <h3 className="chart-title">
          {t('games.charts.salesTitle')} <span className="muted">· {date(draw.draw_at)}</span>
        </h3>
        <p className="empty-state empty-state--card">{t('games.charts.salesNone')}</p>
      </>
    );
  const point = (d: Draw['days'][number], value: number): Point => ({
    key: d.date,
    label: dayMonth(d.date, lng),
    name: date(d.date),
    values: [value],
  });
  const most = days.reduce((m, d) => (d.tickets > m.tickets ? d : m), first);
  return (
    <>
      <h3 className="chart-title">
        {t('games.charts.salesTitle')} <span className="muted">· {date(draw.draw_at)}</span>
      </h3>
      <BarChart
        id="chart-sales"
        title={t('games.charts.salesTitle')}
        desc={t('games.charts.salesDesc', {
          count: sold,
          n: count(sold),
          from: date(first.date),
          to: date(last.date),
          most: count(most.tickets),
          on: date(most.date),
        })}
        points={days.map((d) => point(d, d.tickets))}
        series={[{ name: t('games.charts.tickets'), tone: 'green' }]}
        format={count}
        head={t('games.charts.day')}
        figures={t('games.charts.figures')}
        maxLabels={4}
      />
      {draw.tickets_before > 0 ? (
        <p className="muted">
          {t('games.charts.salesBefore', { count: draw.tickets_before, n: count(draw.tickets_before), date: date(first.date) })}
        </p>
      ) : null}
      <h3 className="chart-title">{t('games.charts.jackpotTitle')}</h3>
      <StepChart
        id="chart-jackpot"
        title={t('games.charts.jackpotTitle')}
        desc={t('games.charts.jackpotDesc', {
          first: taka(first.jackpot),
          from: date(first.date),
          last: taka(last.jackpot),
          to: date(last.date),
        })}
        points={days.map((d) => point(d, d.jackpot))}
        series={{ name: t('games.charts.jackpot'), tone: 'gold' }}
        format={taka}
        head={t('games.charts.day')}
        figures={t('games.charts.figures')}
        maxLabels={4}
      />
    </>
  );
}

/** What each drawn draw owes its winners, stacked by where the money stands, the oldest draw first. */
function Owed({ drawn, lng, t, count, taka, date }: { drawn: Draw[] } & Formats) {
  const sums = { paid_out: 0, claimed: 0, unclaimed: 0, withheld: 0 };
  for (const d of drawn) for (const k of Object.keys(sums) as (keyof typeof sums)[]) sums[k] += d.owed?.[k] ?? 0;
  return (
    <BarChart
      id="chart-owed"
      title={t('games.charts.owedTitle')}
      desc={t('games.charts.owedDesc', {
        count: drawn.length,
        n: count(drawn.length),
        total: taka(sums.paid_out + sums.claimed + sums.unclaimed + sums.withheld),
        paid: taka(sums.paid_out),
        claimed: taka(sums.claimed),
        unclaimed: taka(sums.unclaimed),
        withheld: taka(sums.withheld),
      })}
      points={drawn.map((d) => ({
        key: d.lottery_id,
        label: dayMonth(d.draw_at, lng),
        name: date(d.draw_at),
        values: [d.owed?.paid_out ?? 0, d.owed?.claimed ?? 0, d.owed?.unclaimed ?? 0, d.owed?.withheld ?? 0],
      }))}
      series={[
        { name: t('games.charts.paidOut'), tone: 'green' },
        { name: t('games.charts.claimed'), tone: 'gold' },
        { name: t('games.charts.unclaimed'), tone: 'grey' },
        { name: t('games.charts.withheld'), tone: 'red' },
      ]}
      total={t('games.charts.total')}
      format={taka}
      head={t('games.charts.draw')}
      figures={t('games.charts.figures')}
      maxLabels={4}
    />
  );
}
