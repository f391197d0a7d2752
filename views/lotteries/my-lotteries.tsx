import { useState } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths } from '../../shared/paths.ts';
import type { PlayerTransaction } from '../../shared/purchases/schemas.ts';
import { useTranslation, type TFunction } from '../i18n.tsx';
import { Dialog } from '../components/dialog.tsx';
import { PageHead } from '../components/page-head.tsx';
import { Head } from '../components/head.tsx';
import { Alert } from '../components/form.tsx';
import { Notice } from '../components/toast.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { canClaim, claimDeadline } from '../../shared/claims/schemas.ts';
import { apiOf } from '../context.ts';
import { ActivateForm } from './activate-form.tsx';
import { useIsStaff } from './is-staff.ts';
import { StaffNoPlay } from './staff-no-play.tsx';
import { Ball, TicketBalls } from './balls.tsx';
import { ticketNumberParts } from '../../shared/ticket.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { ticketState } from '../../shared/purchases/states.ts';
import type { Language } from '../../shared/i18n.ts';
import { Pager } from './pager.tsx';
import { listData, listHref, pageCount, parsePage } from './paging.ts';

export const PER_PAGE = 10;
/** The API refuses offsets beyond this; later pages are simply empty. */
const MAX_OFFSET = 1_000_000;

type Tx = z.output<typeof PlayerTransaction>;

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
  const none = { unfinished: [] as Tx[], claimed, heldUntil: null as string | null };
  if (offset > MAX_OFFSET) return { page, items: [] as Tx[], total: 0, error: null, ...none };
  const api = apiOf(context);
  const r = await api.call(contract.myLotteries, { query: { limit: PER_PAGE, offset } });
  if (!r.ok) return { ...listData<Tx>(r, page), ...none };
  const { tickets, total, unfinished } = r.data;
  // A prize the player could claim now: whether a change of his phone, e-mail or password holds his claims
  // (docs/rules/lotteries-and-sales.md#11-prize-claims). The hold is the player's, so any winning ticket tells it.
  let heldUntil: string | null = null;
  if (tickets.some(claimable)) {
    const w = await api.call(contract.myWinningTickets, { query: { limit: 1, offset: 0 } });
    heldUntil = w.ok ? (w.data[0]?.held_until ?? null) : null;
  }
  return { ...listData({ ...r, data: tickets, total }, page), unfinished, claimed, heldUntil };
}

/** Whether this transaction's prize can be claimed now, the hold aside. */
function claimable(tx: Tx, now = Date.now()): boolean {
  return (
    tx.is_winning_ticket &&
    tx.prize !== null &&
    tx.lottery.drawn_at !== null &&
    canClaim(tx.claim_status, claimDeadline(tx.lottery.drawn_at), now)
  );
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
  return (
    <>
      <Head title={t('title', { page: title })} description={t('pages.myLotteries.subtitle')} />
      <PageHead title={title} lead={t('pages.myLotteries.subtitle')} />
      <div className="container narrow">
        {d.claimed ? <Notice text={t('pages.myLotteries.claimed')} /> : null}
        {d.unfinished.length > 0 ? <Unfinished items={d.unfinished} /> : null}
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
              <li key={tx.id}>
                <TicketCard tx={tx} heldUntil={d.heldUntil} />
              </li>
            ))}
          </ul>
        )}
        {d.items ? <Pager page={d.page} pages={pages} href={(p) => here(p)} texts="pages.myLotteries" lng={lng} /> : null}
        <ActivateCard />
      </div>
    </>
  );
}

