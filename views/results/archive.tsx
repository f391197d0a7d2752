import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText, fieldErrors } from '../../shared/api-types.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { ALGORITHM } from '../../shared/draws/proof.ts';
import type { Tier } from '../../shared/draws/tiers.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { RESULTS_OFFSET_MAX, type ArchivedResult, type NumberFrequency } from '../../shared/results/schemas.ts';
import { LAST_MAX, MAIN_MAX } from '../../shared/ticket.ts';
import { BarChart, type Point } from '../components/charts.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { apiOf, localeOf } from '../context.ts';
import { useTranslation, WithTexts, type TFunction } from '../i18n.tsx';
import { TicketBalls } from '../lotteries/balls.tsx';
import { DrawStanding } from '../lotteries/lottery-card.tsx';
import { Pager } from '../lotteries/pager.tsx';
import { pageCount, parsePage } from '../lotteries/paging.ts';

/** Drawn lotteries a page (docs/rules/lotteries-and-sales.md#10-results-for-players). */
export const PER_PAGE = 10;
const SEARCH_MAX = 100;

type Result = z.output<typeof ArchivedResult>;
type Frequency = z.output<typeof NumberFrequency>;

/** The archive's address for a search and a page (page 1 and empty fields left out). */
export const archiveHref = (search: string, date: string, page = 1): string =>
  withQuery(paths.resultsArchive, { search, date, page: page > 1 ? String(page) : null });

