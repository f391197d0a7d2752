import { Form, Link, useActionData } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { useTranslation } from '../i18n.tsx';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, SubmitButton, type FormResult } from '../components/form.tsx';
import { msg } from '../components/messages.ts';
import { Amount, withElements } from '../components/nowrap.tsx';
import { PaymentMethods } from '../components/payment-methods.tsx';
import type { CardLottery } from './lottery-card.tsx';
import { RUN_DRAWS, SLIP_LINES_MAX } from '../../shared/purchases/runs.ts';
import { formatNumber } from '../../shared/dates.ts';

/** What the purchase action hands back: the key it was sent with, so that the next try of this page reuses it. */
export type BuyResult = FormResult & {
  key?: string;
  draws?: number;
  /** A play slip's further lines as typed, and how many quick picks were asked (docs/rules/games.md#6-consecutive-draws-and-play-slips). */
  lines?: string[];
  quick?: number;
};

/** The form's fields of a play slip's further lines: each typed line, and how many quick picks to add. */
export const MORE_LINES_FIELD = 'more_lines';
/** "Remember my bKash account" (docs/rules/payments.md#11-remembered-bkash-agreements), here and on the payment page. */
export const REMEMBER_FIELD = 'remember';
export const QUICK_LINES_FIELD = 'quick_lines';

/** The form's own field for the purchase's `Idempotency-Key` (docs/decisions/012-purchases.md). */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

/**
 * A fresh idempotency key for one purchase attempt, made when the ticket page is rendered. `randomUUID` exists on
 * the server and on secure pages; a page served over plain http gets 128 random bits in hex instead.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * The purchase: the payment method, then "Pay with bKash" (the checkout) or "Send Money and enter the TrxID". A plain
 * form POST that works without JavaScript; it carries the key made with the page, so a submit sent twice makes one
 * transaction.
 */
export function BuyForm({
  lottery,
  ticket,
  idempotencyKey,
  editHref,
}: {
  lottery: CardLottery;
  ticket: string;
  idempotencyKey: string;
  editHref: string;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const result = useActionData<BuyResult>();
  const e = result?.errors ?? {};
  return (
    <Form method="post" action={paths.buy(lottery.id, ticket)} noValidate className="form buy-form">
      <CsrfField />
      <input type="hidden" name={IDEMPOTENCY_FIELD} value={result?.key ?? idempotencyKey} />
      <input type="hidden" name="amount" value={String(lottery.ticket_price)} />
      {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
      {e.ticket ? (
        <Alert kind="error">
          <p>{msg(t, e.ticket)}</p>
          <p>
            <Link to={editHref}>{t('play.pickDifferent')}</Link>
          </p>
        </Alert>
      ) : null}
      <PaymentMethods error={msg(t, e.payment_method)} />
      {lottery.game_id !== null ? (
        <>
          <RunChoice price={lottery.ticket_price} chosen={result?.draws ?? 1} />
          <SlipLines typed={result?.lines ?? []} quick={result?.quick ?? 0} />
        </>
      ) : null}
      <p className="buy-form__text">
        {withElements((v) => t('buy.text', v), { price: <Amount value={lottery.ticket_price} lng={lng} /> })}
      </p>
      {/* With "Pay with bKash": approved once on bKash's page, then his PIN only (one already remembered is used). */}
      <label className="toggle buy-form__remember">
        <input type="checkbox" name={REMEMBER_FIELD} value="1" />
        <span>{t('payment.agreement.remember')}</span>
      </label>
      {/* Two ways to pay (docs/rules/payments.md): bKash's checkout first, Send Money with a TrxID second. */}
      <SubmitButton name="pay" value="checkout" className="btn btn-bkash btn-block">
        {/* A game's draw may be a run: its price is the choice's, written beside each (RunChoice). */}
        {lottery.game_id !== null
          ? t('buy.payRun')
          : withElements((v) => t('buy.payWithBkash', v), { price: <Amount value={lottery.ticket_price} lng={lng} /> })}
      </SubmitButton>
      <SubmitButton name="pay" value="send_money" className="btn btn-ghost btn-block buy-form__second">
        {t('buy.sendMoney')}
      </SubmitButton>
    </Form>
  );
}

/**
 * A game's draw: how many consecutive draws of the game to play these numbers in (docs/rules/games.md#6-consecutive-draws-and-play-slips),
 * each choice with the price of the whole run written out (TK. 100 × 5 = TK. 500), so that it reads without
 * JavaScript. One draw is a ticket bought alone.
 */
function RunChoice({ price, chosen }: { price: number; chosen: number }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  return (
    <fieldset className="run-choice">
      <legend>{t('buy.run.title')}</legend>
      <div className="run-choice__options">
        {RUN_DRAWS.map((n) => (
          <label key={n} className="run-choice__option">
            <input type="radio" name="draws" value={n} defaultChecked={n === chosen} />
            <span className="run-choice__draws">{t('buy.run.draws', { count: n, n: formatNumber(n, lng) })}</span>
            <span className="run-choice__price">
              {n === 1 ? (
                <Amount value={price} lng={lng} />
              ) : (
                withElements((v) => t('buy.run.price', v), {
                  price: <Amount value={price} lng={lng} />,
                  n: <span className="nowrap">{formatNumber(n, lng)}</span>,
                  total: <Amount value={price * n} lng={lng} />,
                })
              )}
            </span>
          </label>
        ))}
      </div>
      <p className="field__hint">
        {t('buy.run.hint')} {t('buy.run.pricePerLine')}
      </p>
    </fieldset>
  );
}

/**
 * A play slip (docs/rules/games.md#6-consecutive-draws-and-play-slips): up to 9 more lines beside the page's numbers,
 * each typed as its six numbers or added as quick picks, in the same draws. Folded away until opened (a `<details>`,
 * which opens without JavaScript), and opened again when the form comes back with lines in it. The whole amount is
 * shown on the payment page before anything is paid.
 */
function SlipLines({ typed, quick }: { typed: readonly string[]; quick: number }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const more = SLIP_LINES_MAX - 1;
  return (
    <details className="slip-lines" open={typed.some((x) => x !== '') || quick > 0}>
      <summary>{t('buy.run.moreTitle')}</summary>
      <p className="field__hint">{t('buy.run.moreLead')}</p>
      <div className="slip-lines__grid">
        {Array.from({ length: more }, (_, i) => (
          <label key={i} className="field slip-lines__line">
            <span>{t('buy.run.line', { n: formatNumber(i + 2, lng) })}</span>
            <input
              type="text"
              name={MORE_LINES_FIELD}
              defaultValue={typed[i] ?? ''}
              placeholder={t('buy.run.linePlaceholder')}
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
            />
          </label>
        ))}
      </div>
      <label className="field slip-lines__quick">
        <span>{t('buy.run.quick')}</span>
        <select name={QUICK_LINES_FIELD} defaultValue={String(quick)}>
          {Array.from({ length: more + 1 }, (_, n) => (
            <option key={n} value={n}>
              {n === 0 ? t('buy.run.quickNone') : formatNumber(n, lng)}
            </option>
          ))}
        </select>
      </label>
    </details>
  );
}
