import {
  data,
  Form,
  Link,
  redirect,
  redirectDocument,
  useActionData,
  useLoaderData,
  useLocation,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths, withQuery } from '../../shared/paths.ts';
import { REFUND_REASONS, SEND_MONEY_REASONS } from '../../shared/payments/schemas.ts';
import { TrxIdBody } from '../../shared/purchases/schemas.ts';
import { apiOf } from '../context.ts';
import { action as formAction, idOf, pageStatus, refuse, refused } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime, withElements } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { useRootData } from '../root.tsx';
import { TicketBalls } from './balls.tsx';
import { StaffNoPlay } from './staff-no-play.tsx';
import { REMEMBER_FIELD } from './buy-form.tsx';

/**
 * /payment/{transactionId} (player group): where and how much to pay for a purchase, and the TrxID form
 * (docs/rules/lotteries-and-sales.md#7-buying-a-ticket). Another player's transaction is "not found", as the API says.
 */
export async function loader({ params, context, request }: LoaderFunctionArgs) {
  const id = idOf(params.transactionId);
  const none = { tx: null, problem: null, unavailable: false, agreement: null, agreementFailed: false, remember: false };
  if (!id) return data(none, { status: 404 });
  const url = new URL(request.url);
  // The ticket page's "Pay with bKash" came here because bKash did not answer (views/lotteries/buy.tsx).
  const unavailable = url.searchParams.get('checkout') === 'unavailable';
  // bKash's approval of "Remember my bKash account" did not make one (views/lotteries/agreement-return.tsx).
  const agreementFailed = url.searchParams.get('agreement') === 'failed';
  // The ticket page's "Remember my bKash account" was ticked (views/lotteries/run-checkout.ts): ticked here too.
  const remember = url.searchParams.get('remember') === '1';
  const api = apiOf(context);
  // The player's remembered bKash account, which the checkout pays from with his PIN only (docs/rules/payments.md#11-remembered-bkash-agreements).
  const [r, a] = await Promise.all([api.call(contract.myTransaction, { params: { id } }), api.call(contract.myBkashAgreement)]);
  const agreement = a.ok ? a.data : null;
  if (r.ok) return { tx: r.data, problem: null, unavailable, agreement, agreementFailed, remember };
  if (r.error.code === 'not_found') return data({ ...none, unavailable }, { status: 404 });
  return data({ ...none, problem: errorText(r.error, '') || null, unavailable }, { status: pageStatus(r.status) });
}

/** The checkout form's fields: "Remember my bKash account", and "from another bKash account" (not the remembered one). */
const WALLET_FIELD = 'agreement';

/** The TrxID bKash sent the player: given once; a used or refused one comes back under the field. */
const trxIdAction = formAction({
  prepare: (_, { params }) => (idOf(params.transactionId) ? undefined : refuse(key('lottery:payment.notFound'), 404)),
  schema: TrxIdBody,
  call: (api, body, { params }) => api.call(contract.setTrxId, { params: { id: params.transactionId ?? '' }, body }),
  fields: ['trx_id', 'payment_number'],
  failed: 'lottery:payment.errors.failed',
  done: (tx) => redirect(paths.payment(tx.id), 303),
});

/**
 * "Pay with bKash" (posted to /payment/{id}/bkash): bKash makes the payment and the player goes to its page, a whole
 * new document (bKash's page is not one of ours). A refusal shows above the buttons of this page.
 */