/** One transaction: what was bought, its payment state, its draw and its result. */
function TicketCard({ tx, heldUntil }: { tx: Tx; heldUntil: string | null }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation();
  const m = 'pages.myLotteries';
  return (
    <article className="card my-ticket" aria-labelledby={`tx-${tx.id}`}>
      <header className="my-ticket__head">
        <h2 id={`tx-${tx.id}`} className="my-ticket__lottery">
          {lotteryName(tx.lottery, lng)}
        </h2>
        <span className={`badge badge--${tx.status}`}>{t(`common:ticketStates.${ticketState(tx)}`)}</span>
      </header>
      {drawnNumbers(tx) ? (
        <MatchedBalls ticket={tx.ticket} matched={drawnNumbers(tx)!.matched} lng={lng} label={t(`${m}.ticket`)} />
      ) : (
        <TicketBalls ticket={tx.ticket} lng={lng} label={t(`${m}.ticket`)} size="sm" />
      )}
      {tx.transaction_type === 'activation' ? <p className="my-ticket__note">{t(`${m}.activated`)}</p> : null}
      {tx.slip_id !== null ? (
        // One draw of a run of consecutive draws (docs/rules/games.md#6-consecutive-draws-and-play-slips).
        <p className="my-ticket__note">
          <Link to={paths.run(tx.slip_id)}>{t(`${m}.inRun`)}</Link>
        </p>
      ) : null}
      <dl className="my-ticket__facts">
        <div>
          <dt>{t(`${m}.amount`)}</dt>
          <dd>
            <Amount value={tx.amount} lng={lng} />
          </dd>
        </div>
        <div>
          <dt>{t(`${m}.drawDate`)}</dt>
          <dd>
            {/* Once drawn, when it was drawn; before, the end of sales (the draw follows it). */}
            <DateTime
              value={tx.lottery.drawn_at ?? tx.lottery.draw_at ?? tx.lottery.end_date}
              lng={lng}
              withTime
              invalid={t('errors.invalidDate')}
            />
          </dd>
        </div>
        {tx.trx_id ? (
          <div>
            <dt>{t(`${m}.trxId`)}</dt>
            <dd className="my-ticket__trx">{tx.trx_id}</dd>
          </div>
        ) : null}
        {tx.lucky_code ? (
          // A game's draw: the entry's Lucky Chance code (docs/rules/draws.md#7a-lucky-chance), written as the proof writes it.
          <div>
            <dt>{t(`${m}.luckyCode`)}</dt>
            <dd className="my-ticket__lucky nowrap">{tx.lucky_code}</dd>
          </div>
        ) : null}
      </dl>
      {ticketState(tx) === 'awaiting_confirmation' && tx.trx_id ? (
        // Paid with Send Money, bKash or staff still to confirm: the freeze cancels it at the close (docs/rules/lotteries-and-sales.md#8-transaction-states).
        <p className="alert alert--info my-ticket__waiting">
          {withElements((v) => t(`${m}.confirmingBy`, v), {
            trx: <span className="nowrap">{tx.trx_id}</span>,
            date: <DateTime value={tx.lottery.end_date} lng={lng} withTime invalid={t('errors.invalidDate')} />,
          })}
        </p>
      ) : null}
      <div className={`my-ticket__result my-ticket__result--${resultOf(tx)}`}>
        {tx.lottery.is_result_published && drawnNumbers(tx) ? <NumbersOutcome tx={tx} {...drawnNumbers(tx)!} /> : null}
        {tx.lottery.is_result_published ? (
          tx.is_winning_ticket && tx.prize?.withheld_reason ? (
            // docs/rules/lotteries-and-sales.md#9-the-draw: withheld by two staff members, with the reason.
            <p className="my-ticket__withheld">{t(`${m}.withheld`, { reason: tx.prize.withheld_reason })}</p>
          ) : tx.is_winning_ticket && tx.prize ? (
            <>
              <p>
                {t(`${m}.won`)} <Amount value={tx.prize.prize_money} lng={lng} />
              </p>
              {tx.prize.lucky && tx.lucky_code ? (
                <p className="my-ticket__lucky-won">{t(`${m}.luckyWon`, { code: tx.lucky_code })}</p>
              ) : null}
              <ClaimOfPrize tx={tx} prizeId={tx.prize.id} heldUntil={heldUntil} />
            </>
          ) : tx.tier !== null ? (
            <p>{t('lottery:tiers.noMoney')}</p>
          ) : (
            <p>{t(`${m}.lost`)}</p>
          )
        ) : (
          <p>{t(`${m}.notDrawn`)}</p>
        )}
      </div>
    </article>
  );
}

/**
 * Purchases awaiting payment (no TrxID, no confirmed checkout): no tickets yet, one line each, leading to the payment
 * page where the player finishes, by bKash or with Send Money and its TrxID, before sales close, when the freeze
 * cancels it (docs/rules/lotteries-and-sales.md#8-transaction-states).
 */
