import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText, type ApiResult, type DrawResult } from '../../shared/api-types.ts';
import type { ApiClient } from '../../shared/api-client.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { paths } from '../../shared/paths.ts';
import { Island } from '../components/island.tsx';
import { apiOf, localeOf } from '../context.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { useTranslation } from '../i18n.tsx';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { FeaturedLotteries, type FeaturedLotteriesProps } from './featured-lotteries.tsx';
import { Congratulations, type CongratulationsProps } from './congratulations.tsx';
import { HeroSlideshow } from './hero.tsx';
import { QuickPlayPanel, type QuickPlayPanelProps } from './quick-play-panel.tsx';
import { Ball, TicketBalls } from '../lotteries/balls.tsx';
import { TIERS, type Tier } from '../../shared/draws/tiers.ts';
import { DrawStanding, toCardLottery } from '../lotteries/lottery-card.tsx';
import { SectionHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { contentLink, type ContentLink } from '../content/link.ts';
import { useIsStaff } from '../lotteries/is-staff.ts';

/** Cards shown in Featured Lotteries (docs/rules/pages.md#5-home-page). */
export const FEATURED_CARDS = 3;

/** One section's data, or the message of its failed call: each section of the page degrades on its own. */
type Section<T> = { ok: true; data: T; total: number | null } | { ok: false; message: string | null };
const section = <T,>(r: ApiResult<T>): Section<T> =>
  r.ok ? { ok: true, data: r.data, total: r.total } : { ok: false, message: errorText(r.error, '') || null };

/** An answer may end with a link to a page of the site (views/content/link.ts: e.g. the results archive). */
type HomeFaq = { title: string; items: { q: string; a: string; link?: ContentLink }[] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiOf(context);
  const pickParam = new URL(request.url).searchParams.get('pick') ?? '';
  const pickId = /^\d{1,9}$/.test(pickParam) ? Number(pickParam) : null;
  const [featured, published, results, content, congrats] = await Promise.all([
    api.call(contract.featuredLotteries),
    api.call(contract.publishedLotteries, { query: { limit: FEATURED_CARDS, offset: 0 } }),
    api.call(contract.lotteryResults),
    localeOf(context)
      .namespace('content')
      .catch(() => ({}) as Record<string, unknown>),
    toCongratulate(api, localeOf(context).lng),
  ]);
  let picked = pickId !== null && published.ok ? (published.data.find((l) => l.id === pickId) ?? null) : null;
  if (pickId !== null && !picked) {
    const r = await api.call(contract.getLottery, { params: { id: String(pickId) } });
    if (r.ok) picked = r.data;
  }
  const f = section(featured);
  const p = section(published);
  return {
    now: Date.now(),
    featured: f.ok ? { ...f, data: f.data.slice(0, 1).map(toCardLottery) } : f,
    published: p.ok ? { ...p, data: p.data.slice(0, FEATURED_CARDS).map(toCardLottery) } : p,
    results: section(results),
    picked: picked ? toCardLottery(picked) : null,
    faq: (content as { homeFaq?: HomeFaq }).homeFaq ?? null,
    congrats,
  };
}

/**
 * A logged-in player's newest winning ticket that he can still claim, for the congratulations modal
 * (docs/rules/pages.md#5-home-page); null for a visitor, and when the call fails (the home page never fails for it).
 */
async function toCongratulate(api: ApiClient, lng: Language): Promise<CongratulationsProps | null> {
  const { user } = await api.session();
  if (!user) return null;
  const r = await api.call(contract.myWinningTickets, { query: { limit: 20, offset: 0 } });
  const w = r.ok ? r.data.find((x) => x.can_claim) : undefined;
  return w ? { prizeId: w.prize.id, lottery: lotteryName(w.lottery, lng), prizeMoney: w.prize.prize_money } : null;
}

function ErrorPanel({ message }: { message: string | null }) {
  const { t } = useTranslation('home');
  return (
    <div className="alert alert--error section-error" role="alert">
      {t('common:errors.error', { message: message ?? t('errors.loadFailed') })}
    </div>
  );
}

export function Component() {
  const d = useLoaderData<typeof loader>();
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  const featured = d.featured.ok ? (d.featured.data[0] ?? null) : null;
  const more = d.published.ok ? Math.max(0, (d.published.total ?? d.published.data.length) - FEATURED_CARDS) : 0;
  // Rendered on the server with the root's data; the islands hydrate with it as a prop (a visitor's shared page: false).
  const staff = useIsStaff();
  const quickPlay: QuickPlayPanelProps | null = featured ? { lottery: featured, now: d.now, staff } : null;
  const cards: FeaturedLotteriesProps | null = d.published.ok ? { lotteries: d.published.data, picked: d.picked, now: d.now, staff } : null;

  return (
    <div className="home">
      <Head title={t('meta.title')} description={t('meta.description')} />
      <h1 className="visually-hidden">{t('meta.h1')}</h1>
      {d.congrats ? (
        <Island name="congrats" props={d.congrats}>
          <Congratulations {...d.congrats} />
        </Island>
      ) : null}
      <Island name="hero" props={{}}>
        <HeroSlideshow />
      </Island>

      <section id="quick-play" className="section quick-play" aria-labelledby="quick-play-title">
        <div className="container">
          <SectionHead id="quick-play-title" title={t('quickPlay.title')} lead={t('quickPlay.subtitle')} />
          {!d.featured.ok ? (
            <ErrorPanel message={d.featured.message} />
          ) : quickPlay ? (
            <Island name="quick-play" props={quickPlay}>
              <QuickPlayPanel {...quickPlay} />
            </Island>
          ) : (
            <div className="empty-state empty-state--card">
              <p className="empty-state__title">{t('quickPlay.emptyTitle')}</p>
              <p>{t('quickPlay.emptyText')}</p>
              <Link className="btn btn-primary" to={paths.allLotteries}>
                {t('quickPlay.emptyCta')}
              </Link>
            </div>
          )}
        </div>
      </section>

      <section id="featured" className="section featured" aria-labelledby="featured-title">
        <div className="container">
          <SectionHead id="featured-title" title={t('featured.title')} lead={t('featured.subtitle')}>
            {d.published.ok && d.published.data.length ? (
              <Link className="btn btn-ghost" to={paths.allLotteries}>
                {more > 0 ? t('featured.viewMore', { count: more, n: formatNumber(more, lng) }) : t('featured.viewAll')}
              </Link>
            ) : null}
          </SectionHead>
          {cards ? (
            <Island name="featured" props={cards}>
              <FeaturedLotteries {...cards} />
            </Island>
          ) : (
            <ErrorPanel message={d.published.ok ? null : d.published.message} />
          )}
        </div>
      </section>

      <section id="results" className="section results" aria-labelledby="results-title">
        <div className="container">
          <SectionHead id="results-title" title={t('results.title')}>
            <Link className="btn btn-ghost btn-sm" to={paths.resultsArchive}>
              {t('results.all')}
            </Link>
          </SectionHead>
          <Results results={d.results} />
        </div>
      </section>

      {d.faq?.items?.length ? (
        <section className="section home-faq" aria-labelledby="home-faq-title">
          <div className="container narrow">
            <h2 id="home-faq-title">{d.faq.title}</h2>
            <div className="home-faq__list">
              {d.faq.items.map((item, i) => {
                const link = contentLink(item.link);
                return (
                  // `name` makes the accordions exclusive: opening one closes the others, natively.
                  <details key={i} name="home-faq" className="home-faq__item">
                    <summary>{item.q}</summary>
                    <p>{item.a}</p>
                    {link ? (
                      <p>
                        <Link to={link.to}>{link.text}</Link>
                      </p>
                    ) : null}
                  </details>
                );
              })}
            </div>
            <p className="home-faq__more">
              <Link to={paths.faq}>{t('faq.more')}</Link>
            </p>
          </div>
        </section>
      ) : null}
    </div>
  );
}

function Results({ results }: { results: Section<DrawResult[]> }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  if (!results.ok) return <ErrorPanel message={results.message} />;
  if (!results.data.length) return <p className="empty-state empty-state--card">{t('results.empty')}</p>;
  return (
    <ul className="results-grid">
      {results.data.map((r) => (
        <li key={r.lottery.id} className="result-card">
          <div className="result-card__head">
            <span className="badge badge--red">{t('results.drawn')}</span>
            <h3 className="result-card__name">{lotteryName(r.lottery, lng)}</h3>
            <p className="result-card__date">
              {withElements((v) => t('results.drawnOn', v), {
                date: (
                  <DateTime value={r.lottery.drawn_at ?? r.lottery.end_date} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
                ),
              })}
            </p>
          </div>
          {r.lottery.kind === 'numbers' && r.numbers ? (
            <NumbersResult result={r} numbers={r.numbers} />
          ) : r.prizes.length ? (
            <>
              <p className="result-card__label" id={`winning-${r.lottery.id}`}>
                {t('results.winningTickets')}
              </p>
              <ul className="result-card__tickets" aria-labelledby={`winning-${r.lottery.id}`}>
                {r.prizes.map((p) => (
                  <li key={p.id}>
                    <TicketBalls ticket={p.ticket} lng={lng} label={t('results.ticket')} size="sm" />
                    <span className="result-card__money">
                      <Amount value={p.prize_money} lng={lng} />
                    </span>
                    {p.withheld_reason !== null && (
                      <span className="result-card__withheld">{t('results.withheld', { reason: p.withheld_reason })}</span>
                    )}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">{t('results.noWinner')}</p>
          )}
          <p className="result-card__proof">
            <Link to={paths.results(r.lottery.id)}>{t('results.proof')}</Link>
          </p>
          <DrawStanding draw={r.lottery} className="result-card__proof" />
        </li>
      ))}
    </ul>
  );
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A numbers draw's result (docs/rules/lotteries-and-sales.md#10-results-for-players): the numbers drawn, then each tier
 * with how many tickets won it and what each was paid — counts, never the tickets, so that a tier of thousands keeps
 * the card short — and the jackpot that rolled over when nobody won it.
 */
function NumbersResult({ result, numbers }: { result: DrawResult; numbers: number[] }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  const tiers = TIERS.map((tier) => {
    const won = result.prizes.filter((p) => p.tier === tier);
    // Every ticket of a tier is paid the same (the jackpot split equally, tiers 2–5 a fixed amount).
    return { tier, count: won.length, each: won[0]?.prize_money ?? null };
  });
  return (
    <>
      <DrawnNumbers numbers={numbers} />
      <ul className="tier-list" aria-label={t('results.byTier')}>
        {tiers.map(({ tier, count, each }) => (
          <TierRow key={tier} tier={tier} count={count} each={each} />
        ))}
      </ul>
      {result.rollover ? (
        <p className="result-card__rollover">
          {withElements((v) => t('results.rollover', v), { amount: <Amount value={result.rollover.amount} lng={lng} /> })}
        </p>
      ) : null}
    </>
  );
}

/**
 * A numbers draw's numbers, each line labelled: the five winning numbers, then the last number, for the eye and for a
 * screen reader (each line's label is its name, the numbers read as text once).
 */
function DrawnNumbers({ numbers }: { numbers: number[] }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  const main = numbers.slice(0, -1);
  const last = numbers[numbers.length - 1] ?? null;
  const line = (label: string, values: number[], isLast: boolean) => (
    <div className="result-card__line">
      <dt className="result-card__label">{label}</dt>
      <dd className="balls balls--sm">
        <span className="visually-hidden">{toDigits(values.map(pad2).join(' '), lng)}</span>
        {values.map((n) => (
          <Ball key={n} n={n} last={isLast} lng={lng} />
        ))}
      </dd>
    </div>
  );
  return (
    <dl className="result-card__numbers">
      {line(t('results.winningNumbers'), main, false)}
      {last === null ? null : line(t('results.lastNumber'), [last], true)}
    </dl>
  );
}

function TierRow({ tier, count, each }: { tier: Tier; count: number; each: number | null }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('home');
  return (
    <li className={count ? '' : 'is-none'}>
      <span className="tier-list__name">{t(`lottery:tiers.name.${tier}`)}</span>
      <span className="tier-list__won">
        {count && each !== null
          ? withElements((v) => t('results.tierWinners', { ...v, count, n: formatNumber(count, lng) }), {
              amount: <Amount value={each} lng={lng} />,
            })
          : t('results.tierNone')}
      </span>
    </li>
  );
}

/** Client navigation to / waits for the loader; this is only shown if the route ever renders without data. */
export function HydrateFallback() {
  const { t } = useTranslation('home');
  return (
    <p className="container section muted" aria-busy="true">
      {t('results.loading')}
    </p>
  );
}