async function checkoutAction(args: ActionFunctionArgs) {
  const id = idOf(args.params.transactionId);
  if (!id) return refuse(key('lottery:payment.notFound'), 404);
  const form = await args.request.formData();
  const api = apiOf(args.context);
  const failed = { failed: (m: string) => m || key('lottery:payment.checkout.unavailable'), fields: [] };
  // "Remember my bKash account": bKash's approval first; its callback then pays this purchase with it.
  if (form.get(REMEMBER_FIELD) === '1') {
    const a = await api.call(contract.startBkashAgreement, { body: { transaction_id: id } });
    if (a.ok) return redirectDocument(a.data.bkash_url, 303);
    return refused(a, failed);
  }
  const agreement = form.get(WALLET_FIELD) === 'skip' ? 'skip' : 'use';
  const r = await api.call(contract.startCheckout, { params: { id }, query: { agreement } });
  if (r.ok) return redirectDocument(r.data.bkash_url, 303);
  return refused(r, failed);
}

/** The page's two forms: the checkout posts to /payment/{id}/bkash, the TrxID to the page itself. */
export function action(args: ActionFunctionArgs) {
  return new URL(args.request.url).pathname === paths.paymentCheckout(args.params.transactionId ?? '')
    ? checkoutAction(args)
    : trxIdAction(args);
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<FormResult>();
  const { user } = useRootData();
  const tx = d.tx;
  const e = result?.errors ?? {};
  // The checkout's refusal shows by its form, the TrxID's by the other (both are this page's action).
  const { pathname } = useLocation();
  const checkoutPost = tx !== null && pathname === paths.paymentCheckout(tx.id);
  // A confirmed ticket's page is its receipt, whichever way it was paid (docs/rules/payments.md#10-the-receipt).
  const confirmed = tx?.status === 'success';
  const title = confirmed ? t('payment.receipt.title') : t('payment.title');
  return (
    <section className="section">
      <div className="container narrow payment">
        <Head title={t('common:title', { page: title })} description={confirmed ? t('payment.receipt.lead') : t('payment.lead')} />
        <h1>{title}</h1>
        {tx && confirmed ? (
          <Receipt tx={tx} />
        ) : !tx ? (
          <>
            <Alert kind="error">{d.problem ? t('common:errors.error', { message: d.problem }) : t('payment.notFound')}</Alert>
            <p>
              <Link to={paths.myLotteries}>{t('payment.finish')}</Link>
            </p>
          </>
        ) : (
          <>
            <div className="card payment__ticket">
              <p className="payment__lottery">{lotteryName(tx.lottery, lng)}</p>
              <TicketBalls ticket={tx.ticket} lng={lng} label={t('play.ticket')} />
              {tx.lucky_code ? (
                // A game's draw: the entry's Lucky Chance code (docs/rules/draws.md#7a-lucky-chance).
                <p className="payment__lucky">
                  {t('common:pages.myLotteries.luckyCode')}: <span className="nowrap">{tx.lucky_code}</span>
                </p>
              ) : null}
              {tx.run ? <RunNote run={tx.run} lead={tx.run.lead_id === tx.id} /> : null}
            </div>
            <CheckoutOutcome tx={tx} />
            {tx.run && tx.run.lead_id !== tx.id && tx.status === 'pending' ? (
              // Another draw of a run: the run is paid from its first draw's page.
              <p>
                <Link className="btn btn-primary btn-block" to={paths.payment(tx.run.lead_id)}>
                  {t('payment.run.payFromLead')}
                </Link>
              </p>
            ) : tx.status === 'pending' && !tx.trx_id && user?.is_staff ? (
              <StaffNoPlay />
            ) : tx.status === 'pending' && !tx.trx_id ? (
              <>
                <div className="card payment__checkout">
                  <h2>{t('payment.checkoutTitle')}</h2>
                  <p>{t('payment.checkoutLead')}</p>
                  {checkoutPost && result?.formError ? (
                    <Alert kind="error">{msg(t, result.formError)}</Alert>
                  ) : d.unavailable && !tx.checkout ? (
                    <Alert kind="error">{t('payment.checkout.unavailable')}</Alert>
                  ) : d.agreementFailed ? (
                    <Alert kind="info">{t('payment.agreement.failed')}</Alert>
                  ) : null}
                  {d.agreement ? <p className="payment__wallet">{t('payment.agreement.using', { wallet: d.agreement.wallet })}</p> : null}
                  {/* A whole document: the answer sends the browser to bKash's page, which is not one of ours. */}
                  <Form method="post" action={paths.paymentCheckout(tx.id)} reloadDocument>
                    <CsrfField />
                    {d.agreement ? null : (
                      // Approved once on bKash's page, then his PIN only (docs/rules/payments.md#11-remembered-bkash-agreements).
                      <label className="toggle payment__remember">
                        <input type="checkbox" name={REMEMBER_FIELD} value="1" defaultChecked={d.remember} />
                        <span>{t('payment.agreement.remember')}</span>
                      </label>
                    )}
                    <SubmitButton className="btn btn-bkash btn-block">
                      {withElements((v) => t('payment.checkoutSubmit', v), { amount: <Amount value={tx.amount_to_pay} lng={lng} /> })}
                    </SubmitButton>
                  </Form>
                  {d.agreement ? (
                    <Form method="post" action={paths.paymentCheckout(tx.id)} reloadDocument className="payment__other-wallet">
                      <CsrfField />
                      <input type="hidden" name={WALLET_FIELD} value="skip" />
                      <SubmitButton className="btn btn-ghost btn-block">{t('payment.agreement.other')}</SubmitButton>
                    </Form>
                  ) : null}
                </div>
                {/* Send Money: for a run (its first entry here), one TrxID of the whole amount (docs/rules/games.md#6-consecutive-draws-and-play-slips). */}
                <h2 className="payment__or">{t('payment.sendMoneyTitle')}</h2>
                <p>{t('payment.sendMoneyLead')}</p>
                <SendMoney tx={tx} phone={user?.phone ?? null} />
                <Form method="post" noValidate className="form card payment__form">
                  <CsrfField />
                  {!checkoutPost && result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
                  <Field
                    label={t('payment.trxId')}
                    name="trx_id"
                    autoComplete="off"
                    autoCapitalize="characters"
                    spellCheck={false}
                    maxLength={20}
                    defaultValue={result?.values?.trx_id ?? ''}
                    hint={t('payment.trxIdHint')}
                    error={msg(t, e.trx_id)}
                  />
                  <Field
                    label={t('payment.paidFrom')}
                    name="payment_number"
                    type="tel"
                    inputMode="numeric"
                    autoComplete="tel"
                    defaultValue={result?.values?.payment_number ?? ''}
                    error={msg(t, e.payment_number)}
                  />
                  <SubmitButton>{t('payment.submit')}</SubmitButton>
                </Form>
              </>
            ) : tx.checkout ? null : tx.trx_id && tx.bkash_check && bkashSpoke(tx) ? (
              <TrxIdCheck tx={tx} />
            ) : tx.status === 'success' && tx.trx_id ? (
              <Alert kind="success">{t('payment.checkout.confirmed', { trx: tx.trx_id })}</Alert>
            ) : tx.status === 'pending' && tx.trx_id ? (
              // Waiting for staff: bKash's check left it to them, or none was made (docs/rules/payments.md#9-send-money-confirmed-by-bkash).
              <Alert kind="success">{t('payment.trxGiven', { trx: tx.trx_id })}</Alert>
            ) : (
              <Alert kind="info">{t('payment.closed')}</Alert>
            )}
            <p className="payment__finish">
              <Link className="btn btn-ghost btn-block" to={paths.myLotteries}>
                {t('payment.finish')}
              </Link>
            </p>
          </>
        )}
      </div>
    </section>
  );
}

type Purchase = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['tx']>;

/**
 * One draw of a run (docs/rules/games.md#6-consecutive-draws-and-play-slips): how many draws and lines the run has and
 * what the whole costs, paid once from its first draw.
 */
function RunNote({ run, lead }: { run: NonNullable<Purchase['run']>; lead: boolean }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  return (
    <>
      <p className="payment__run">
        {withElements(
          (v) => t(!lead ? 'payment.run.entry' : run.lines > 1 ? 'payment.run.slip' : 'payment.run.lead', { ...v, count: run.draws }),
          {
            draws: <span className="nowrap">{formatNumber(run.draws, lng)}</span>,
            lines: <span className="nowrap">{formatNumber(run.lines, lng)}</span>,
            amount: <Amount value={run.amount} lng={lng} />,
          },
        )}
      </p>
      {/* Its other lines and draws, each its own ticket, on the run's page. */}
      <p className="payment__run-link">
        <Link to={paths.run(run.id)}>{t('payment.run.see')}</Link>
      </p>
      {run.draws < run.draws_asked ? (
        // Fewer draws were on sale than he chose: the run was shortened before payment, never after.
        <p className="payment__run payment__run--short">
          {t('payment.run.shortened', { asked: formatNumber(run.draws_asked, lng), draws: formatNumber(run.draws, lng) })}
        </p>
      ) : null}
    </>
  );
}

/**
 * The receipt of a confirmed ticket (docs/rules/payments.md#10-the-receipt): its numbers, the draw's date and time in
 * Dhaka, the exact amount, bKash's TrxID, and the way on: another ticket of the same lottery, or My Lotteries.
 */
function Receipt({ tx }: { tx: Purchase }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  const r = 'payment.receipt';
  const trx = tx.trx_id ?? tx.checkout?.trx_id ?? null;
  return (
    <>
      <p className="payment__confirmed" role="status">
        {t(`${r}.lead`)}
      </p>
      <div className="card payment__ticket payment__receipt">
        <p className="payment__lottery">{lotteryName(tx.lottery, lng)}</p>
        <TicketBalls ticket={tx.ticket} lng={lng} label={t(`${r}.numbers`)} />
        {tx.run ? <RunNote run={tx.run} lead={tx.run.lead_id === tx.id} /> : null}
        <dl className="summary">
          <div>
            <dt>{t(`${r}.draw`)}</dt>
            <dd>
              <DateTime
                value={tx.lottery.drawn_at ?? tx.lottery.draw_at ?? tx.lottery.end_date}
                lng={lng}
                withTime
                invalid={t('common:errors.invalidDate')}
              />
            </dd>
          </div>
          <div>
            <dt>{t(`${r}.amount`)}</dt>
            <dd className="summary__amount">
              {/* A run's first draw: the one payment of the whole run (docs/rules/games.md#6-consecutive-draws-and-play-slips). */}
              <Amount value={tx.run && tx.run.lead_id === tx.id ? tx.run.amount : tx.amount} lng={lng} />
            </dd>
          </div>
          {trx ? (
            <div className="payment__trx-row">
              <dt>{t(`${r}.trxId`)}</dt>
              <dd className="payment__trx">{trx}</dd>
            </div>
          ) : null}
        </dl>
      </div>
      {/* A second payment of a ticket already paid is refunded: its notice stays (payments.md#4-settling-a-payment). */}
      {tx.checkout && (tx.checkout.state === 'refund_due' || tx.checkout.state === 'refunded') ? <CheckoutOutcome tx={tx} /> : null}
      <p className="payment__next">
        <Link className="btn btn-primary" to={withQuery(paths.picker, { lottery: String(tx.lottery.id) })}>
          {t(`${r}.buyAnother`)}
        </Link>
        <Link className="btn btn-ghost" to={paths.myLotteries}>
          {t(`${r}.myTickets`)}
        </Link>
      </p>
    </>
  );
}

/** Where and how much to send with Send Money, and the reference to write (the manual path). */
function SendMoney({ tx, phone }: { tx: Purchase; phone: string | null }) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('lottery');
  return (
    <>
      <dl className="summary card">
        <div>
          <dt>{t('payment.receiver')}</dt>
          <dd className="payment__receiver">{toDigits(tx.bkash_receiver_number, lng)}</dd>
        </div>
        <div>
          <dt>{t('play.amount')}</dt>
          <dd className="summary__amount">
            <Amount value={tx.amount_to_pay} lng={lng} />
          </dd>
        </div>
      </dl>
      <div className="alert alert--info payment__notice" role="note">
        <p>
          <strong>{t('payment.referenceTitle')}</strong>
        </p>
        <p>{t('payment.reference')}</p>
        {phone ? <p>{t('payment.yourPhone', { phone: toDigits(phone, lng) })}</p> : null}
      </div>
      <ol className="payment__steps">
        <li>{t('payment.step1')}</li>
        <li>
          {withElements((v) => t('payment.step2', v), {
            amount: <Amount value={tx.amount_to_pay} lng={lng} />,
            number: <strong>{toDigits(tx.bkash_receiver_number, lng)}</strong>,
          })}
        </li>
        <li>{t('payment.step3')}</li>
      </ol>
    </>
  );
}

