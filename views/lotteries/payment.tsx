import { data, Form, Link, redirect, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { toDigits } from '../../shared/dates.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { paths } from '../../shared/paths.ts';
import { TrxIdBody } from '../../shared/purchases/schemas.ts';
import { apiOf } from '../context.ts';
import { action as formAction, idOf, pageStatus, refuse } from '../components/action.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Alert, Field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, withElements } from '../components/nowrap.tsx';
import { useTranslation } from '../i18n.tsx';
import { useRootData } from '../root.tsx';
import { TicketBalls } from './balls.tsx';

/**
 * /payment/{transactionId} (player group): where and how much to pay for a purchase, and the TrxID form
 * (docs/rules/lotteries-and-sales.md#7-buying-a-ticket). Another player's transaction is "not found", as the API says.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = idOf(params.transactionId);
  if (!id) return data({ tx: null, problem: null }, { status: 404 });
  const r = await apiOf(context).call(contract.myTransaction, { params: { id } });
  if (r.ok) return { tx: r.data, problem: null };
  if (r.status === 404) return data({ tx: null, problem: null }, { status: 404 });
  return data({ tx: null, problem: errorText(r.error, '') || null }, { status: pageStatus(r.status) });
}

/** The TrxID bKash sent the player: given once; a used or refused one comes back under the field. */
export const action = formAction({
  prepare: (_, { params }) => (idOf(params.transactionId) ? undefined : refuse(key('lottery:payment.notFound'), 404)),
  schema: TrxIdBody,
  call: (api, body, { params }) => api.call(contract.setTrxId, { params: { id: params.transactionId ?? '' }, body }),
  fields: ['trx_id', 'payment_number'],
  failed: 'lottery:payment.errors.failed',
  done: (tx) => redirect(paths.payment(tx.id), 303),
});

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
  const title = t('payment.title');
  return (
    <section className="section">
      <div className="container narrow payment">
        <Head title={t('common:title', { page: title })} description={t('payment.lead')} />
        <h1>{title}</h1>
        {!tx ? (
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
            </div>
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
              {user?.phone ? <p>{t('payment.yourPhone', { phone: toDigits(user.phone, lng) })}</p> : null}
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
            {tx.trx_id ? (
              <Alert kind="success">{t('payment.trxGiven', { trx: tx.trx_id })}</Alert>
            ) : tx.status !== 'pending' ? (
              <Alert kind="info">{t('payment.closed')}</Alert>
            ) : (
              <Form method="post" noValidate className="form card payment__form">
                <CsrfField />
                {result?.formError ? <Alert kind="error">{msg(t, result.formError)}</Alert> : null}
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
