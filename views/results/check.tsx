import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { errorText, fieldErrors } from '../../shared/api-types.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Tier } from '../../shared/draws/tiers.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import type { PlayerTransaction } from '../../shared/purchases/schemas.ts';
import type { CheckNumbersReply } from '../../shared/results/schemas.ts';
import { Head } from '../components/head.tsx';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { PageHead } from '../components/page-head.tsx';
import { apiOf, localeOf } from '../context.ts';
import { useTranslation, WithTexts, type TFunction } from '../i18n.tsx';
import { TicketBalls } from '../lotteries/balls.tsx';
import { numbersTicket } from './archive.tsx';

/** A logged-in player's newest transactions looked at for "Your tickets" (one page of My Lotteries' source). */
export const OWN_TICKETS = 50;

type Check = z.output<typeof CheckNumbersReply>;
type Tx = z.output<typeof PlayerTransaction>;
/** One of the player's own drawn tickets, as "Your tickets" shows it. */
type Own = {
  id: number;
  ticket: string;
  lottery: Tx['lottery'];
  tier: number | null;
  prize: number | null;
  /** Why two staff members withheld its prize (docs/rules/lotteries-and-sales.md#9-the-draw); null when they did not. */
  withheld: string | null;
};

const checkHref = (ticket: string) => withQuery(paths.checkNumbers, { ticket });

/**
 * /results/check: "check my numbers" (docs/rules/lotteries-and-sales.md#10-results-for-players). `?ticket=` asks
 * `GET /api/v1/check-numbers/`: every past draw the ticket won or would have won, or that it would have won none; a
 * ticket that is not one gets the API's message under the field. A logged-in player also sees his own drawn tickets
 * (`GET /api/v1/my-transactions/`, the newest OWN_TICKETS) with their result. A plain GET form: no JavaScript needed.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiOf(context);
  const ticket = (new URL(request.url).searchParams.get('ticket') ?? '').trim().slice(0, 40);
  const [texts, checked, own] = await Promise.all([
    localeOf(context).namespace('results'),
    ticket ? api.call(contract.checkNumbers, { query: { ticket } }) : Promise.resolve(null),
    ownTickets(api),
  ]);
  const base = { texts, ticket, own };
  if (!checked) return { ...base, result: null as Check | null, fieldError: null as string | null, error: null as string | null };
  if (checked.ok) return { ...base, result: checked.data, fieldError: null, error: null };
  const field = checked.status === 400 ? (fieldErrors(checked.error).ticket ?? null) : null;
  return { ...base, result: null, fieldError: field, error: field ? null : errorText(checked.error, '') };
}

/** The player's drawn tickets (paid, results out), newest first; null for a visitor or when the call failed. */
async function ownTickets(api: ReturnType<typeof apiOf>): Promise<Own[] | null> {
  const { user } = await api.session();
  if (!user) return null;
  const r = await api.call(contract.myTransactions, { query: { limit: OWN_TICKETS, offset: 0 } });
  if (!r.ok) return null;
  return r.data
    .filter((tx) => tx.status === 'success' && tx.lottery.is_result_published)
    .map((tx) => ({
      id: tx.id,
      ticket: tx.ticket,
      lottery: tx.lottery,
      tier: tx.tier,
      prize: tx.prize?.prize_money ?? null,
      withheld: tx.prize?.withheld_reason ?? null,
    }));
}

export function Component() {
  const { texts } = useLoaderData<typeof loader>();
  return (
    <WithTexts ns="results" texts={texts}>
      <CheckPage />
    </WithTexts>
  );
}