function Unfinished({ items }: { items: Tx[] }) {
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
              <span className="my-unfinished__lottery">{lotteryName(tx.lottery, lng)}</span>{' '}
              <span className="nowrap">{toDigits(tx.ticket, lng)}</span> · <Amount value={tx.amount} lng={lng} />
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

/** A drawn numbers lottery's ticket: the numbers drawn and what the ticket matched (null for anything else). */
function drawnNumbers(tx: Tx): { numbers: number[]; matched: NonNullable<Tx['matched']> } | null {
  return tx.lottery.kind === 'numbers' && tx.numbers && tx.matched ? { numbers: tx.numbers, matched: tx.matched } : null;
}

/** "3 main numbers and the last number matched", "No number matched", … (lottery.json `tiers.matched`). */
function matchedText(t: TFunction, matched: NonNullable<Tx['matched']>, lng: Language): string {
  const k = matched.main.length;
  const vars = { count: k, n: formatNumber(k, lng) };
  if (k === 0) return t(matched.last ? 'lottery:tiers.matched.last' : 'lottery:tiers.matched.none');
  return t(matched.last ? 'lottery:tiers.matched.mainLast' : 'lottery:tiers.matched.main', vars);
}

/**
 * The ticket's six balls, each filled when it matched the draw and outlined when it did not; screen readers get the
 * ticket number and what matched as text (docs/rules/lotteries-and-sales.md#10-results-for-players).
 */
function MatchedBalls({
  ticket,
  matched,
  lng,
  label,
}: {
  ticket: string;
  matched: NonNullable<Tx['matched']>;
  lng: Language;
  label: string;
}) {
  const { t } = useTranslation();
  const parts = ticketNumberParts(ticket);
  if (!parts) return <span className="ticket-text">{toDigits(ticket, lng)}</span>;
  return (
    <span className="balls balls--sm balls--matched">
      <span className="visually-hidden">
        {t('lottery:tiers.ticketMatched', { label, ticket: toDigits(parts.join('-'), lng), matched: matchedText(t, matched, lng) })}
      </span>
      {parts.map((p, i) => {
        const last = i === parts.length - 1;
        const hit = last ? matched.last : matched.main.includes(Number(p));
        return <Ball key={i} n={Number(p)} last={last} lng={lng} className={hit ? 'ball--hit' : 'ball--miss'} />;
      })}
    </span>
  );
}

/** The numbers drawn, what the ticket matched and the tier it reached (its prize, if any, follows). */
function NumbersOutcome({ tx, numbers, matched }: { tx: Tx; numbers: number[]; matched: NonNullable<Tx['matched']> }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation();
  return (
    <div className="my-ticket__numbers">
      <p className="my-ticket__drawn">
        <span>{t('lottery:tiers.drawn')}</span>{' '}
        <TicketBalls
          ticket={numbers.map((n) => String(n).padStart(2, '0')).join('-')}
          lng={lng}
          label={t('lottery:tiers.drawn')}
          size="sm"
        />
      </p>
      <p className="my-ticket__matched" aria-hidden="true">
        {matchedText(t, matched, lng)}
      </p>
      {tx.tier !== null ? <p className="my-ticket__tier">{t(`lottery:tiers.name.${tx.tier}`)}</p> : null}
    </div>
  );
}

/**
 * The claim of a winning ticket (docs/rules/lotteries-and-sales.md#10-results-for-players): "Add Payment Info" while
 * it can be claimed, otherwise its state (Processing, Transfer Completed, Transfer Failed) or the end of the claim period.
 * After a failed transfer both: the state, and the link to send the details again. While a change of the player's
 * phone, e-mail or password holds his claims (#11-prize-claims), the notice of the hold instead of the link.
 */
function ClaimOfPrize({ tx, prizeId, heldUntil }: { tx: Tx; prizeId: number; heldUntil: string | null }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation();
  const m = 'pages.myLotteries';
  const deadline = tx.lottery.drawn_at ? claimDeadline(tx.lottery.drawn_at) : null;
  const open = deadline !== null && canClaim(tx.claim_status, deadline);
  return (
    <div className="my-ticket__claim">
      {tx.claim_status ? (
        <span className={`badge badge--claim-${tx.claim_status}`}>{t(`common:claimStates.${tx.claim_status}`)}</span>
      ) : null}
      {open && heldUntil ? (
        <p className="alert alert--info my-ticket__held" role="status">
          {withElements((v) => t(`${m}.claimHeld`, v), {
            date: <DateTime value={heldUntil} lng={lng} withTime invalid={t('errors.invalidDate')} />,
          })}
        </p>
      ) : open && deadline ? (
        <>
          <Link className="btn btn-primary btn-sm" to={paths.prizeClaim(prizeId)}>
            {t(`${m}.addPaymentInfo`)}
          </Link>
          <small>
            {withElements((v) => t(`${m}.claimBy`, v), {
              date: <DateTime value={deadline} lng={lng} withTime invalid={t('errors.invalidDate')} />,
            })}
          </small>
        </>
      ) : !tx.claim_status ? (
        <span className="badge badge--failed">{t(`${m}.claimOver`)}</span>
      ) : null}
    </div>
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

const resultOf = (tx: Tx): 'waiting' | 'won' | 'lost' =>
  !tx.lottery.is_result_published ? 'waiting' : tx.is_winning_ticket ? 'won' : 'lost';

const TicketIcon = () => (
  <svg className="empty__icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false">
    <path
      fill="currentColor"
      fillRule="evenodd"
      d="M6 12a4 4 0 0 1 4-4h28a4 4 0 0 1 4 4v6a6 6 0 0 0 0 12v6a4 4 0 0 1-4 4H10a4 4 0 0 1-4-4v-6a6 6 0 0 0 0-12v-6Zm24 1v4h3v-4h-3Zm0 9v4h3v-4h-3Zm0 9v4h3v-4h-3Z"
    />
  </svg>
);
