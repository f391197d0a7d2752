import { useState } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths } from '../../shared/paths.ts';
import type { PlayerTransaction, RunSummary } from '../../shared/purchases/schemas.ts';
import { useTranslation } from '../i18n.tsx';
import { Dialog } from '../components/dialog.tsx';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { Alert } from '../components/form.tsx';
import { Notice } from '../components/toast.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { apiOf } from '../context.ts';
import { ActivateForm } from './activate-form.tsx';
import { useIsStaff } from './is-staff.ts';
import { StaffNoPlay } from './staff-no-play.tsx';
import { TicketBalls } from './balls.tsx';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { ticketState } from '../../shared/purchases/states.ts';
import type { Language } from '../../shared/i18n.ts';
import { Pager } from './pager.tsx';
import { claimable, Fact, TicketCard, TrxIdFact } from './ticket-card.tsx';
import { listData, listHref, pageCount, parsePage } from './paging.ts';

export const PER_PAGE = 10;
/** The API refuses offsets beyond this; later pages are simply empty. */
const MAX_OFFSET = 1_000_000;

type Tx = z.output<typeof PlayerTransaction>;
type Summary = z.output<typeof RunSummary>;

/**
 * The player's tickets, newest first, 10 a page (`?page=`), the confirmed ones and those awaiting confirmation, and
 * above them on the first page his purchases awaiting payment until each is paid or cancelled, in one read:
 * `GET /api/v1/my-lotteries/`. A cancelled purchase is no ticket and is not shown
 * (docs/rules/lotteries-and-sales.md#7-buying-a-ticket, "The pages").
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const page = parsePage(url.searchParams.get('page'));
  // After a prize claim the page says that the details arrived (views/lotteries/prize-claim.tsx).
  const claimed = url.searchParams.get('notice') === 'claimed';
  const offset = (page - 1) * PER_PAGE;
  const none = { unfinished: [] as Tx[], runs: [] as Summary[], claimed, heldUntil: null as string | null };
  if (offset > MAX_OFFSET) return { page, items: [] as Tx[], total: 0, error: null, ...none };
  const api = apiOf(context);
  const r = await api.call(contract.myLotteries, { query: { limit: PER_PAGE, offset } });
  if (!r.ok) return { ...listData<Tx>(r, page), ...none };
  const { tickets, total, unfinished, runs } = r.data;
  // A prize the player could claim now: whether a change of his phone, e-mail or password holds his claims
  // (docs/rules/lotteries-and-sales.md#11-prize-claims). The hold is the player's, so any winning ticket tells it.
  let heldUntil: string | null = null;
  if (tickets.some(claimable)) {
    const w = await api.call(contract.myWinningTickets, { query: { limit: 1, offset: 0 } });
    heldUntil = w.ok ? (w.data[0]?.held_until ?? null) : null;
  }
  return { ...listData({ ...r, data: tickets, total }, page), unfinished, runs, claimed, heldUntil };
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const title = t('pages.myLotteries.title');
  const pages = pageCount(d.total, PER_PAGE);
  const here = (page: number) => listHref(paths.myLotteries, page);
  // A run of draws is one item: its lead entry, told by its slip's summary.
  const runOf = (tx: Tx) => (tx.slip_id === null ? undefined : d.runs.find((r) => r.id === tx.slip_id));
  return (
    <>
      <Head title={t('title', { page: title })} description={t('pages.myLotteries.subtitle')} />
      <PageHead title={title} lead={t('pages.myLotteries.subtitle')} />
      <div className="container narrow">
        {d.claimed ? <Notice text={t('pages.myLotteries.claimed')} /> : null}
        {d.unfinished.length > 0 ? <Unfinished items={d.unfinished} runOf={runOf} /> : null}
        {d.error !== null || d.items === null ? (
          <Alert kind="error">{t('errors.error', { message: d.error ?? t('pages.myLotteries.loadFailed') })}</Alert>
        ) : d.items.length === 0 && d.page === 1 ? (
          <section className="empty empty--card card" aria-labelledby="no-tickets">
            <TicketIcon />
            <h2 id="no-tickets">{t('pages.myLotteries.emptyTitle')}</h2>
            <p>{t('pages.myLotteries.emptyText')}</p>
            <div className="empty__actions">
              <Link to={paths.allLotteries} className="btn btn-primary">
                {t('pages.myLotteries.pickNumbers')}
              </Link>
              <Link to={paths.howToPlay} className="btn btn-ghost">
                {t('pages.myLotteries.howToPlay')}
              </Link>
            </div>
          </section>
        ) : d.items.length === 0 ? (
          <p className="alert alert--info">
            {t('pages.myLotteries.pageEmpty')} <Link to={here(1)}>{t('pages.myLotteries.firstPage')}</Link>
          </p>
        ) : (
          <ul className="my-tickets" aria-label={t('pages.myLotteries.listLabel')}>
            {d.items.map((tx) => (
              <li key={tx.id}>{runOf(tx) ? <RunCard tx={tx} run={runOf(tx)!} /> : <TicketCard tx={tx} heldUntil={d.heldUntil} />}</li>
            ))}
          </ul>
        )}
        {d.items ? <Pager page={d.page} pages={pages} href={(p) => here(p)} texts="pages.myLotteries" lng={lng} /> : null}
        <ActivateCard />
      </div>
    </>
  );
}

/** A run's game's name, as a lottery's is told. */
const gameName = (run: Summary) => ({ name: run.game_name, name_bn: run.game_name_bn });