function CheckPage() {
  const d = useLoaderData<typeof loader>();
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('results');
  return (
    <>
      <Head title={t('common:title', { page: t('checkNumbers.meta.title') })} description={t('checkNumbers.meta.description')} />
      <PageHead title={t('checkNumbers.title')} lead={t('checkNumbers.lead')} />
      <div className="container narrow archive">
        <form method="get" action={paths.checkNumbers} role="search" className="check-form archive__check">
          <div className={`field${d.fieldError ? ' has-error' : ''}`}>
            <label htmlFor="check-ticket">{t('checkNumbers.ticketLabel')}</label>
            <input
              id="check-ticket"
              name="ticket"
              // Plain text: a numeric keypad has no space or comma on every phone (docs/rules/tickets.md#9-a-ticket-as-people-type-it).
              autoComplete="off"
              maxLength={40}
              defaultValue={d.ticket}
              placeholder={toDigits('5 12 23 34 45 7', lng)}
              aria-invalid={d.fieldError ? true : undefined}
              aria-describedby={d.fieldError ? 'check-ticket-error check-ticket-hint' : 'check-ticket-hint'}
            />
            <p id="check-ticket-hint" className="field__hint">
              {t('checkNumbers.ticketHint')}
            </p>
            {d.fieldError ? (
              <p id="check-ticket-error" className="field__error">
                {d.fieldError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary">
            {t('checkNumbers.submit')}
          </button>
        </form>

        {d.error !== null ? (
          <div className="alert alert--error" role="alert">
            {t('common:errors.error', { message: d.error || t('archive.loadFailed') })}
          </div>
        ) : null}
        {d.result ? <Hits c={d.result} t={t} lng={lng} /> : null}
        {d.own ? <OwnTickets own={d.own} t={t} lng={lng} /> : null}

        <p className="archive__back">
          <Link to={paths.resultsArchive}>{t('checkNumbers.archive')}</Link>
        </p>
      </div>
    </>
  );
}

function Hits({ c, t, lng }: { c: Check; t: TFunction; lng: Language }) {
  const invalid = t('common:errors.invalidDate');
  return (
    <section className="check-result" aria-labelledby="check-result-title" aria-live="polite">
      <h2 id="check-result-title" className="check-result__title">
        {c.ticket !== null ? t('checkNumbers.for', { ticket: toDigits(c.ticket, lng) }) : t('checkNumbers.forCode', { code: c.code })}
      </h2>
      {c.ticket !== null ? <TicketBalls ticket={c.ticket} lng={lng} label={t('checkNumbers.ticketLabel')} /> : null}
      {c.hits.length === 0 ? (
        <p className="alert alert--info">{t(c.ticket !== null ? 'checkNumbers.none' : 'checkNumbers.noneCode')}</p>
      ) : (
        <>
          <p>{t('checkNumbers.hits', { count: c.hits.length, n: formatNumber(c.hits.length, lng) })}</p>
          <ul className="check-hits">
            {c.hits.map((h) => (
              <li key={h.lottery.id} className={`result-card check-hit${h.sold ? ' check-hit--won' : ''}`}>
                <div className="result-card__head">
                  <h3 className="result-card__name">{lotteryName(h.lottery, lng)}</h3>
                  <p className="result-card__date">
                    {withElements((v) => t('archive.drawnAt', v), {
                      date: <DateTime value={h.lottery.drawn_at} lng={lng} withTime invalid={invalid} />,
                    })}
                  </p>
                </div>
                {h.tier !== null ? <p className="check-hit__tier">{t(`lottery:tiers.name.${h.tier as Tier}`)}</p> : null}
                {h.lucky_code !== null ? <p className="check-hit__tier">{t('checkNumbers.luckyDrawn')}</p> : null}
                {h.numbers ? (
                  <div className="result-card__numbers">
                    <p className="result-card__label">{t('checkNumbers.drawn')}</p>
                    <TicketBalls ticket={numbersTicket(h.numbers)} lng={lng} label={t('checkNumbers.drawn')} size="sm" />
                  </div>
                ) : null}
                <p className="check-hit__money">
                  {h.prize === 0
                    ? t('lottery:tiers.noMoney')
                    : withElements(
                        (v) => t(h.lucky_code !== null ? 'checkNumbers.wonCode' : h.sold ? 'checkNumbers.won' : 'checkNumbers.would', v),
                        {
                          amount: <Amount value={h.prize} lng={lng} />,
                        },
                      )}
                </p>
                {h.withheld_reason !== null ? (
                  <p className="result-card__withheld">{t('archive.withheld', { reason: h.withheld_reason })}</p>
                ) : null}
                <p className="result-card__proof">
                  <Link to={paths.results(h.lottery.id)}>{t('checkNumbers.proof')}</Link>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      {c.ticket !== null && c.numbers_draws_checked >= c.numbers_draws_limit ? (
        <p className="muted">{t('checkNumbers.capped', { n: formatNumber(c.numbers_draws_limit, lng) })}</p>
      ) : null}
    </section>
  );
}

function OwnTickets({ own, t, lng }: { own: Own[]; t: TFunction; lng: Language }) {
  return (
    <section className="own-tickets" aria-labelledby="own-tickets-title">
      <h2 id="own-tickets-title">{t('checkNumbers.yours.title')}</h2>
      <p className="muted">{t('checkNumbers.yours.lead')}</p>
      {own.length === 0 ? (
        <p className="empty-state empty-state--card">{t('checkNumbers.yours.none')}</p>
      ) : (
        <ul className="own-tickets__list" aria-label={t('checkNumbers.yours.label')}>
          {own.map((o) => (
            <li key={o.id} className={o.prize !== null ? 'is-won' : ''}>
              <p className="own-tickets__name">{lotteryName(o.lottery, lng)}</p>
              <TicketBalls ticket={o.ticket} lng={lng} label={t('checkNumbers.ticketLabel')} size="sm" />
              <p className="own-tickets__result">
                {o.tier !== null ? <span className="own-tickets__tier">{t(`lottery:tiers.name.${o.tier as Tier}`)} · </span> : null}
                {o.prize !== null
                  ? withElements((v) => t('checkNumbers.yours.won', v), { amount: <Amount value={o.prize} lng={lng} /> })
                  : t('checkNumbers.yours.lost')}
              </p>
              {o.withheld !== null ? <p className="result-card__withheld">{t('archive.withheld', { reason: o.withheld })}</p> : null}
              <Link
                className="own-tickets__check"
                to={checkHref(o.ticket)}
                aria-label={`${t('checkNumbers.yours.check')}: ${toDigits(o.ticket, lng)}`}
              >
                {t('checkNumbers.yours.check')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