/**
 * /results: every drawn lottery whose results are published, newest draw first, 10 a page, searched by name and by
 * the Dhaka day of its draw (`GET /api/v1/results/`); a plain GET form, so it works without JavaScript. A search the
 * API refuses (a bad date) shows its message under the field. Below the list, how often each number was drawn in each
 * active game's draws (`GET /api/v1/results/frequency/`, docs/rules/games.md#7-charts); left out when it cannot be read.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const q = new URL(request.url).searchParams;
  const page = parsePage(q.get('page'));
  const search = (q.get('search') ?? '').trim().slice(0, SEARCH_MAX);
  const date = (q.get('date') ?? '').trim().slice(0, 20);
  const offset = (page - 1) * PER_PAGE;
  const [texts, r, f] = await Promise.all([
    localeOf(context).namespace('results'),
    offset > RESULTS_OFFSET_MAX
      ? Promise.resolve({ ok: true as const, status: 200, data: [] as Result[], total: null })
      : apiOf(context).call(contract.resultsArchive, { query: { limit: PER_PAGE, offset, search, date } }),
    apiOf(context).call(contract.numberFrequency, {}),
  ]);
  const base = { texts, page, search, date, now: Date.now(), frequency: f.ok ? f.data : ([] as Frequency[]) };
  if (r.ok) return { ...base, items: r.data, total: r.total ?? r.data.length, error: null, fields: {} as Record<string, string> };
  const fields = r.status === 400 ? fieldErrors(r.error) : {};
  return { ...base, items: null, total: 0, error: Object.keys(fields).length ? null : errorText(r.error, '') || '', fields };
}

export function Component() {
  const { texts } = useLoaderData<typeof loader>();
  return (
    <WithTexts ns="results" texts={texts}>
      <ArchivePage />
    </WithTexts>
  );
}

function ArchivePage() {
  const d = useLoaderData<typeof loader>();
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('results');
  const searched = d.search !== '' || d.date !== '';
  const pages = pageCount(d.total, PER_PAGE);
  return (
    <>
      <Head title={t('common:title', { page: t('archive.meta.title') })} description={t('archive.meta.description')} />
      <PageHead title={t('archive.title')} lead={t('archive.lead')} box="container" />
      <div className="container archive">
        <form method="get" action={paths.resultsArchive} role="search" className="archive__search">
          <div className={`field${d.fields.search ? ' has-error' : ''}`}>
            <label htmlFor="archive-search">{t('archive.searchLabel')}</label>
            <input
              id="archive-search"
              type="search"
              name="search"
              defaultValue={d.search}
              maxLength={SEARCH_MAX}
              placeholder={t('archive.searchPlaceholder')}
              autoComplete="off"
              enterKeyHint="search"
              aria-invalid={d.fields.search ? true : undefined}
              aria-describedby={d.fields.search ? 'archive-search-error' : undefined}
            />
            {d.fields.search ? (
              <p id="archive-search-error" className="field__error">
                {d.fields.search}
              </p>
            ) : null}
          </div>
          <div className={`field${d.fields.date ? ' has-error' : ''}`}>
            <label htmlFor="archive-date">{t('archive.dateLabel')}</label>
            <input
              id="archive-date"
              type="date"
              name="date"
              defaultValue={d.date}
              aria-invalid={d.fields.date ? true : undefined}
              aria-describedby={d.fields.date ? 'archive-date-error archive-date-hint' : 'archive-date-hint'}
            />
            <p id="archive-date-hint" className="field__hint">
              {t('archive.dateHint')}
            </p>
            {d.fields.date ? (
              <p id="archive-date-error" className="field__error">
                {d.fields.date}
              </p>
            ) : null}
          </div>
          <div className="archive__actions">
            <button type="submit" className="btn btn-primary">
              {t('archive.submit')}
            </button>
            {searched ? (
              <Link className="btn btn-ghost" to={paths.resultsArchive}>
                {t('archive.clear')}
              </Link>
            ) : null}
          </div>
        </form>

        <CheckForm t={t} lng={lng} />

        <section aria-labelledby="archive-list-title" className="archive__results">
          <h2 id="archive-list-title" className="visually-hidden">
            {t('archive.listLabel')}
          </h2>
          {d.items && d.total > 0 ? (
            <p className="muted archive__count" role="status">
              {t('archive.count', { count: d.total, n: formatNumber(d.total, lng) })}
            </p>
          ) : null}
          {d.error !== null ? (
            <div className="alert alert--error" role="alert">
              {t('common:errors.error', { message: d.error || t('archive.loadFailed') })}
            </div>
          ) : !d.items ? null : d.items.length === 0 ? (
            <div className="empty-state empty-state--card">
              <p>{d.total > 0 ? t('archive.pageEmpty') : searched ? t('archive.noMatch') : t('archive.empty')}</p>
              {d.total > 0 ? (
                <Link className="btn btn-primary" to={archiveHref(d.search, d.date)}>
                  {t('archive.firstPage')}
                </Link>
              ) : searched ? (
                <Link className="btn btn-ghost" to={paths.resultsArchive}>
                  {t('archive.clear')}
                </Link>
              ) : null}
            </div>
          ) : (
            <ul className="results-grid archive__list">
              {d.items.map((r) => (
                <li key={r.lottery.id}>
                  <ArchiveCard r={r} t={t} lng={lng} />
                </li>
              ))}
            </ul>
          )}
          {d.items ? (
            <Pager page={d.page} pages={pages} href={(p) => archiveHref(d.search, d.date, p)} texts="results:archive" lng={lng} />
          ) : null}
        </section>

        {d.frequency.length ? <Frequencies games={d.frequency} t={t} lng={lng} /> : null}
      </div>
    </>
  );
}

/** "Check my numbers": a plain GET form to /results/check. */
function CheckForm({ t, lng }: { t: TFunction; lng: Language }) {
  return (
    <section className="archive__check" aria-labelledby="archive-check-title">
      <h2 id="archive-check-title">{t('archive.checkTitle')}</h2>
      <p>{t('archive.checkLead')}</p>
      <form method="get" action={paths.checkNumbers} className="check-form">
        <div className="field">
          <label htmlFor="archive-ticket">{t('checkNumbers.ticketLabel')}</label>
          <input
            id="archive-ticket"
            name="ticket"
            inputMode="numeric"
            autoComplete="off"
            maxLength={40}
            placeholder={toDigits('05-12-23-34-45-07', lng)}
            aria-describedby="archive-ticket-hint"
          />
          <p id="archive-ticket-hint" className="field__hint">
            {t('checkNumbers.ticketHint')}
          </p>
        </div>
        <button type="submit" className="btn btn-accent">
          {t('checkNumbers.submit')}
        </button>
      </form>
    </section>
  );
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** Drawn numbers `[m1, …, m5, last]` written as a ticket, for the balls. */
export const numbersTicket = (numbers: number[]): string => numbers.map(pad2).join('-');

/** One drawn lottery: its name and draw time, its numbers and tiers or its winning tickets, and its proof. */
export function ArchiveCard({ r, t, lng }: { r: Result; t: TFunction; lng: Language }) {
  const invalid = t('common:errors.invalidDate');
  return (
    <article className="result-card archive-card" aria-labelledby={`archive-${r.lottery.id}`}>
      <div className="result-card__head">
        <h3 id={`archive-${r.lottery.id}`} className="result-card__name">
          {lotteryName(r.lottery, lng)}
        </h3>
        <p className="result-card__date">
          {withElements((v) => t('archive.drawnAt', v), {
            date: <DateTime value={r.lottery.drawn_at} lng={lng} withTime invalid={invalid} />,
          })}
        </p>
        <p className="archive-card__prize">
          {withElements((v) => t(r.lottery.kind === 'numbers' ? 'archive.jackpot' : 'archive.totalPrize', v), {
            amount: <Amount value={r.lottery.total_prize} lng={lng} />,
          })}
          {/* docs/rules/lotteries-and-sales.md#9-the-draw: the total stays the draw's; what of it was withheld, said beside. */}
          {r.withheld > 0
            ? withElements((v) => ` ${t('archive.ofWhichWithheld', v)}`, { amount: <Amount value={r.withheld} lng={lng} /> })
            : null}
        </p>
      </div>
      {r.numbers && r.tiers ? (
        <>
          <div className="result-card__numbers">
            <p className="result-card__label">{t('archive.numbers')}</p>
            <TicketBalls ticket={numbersTicket(r.numbers)} lng={lng} label={t('archive.numbers')} size="sm" />
          </div>
          <ul className="tier-list" aria-label={t('archive.byTier')}>
            {r.tiers.map((x) => (
              <li key={x.tier} className={x.winners ? '' : 'is-none'}>
                <span className="tier-list__name">{t(`lottery:tiers.name.${x.tier as Tier}`)}</span>
                <span className="tier-list__won">
                  {withElements(
                    (v) =>
                      x.winners
                        ? t('archive.tierWon', { ...v, count: x.winners, n: formatNumber(x.winners, lng) })
                        : t('archive.tierNone', v),
                    { amount: <Amount value={x.prize} lng={lng} /> },
                  )}
                </span>
              </li>
            ))}
          </ul>
          {r.rollover ? (
            <p className="result-card__rollover">
              {withElements((v) => t('archive.rollover', v), { amount: <Amount value={r.rollover.amount} lng={lng} /> })}
            </p>
          ) : null}
          {r.lucky?.codes.length ? (
            // A game's draw's Lucky Chance codes (docs/rules/draws.md#7a-lucky-chance), in the order drawn.
            <div className="result-card__lucky">
              <p className="result-card__label">
                {withElements((v) => t('archive.lucky', v), { amount: <Amount value={r.lucky.prize} lng={lng} /> })}
              </p>
              <ul aria-label={t('archive.luckyLabel')}>
                {r.lucky.codes.map((code) => (
                  <li key={code} className="nowrap">
                    {code}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : r.winners?.length ? (
        <ul className="result-card__tickets" aria-label={t('archive.winners')}>
          {r.winners.map((w) => (
            <li key={w.ticket}>
              <TicketBalls ticket={w.ticket} lng={lng} label={t('archive.ticket')} size="sm" />
              <span className="result-card__money">
                <Amount value={w.prize_money} lng={lng} />
              </span>
              {w.withheld_reason ? (
                <span className="result-card__withheld">{t('archive.withheld', { reason: w.withheld_reason })}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('archive.noWinner')}</p>
      )}
      <p className="result-card__proof">
        {r.algorithm === ALGORITHM ? (
          <Link to={paths.results(r.lottery.id)}>{t('archive.proof')}</Link>
        ) : (
          <span className="muted">{t('archive.unverifiable')}</span>
        )}
      </p>
      <DrawStanding draw={r} className="result-card__proof" />
    </article>
  );
}

/** The numbers `1…max` as a chart's points, each with the times it was drawn. */
const numberPoints = (counts: readonly number[], lng: Language): Point[] =>
  counts.map((times, i) => ({ key: i + 1, label: formatNumber(i + 1, lng), name: formatNumber(i + 1, lng), values: [times] }));

/** Which numbers were drawn most often, and how often: `7, 12, 23` and 3 (none when nothing was drawn). */
function drawnMost(counts: readonly number[], lng: Language): { most: string; times: number } {
  const times = Math.max(0, ...counts);
  const most = counts.flatMap((c, i) => (c === times && times > 0 ? [formatNumber(i + 1, lng)] : []));
  return { most: most.join(', '), times };
}

/**
 * How often each number was drawn (docs/rules/games.md#7-charts): for each active game with a drawn draw, a chart of the
 * main numbers 1–55 (in four rows on a phone) and one of the last numbers 1–15, each with its figures in a table.
 */
function Frequencies({ games, t, lng }: { games: Frequency[]; t: TFunction; lng: Language }) {
  const invalid = t('common:errors.invalidDate');
  return (
    <section className="archive__frequency" aria-labelledby="frequency-title">
      <h2 id="frequency-title">{t('frequency.title')}</h2>
      <p className="muted">{t('frequency.lead')}</p>
      {games.map((f) => {
        const game = lotteryName(f.game, lng);
        const main = drawnMost(f.main, lng);
        const last = drawnMost(f.last, lng);
        const range = (to: number) => ({ from: formatNumber(1, lng), to: formatNumber(to, lng) });
        const chart = (which: 'main' | 'last') => ({
          title: t(`frequency.${which}Title`, range(which === 'main' ? MAIN_MAX : LAST_MAX)),
          head: t('frequency.number'),
          series: [{ name: t('frequency.times'), tone: which === 'main' ? ('green' as const) : ('gold' as const) }],
          format: (n: number) => formatNumber(n, lng),
          figures: t('frequency.figures'),
        });
        return (
          <div key={f.game.id} className="frequency" aria-labelledby={`frequency-${f.game.id}`} role="group">
            <h3 id={`frequency-${f.game.id}`}>{t('frequency.gameTitle', { game, count: f.draws, n: formatNumber(f.draws, lng) })}</h3>
            {f.last_drawn_at ? (
              <p className="muted">
                {withElements((v) => t('frequency.upTo', v), {
                  date: <DateTime value={f.last_drawn_at} lng={lng} invalid={invalid} />,
                })}
              </p>
            ) : null}
            <h4 className="frequency__title">{chart('main').title}</h4>
            <BarChart
              id={`frequency-${f.game.id}-main`}
              {...chart('main')}
              desc={t('frequency.most', { count: main.times, times: formatNumber(main.times, lng), most: main.most })}
              points={numberPoints(f.main, lng)}
              tick={(i, n) => i === 0 || (i + 1) % 5 === 0 || i === n - 1}
              narrowRows={4}
            />
            <h4 className="frequency__title">{chart('last').title}</h4>
            <BarChart
              id={`frequency-${f.game.id}-last`}
              {...chart('last')}
              desc={t('frequency.most', { count: last.times, times: formatNumber(last.times, lng), most: last.most })}
              points={numberPoints(f.last, lng)}
              tick={() => true}
            />
          </div>
        );
      })}
    </section>
  );
}