/** Whether bKash's check of the typed TrxID has something to tell: while the purchase waits, or bKash confirmed it. */
const bkashSpoke = (tx: Purchase): boolean =>
  tx.status === 'pending' ? tx.bkash_check?.state !== 'left' : tx.status === 'success' && tx.bkash_check?.state === 'confirmed';

/** What bKash said of the TrxID the player typed (docs/rules/payments.md#9-send-money-confirmed-by-bkash). */
function TrxIdCheck({ tx }: { tx: Purchase }) {
  const { t } = useTranslation('lottery');
  const c = tx.bkash_check;
  if (!c) return null;
  const trx = c.trx_id;
  if (c.state === 'confirmed') return <Alert kind="success">{t('payment.trxCheck.confirmed', { trx })}</Alert>;
  if (c.state === 'checking') return <Alert kind="info">{t('payment.trxCheck.checking', { trx })}</Alert>;
  if (c.state === 'refused') {
    const reason = t(
      `payment.trxCheck.reason.${c.reason && (SEND_MONEY_REASONS as readonly string[]).includes(c.reason) ? c.reason : 'other'}`,
    );
    return <Alert kind="error">{t('payment.trxCheck.refused', { trx, reason })}</Alert>;
  }
  return <Alert kind="success">{t('payment.trxCheck.left', { trx })}</Alert>;
}