/** "5 draws, 2 lines of numbers" (or the `text` given, with those two), each part kept on one line. */
function RunSize({ run, lng, text }: { run: Summary; lng: Language; text: string }) {
  const { t } = useTranslation();
  return withElements((v) => t(text, v), {
    draws: <span className="nowrap">{t('lottery:run.drawsCount', { count: run.draws, n: formatNumber(run.draws, lng) })}</span>,
    lines: <span className="nowrap">{t('lottery:run.linesCount', { count: run.lines, n: formatNumber(run.lines, lng) })}</span>,
  });
}

/**
 * A run of consecutive draws as one item (docs/rules/games.md#6-consecutive-draws-and-play-slips): its game, its
 * lines, its one amount, how many of its draws are drawn and what they won, its next draw, the prizes waiting for a
 * claim; its page opens its draws, their results and the claims.
 */
function RunCard({ tx, run }: { tx: Tx; run: Summary }) {
  const {
    t,
    i18n: { language },
  } = useTranslation();
  const lng = language as Language;
  const m = 'pages.myLotteries';
  const date = (value: string) => <DateTime value={value} lng={lng} withTime invalid={t('errors.invalidDate')} />;
  return (
    <article className="card my-ticket my-run" aria-labelledby={`tx-${tx.id}`}>
      <header className="my-ticket__head">
        <h2 id={`tx-${tx.id}`} className="my-ticket__lottery">
          {lotteryName(gameName(run), lng)}
        </h2>
        <span className={`badge badge--${tx.status}`}>{t(`common:ticketStates.${ticketState(tx)}`)}</span>
      </header>
      <p className="my-run__what">
        <RunSize run={run} lng={lng} text={`${m}.runWhat`} />
      </p>
      <ul className="my-run__lines" aria-label={t(`${m}.runLines`)}>
        {run.tickets.map((ticket) => (
          <li key={ticket}>
            <TicketBalls ticket={ticket} lng={lng} label={t(`${m}.ticket`)} size="sm" />
          </li>
        ))}
      </ul>
      <dl className="my-ticket__facts">
        <Fact label={t(`${m}.amount`)}>
          <Amount value={run.amount} lng={lng} />
        </Fact>
        <Fact label={t(`${m}.runDraws`)}>
          {t(`${m}.runDrawn`, { drawn: formatNumber(run.drawn, lng), draws: formatNumber(run.draws, lng) })}
        </Fact>
        <Fact label={t(run.next_draw_at ? `${m}.runNext` : `${m}.runLast`)}>{date(run.next_draw_at ?? run.last_draw_at)}</Fact>
        {run.drawn > 0 ? (
          <Fact label={t(`${m}.runWon`)}>
            <Amount value={run.won} lng={lng} />
          </Fact>
        ) : null}
        <TrxIdFact tx={tx} />
      </dl>
      {run.to_claim > 0 ? (
        <p className="alert alert--success my-run__claim">
          {t(`${m}.runToClaim`, { count: run.to_claim, n: formatNumber(run.to_claim, lng) })}
        </p>
      ) : null}
      <Link className="btn btn-ghost btn-sm my-run__open" to={paths.run(run.id)}>
        {t(`${m}.runOpen`)}
      </Link>
    </article>
  );
}

