/**
 * A player's ticket as a card (My Lotteries, a run's page): its numbers, its payment state, its draw, and once drawn
 * the numbers drawn, what it matched, its prize and the claim of it.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths } from '../../shared/paths.ts';
import type { PlayerTransaction } from '../../shared/purchases/schemas.ts';
import { useTranslation, type TFunction } from '../i18n.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { canClaim, claimDeadline } from '../../shared/claims/schemas.ts';
import { Ball, TicketBalls } from './balls.tsx';
import { ticketNumberParts } from '../../shared/ticket.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { ticketState } from '../../shared/purchases/states.ts';
import type { Language } from '../../shared/i18n.ts';

type Tx = z.output<typeof PlayerTransaction>;

/** Whether this transaction's prize can be claimed now, the hold aside. */
export function claimable(tx: Tx, now = Date.now()): boolean {
  return (
    tx.is_winning_ticket &&
    tx.prize !== null &&
    tx.lottery.drawn_at !== null &&
    canClaim(tx.claim_status, claimDeadline(tx.lottery.drawn_at), now)
  );
}

/**
 * One transaction: what was bought, its payment state, its draw and its result (docs/rules/lotteries-and-sales.md#10-results-for-players).
 * `inRun`: shown on its run's page, which needs no link to itself.
 */
export function TicketCard({
  tx,
  heldUntil,
  inRun = false,
  children,
}: {
  tx: Tx;
  heldUntil: string | null;
  inRun?: boolean;
  /** Said last, inside the card. */
  children?: ReactNode;
}) {
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
      {tx.slip_id !== null && !inRun ? (
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
        <TrxIdFact tx={tx} />
        {tx.lucky_code ? (
          // A game's draw: the entry's Lucky Chance code (docs/rules/draws.md#7a-lucky-chance), written as the proof writes it.
          <Fact label={t(`${m}.luckyCode`)} className="my-ticket__lucky nowrap">
            {tx.lucky_code}
          </Fact>
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
      {children}
    </article>
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

const resultOf = (tx: Tx): 'waiting' | 'won' | 'lost' =>
  !tx.lottery.is_result_published ? 'waiting' : tx.is_winning_ticket ? 'won' : 'lost';

/** One fact of a card's list: its label, its value. */
export function Fact({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** bKash's TrxID of the purchase, when it has one. */
export function TrxIdFact({ tx }: { tx: Tx }) {
  const { t } = useTranslation();
  return tx.trx_id ? (
    <Fact label={t('pages.myLotteries.trxId')} className="my-ticket__trx">
      {tx.trx_id}
    </Fact>
  ) : null;
}