/** What became of the purchase's newest bKash checkout (docs/rules/payments.md#2-the-states-of-a-checkout-payment). */
function CheckoutOutcome({ tx }: { tx: Purchase }) {
  const { t } = useTranslation('lottery');
  const c = tx.checkout;
  if (!c) return null;
  const reason = t(`payment.checkout.reason.${c.reason && (REFUND_REASONS as readonly string[]).includes(c.reason) ? c.reason : 'other'}`);
  const buyAgain = (
    <p>
      <Link to={paths.buy(tx.lottery.id, tx.ticket)}>{t('payment.checkout.buyAgain')}</Link>
    </p>
  );
  switch (c.state) {
    case 'completed':
      return <Alert kind="success">{t('payment.checkout.confirmed', { trx: c.trx_id ?? '' })}</Alert>;
    case 'created':
      return tx.status === 'pending' ? <Alert kind="info">{t('payment.checkout.pending')}</Alert> : null;
    case 'cancelled':
    case 'failed':
    case 'expired':
      // A later payment of the same purchase may still be under way: the purchase's own state says.
      return tx.status === 'failed' ? (
        <>
          <Alert kind="error">{t(`payment.checkout.${c.state}`)}</Alert>
          {buyAgain}
        </>
      ) : null;
    case 'refund_due':
      return <Alert kind="info">{t('payment.checkout.refund_due', { reason })}</Alert>;
    case 'refunded':
      return <Alert kind="info">{t('payment.checkout.refunded', { reason, trx: c.refund_trx_id ?? '' })}</Alert>;
  }
}