/**
 * Purchases awaiting payment (no TrxID, no confirmed checkout): no tickets yet, one line each, leading to the payment
 * page where the player finishes, by bKash or with Send Money and its TrxID, before sales close, when the freeze
 * cancels it (docs/rules/lotteries-and-sales.md#8-transaction-states).
 */
function Unfinished({ items, runOf }: { items: Tx[]; runOf: (tx: Tx) => Summary | undefined }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation();
  const m = 'pages.myLotteries';
  return (
    <section className="card my-unfinished" aria-labelledby="unfinished-title">
      <h2 id="unfinished-title">{t(`${m}.unfinishedTitle`)}</h2>
      <ul aria-label={t(`${m}.unfinishedLabel`)}>
        {items.map((tx) => (
          <li key={tx.id}>
            <p className="my-unfinished__what">
              {runOf(tx) ? (
                // A run: the game, its draws and lines, and the whole amount its one payment pays.
                <>
                  <span className="my-unfinished__lottery">{lotteryName(gameName(runOf(tx)!), lng)}</span>{' '}
                  <RunSize run={runOf(tx)!} lng={lng} text={`${m}.unfinishedRun`} /> · <Amount value={runOf(tx)!.amount} lng={lng} />
                </>
              ) : (
                <>
                  <span className="my-unfinished__lottery">{lotteryName(tx.lottery, lng)}</span>{' '}
                  <span className="nowrap">{toDigits(tx.ticket, lng)}</span> · <Amount value={tx.amount} lng={lng} />
                </>
              )}
            </p>
            <Link className="my-unfinished__resume" to={paths.payment(tx.id)}>
              {t(`${m}.unfinished`)}
            </Link>
            <p className="my-unfinished__by">
              {withElements((v) => t(`${m}.unfinishedBy`, v), {
                date: <DateTime value={tx.lottery.end_date} lng={lng} withTime invalid={t('errors.invalidDate')} />,
              })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The last card: activate a generated ticket. Without JavaScript its link opens the plain page; with it, the dialog
 * (six two-digit boxes and sixteen one-digit boxes), whose success refreshes this list.
 */
function ActivateCard() {
  const {
    t,
    i18n: { language },
  } = useTranslation('activate');
  const [open, setOpen] = useState(false);
  const staff = useIsStaff();
  return (
    <section className="card activate-card" aria-labelledby="activate-card">
      <h2 id="activate-card">{t('card.title')}</h2>
      <p>{t('card.text')}</p>
      {staff ? (
        <StaffNoPlay />
      ) : (
        <Link
          className="btn btn-primary"
          to={paths.activate}
          onClick={(e) => {
            e.preventDefault();
            setOpen(true);
          }}
        >
          {t('card.open')}
        </Link>
      )}
      {open && !staff ? (
        <Dialog titleId="activate-title" className="activate-dialog" onClose={() => setOpen(false)} closeOnBack>
          <h2 id="activate-title" className="dialog__title">
            {t('form.title')}
          </h2>
          <p>{t('form.lead')}</p>
          <ActivateForm lng={language} onClose={() => setOpen(false)} />
        </Dialog>
      ) : null}
    </section>
  );
}

const TicketIcon = () => (
  <svg className="empty__icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M6 12a4 4 0 0 1 4-4h28a4 4 0 0 1 4 4v6a6 6 0 0 0 0 12v6a4 4 0 0 1-4 4H10a4 4 0 0 1-4-4v-6a6 6 0 0 0 0-12v-6Zm24 1v4h3v-4h-3Zm0 9v4h3v-4h-3Zm0 9v4h3v-4h-3Z"
    />
  </svg>
);
