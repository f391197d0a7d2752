import { Form, useActionData, useLoaderData, useNavigation, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { formatTaka } from '../../shared/money.ts';
import { StatusBody, TRANSACTION_STATUSES, type StaffTransaction, type TransactionStatus } from '../../shared/purchases/schemas.ts';
import { IdParams } from '../../shared/lotteries/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { submit } from '../components/action.ts';
import type { FormResult } from '../components/form.tsx';
import { key, msg } from '../components/messages.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import {
  AdminCards,
  AdminFilters,
  adminHref,
  AdminPageHead,
  AdminResults,
  FilterInput,
  FilterSelect,
  listData,
  listPlace,
} from './list.tsx';

type Row = z.output<typeof StaffTransaction>;
type StatusFilter = 'all' | TransactionStatus;
export const PER_PAGE = 20;
const FILTERS: readonly StatusFilter[] = ['all', ...TRANSACTION_STATUSES];

/**
 * The staff actions of each status (docs/rules/lotteries-and-sales.md#8-transaction-states): the status a button
 * asks for and its label's key.
 */
const ACTIONS: Record<TransactionStatus, readonly { to: TransactionStatus; label: string; kind: 'primary' | 'danger' | 'ghost' }[]> = {
  pending: [
    { to: 'success', label: 'approve', kind: 'primary' },
    { to: 'failed', label: 'reject', kind: 'danger' },
  ],
  success: [{ to: 'pending', label: 'removeApproval', kind: 'ghost' }],
  failed: [{ to: 'pending', label: 'moveToPending', kind: 'ghost' }],
};

/** What a posted status change did: a notice or the API's message; `at` makes each one a toast of its own. */
type Result = FormResult & { at: number };
/** A card's button: the transaction (the id of the API's address) and the status it asks for. */
const StatusForm = z.object({ id: IdParams.shape.id, status: StatusBody.shape.status });

const filterOf = (raw: string | null): StatusFilter => ((FILTERS as readonly string[]).includes(raw ?? '') ? (raw as StatusFilter) : 'all');

/** `?search=&status=&page=` of the list, page 1, 'all' and an empty search left out. */
const listHref = (search: string, status: StatusFilter, page: number): string =>
  adminHref(adminPaths.transactions, { search, status }, page);

/** /admin/transactions: every transaction, searched, filtered by status and paged by the server (GET /api/v1/transactions/). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const status = filterOf(url.searchParams.get('status'));
  const r = await apiOf(context).call(contract.transactions, {
    query: { search: search || undefined, status: status === 'all' ? undefined : status, limit, offset },
  });
  return { search, status, ...listData(r, page) };
}

/** A status change posted by a card's button (PUT /api/v1/transactions/{id}/); the list is loaded again after it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const at = Date.now();
  const s = await submit(await request.formData(), context, {
    schema: StatusForm,
    call: (api, { id, status }) => api.call(contract.updateTransaction, { params: { id: String(id) }, body: { status } }),
    fields: [],
    fix: key('admin:transactions.updateFailed'),
    failed: 'admin:transactions.updateFailed',
    extra: { at },
  });
  if (!s.ok) return s.reply;
  return { notice: key(s.input.status === 'failed' ? 'admin:transactions.rejected' : 'admin:transactions.updated'), at } satisfies Result;
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const title = t('transactions.title');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={t('transactions.lead')} />
      {/* key: every change is a toast of its own, even with the same words as the one before */}
      {result?.notice ? <Notice key={result.at} text={msg(t, result.notice) ?? ''} /> : null}
      {result?.formError ? <Notice key={result.at} kind="error" text={msg(t, result.formError) ?? ''} /> : null}
      <AdminPageHead title={title} lead={t('transactions.lead')} />
      <AdminFilters>
        <FilterInput id="transaction-search" label={t('transactions.searchLabel')} defaultValue={d.search} />
        <FilterSelect
          id="transaction-status"
          name="status"
          label={t('transactions.statusLabel')}
          value={d.status}
          options={FILTERS.map((f) => ({ value: f, label: t(`transactions.filters.${f}`) }))}
        />
      </AdminFilters>
      <AdminResults
        d={d}
        perPage={PER_PAGE}
        href={(p) => listHref(d.search, d.status, p)}
        count={t('transactions.count', { count: d.total, n: formatNumber(d.total, lng) })}
        empty={t('transactions.empty')}
        lng={lng}
      >
        {(items) => <AdminCards items={items} card={(x) => <TransactionCard x={x} lng={lng} />} />}
      </AdminResults>
    </section>
  );
}

function TransactionCard({ x, lng }: { x: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  const nav = useNavigation();
  // Every action button waits while a change is on its way (the list is then loaded again).
  const busy = nav.state !== 'idle' && nav.formMethod?.toUpperCase() === 'POST';
  const mine = busy && nav.formData?.get('id') === String(x.id);
  const invalid = t('common:errors.invalidDate');
  const na = t('common.notAvailable');
  const priceDiffers = x.amount !== x.lottery.ticket_price;
  // After the draw only an unpaid ticket may still be rejected; an activated generated ticket keeps its status
  // (docs/rules/lotteries-and-sales.md#8-transaction-states), and so does a ticket bKash confirmed
  // (docs/rules/payments.md#1-who-may-do-what); the API says why for anything else.
  // Approval needs the TrxID the payment is checked against: without one, a pending card offers Reject only.
  const needsTrxId = x.status === 'pending' && x.trx_id === null && x.transaction_type !== 'activation';
  const actions =
    x.transaction_type === 'activation' ||
    (x.status === 'success' && (x.checkout?.state === 'completed' || x.bkash_check?.state === 'confirmed'))
      ? []
      : (x.lottery.is_result_published || needsTrxId) && x.status === 'pending'
        ? ACTIONS.pending.filter((a) => a.to === 'failed')
        : ACTIONS[x.status];
  const heading = `transaction-${x.id}`;
  return (
    <article className="card admin-card" aria-labelledby={heading}>
      <header className="admin-card__head">
        <h2 id={heading}>
          {x.user.name}
          <span className="admin-card__alt">{lotteryName(x.lottery, lng)}</span>
        </h2>
        <div className="admin-card__badges">
          <span className={`badge badge--${x.status}`}>{t(`transactions.statuses.${x.status}`)}</span>
          {x.transaction_type === 'activation' ? <span className="badge badge--muted">{t('transactions.activation')}</span> : null}
          {x.checkout ? <span className="badge badge--muted">{t('transactions.checkout')}</span> : null}
          {x.statement ? <span className="badge badge--muted">{t('transactions.sendMoney')}</span> : null}
          {x.lottery.is_result_published ? <span className="badge badge--muted">{t('transactions.drawn')}</span> : null}
        </div>
      </header>
      <dl className="admin-card__facts">
        <div>
          <dt>{t('transactions.phone')}</dt>
          <dd>{x.user.phone ?? na}</dd>
        </div>
        <div>
          <dt>{t('transactions.email')}</dt>
          <dd className="admin-card__wrap">{x.user.email ?? na}</dd>
        </div>
        <div>
          <dt>{t('transactions.ticket')}</dt>
          <dd className="nowrap">{x.ticket}</dd>
        </div>
        <div>
          <dt>{t('transactions.amount')}</dt>
          <dd>
            <Amount value={x.amount} lng={lng} />
            {priceDiffers ? (
              <span className="admin-flag">{t('transactions.priceDiffers', { price: formatTaka(x.lottery.ticket_price, lng) })}</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{t('transactions.trxId')}</dt>
          <dd>
            {x.trx_id ? (
              <span className="admin-card__wrap">{x.trx_id}</span>
            ) : (
              <span className="admin-flag">{t('transactions.noTrxId')}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('transactions.bkashNumber')}</dt>
          <dd>{x.payment_number || na}</dd>
        </div>
        {x.checkout ? (
          <div>
            <dt>{t('transactions.checkoutState')}</dt>
            <dd>
              {t(`transactions.checkoutStates.${x.checkout.state}`)}
              {x.checkout.refund_trx_id ? (
                <span className="admin-card__wrap"> · {t('transactions.refundTrxId', { trx: x.checkout.refund_trx_id })}</span>
              ) : null}
              <span className="admin-card__wrap muted"> · {t('transactions.paymentId', { id: x.checkout.payment_id })}</span>
            </dd>
          </div>
        ) : null}
        {x.statement ? (
          <div>
            <dt>{t('transactions.statement')}</dt>
            <dd>
              {x.statement === 'flagged' || x.statement === 'review' ? (
                <span className="admin-flag">{t(`transactions.statementStates.${x.statement}`)}</span>
              ) : (
                t(`transactions.statementStates.${x.statement}`)
              )}
            </dd>
          </div>
        ) : null}
        {x.bkash_check ? <BkashCheck check={x.bkash_check} lng={lng} /> : null}
        <div>
          <dt>{t('transactions.date')}</dt>
          <dd>
            <DateTime value={x.created_at} lng={lng} withTime invalid={invalid} />
          </dd>
        </div>
      </dl>
      {actions.length ? (
        <Form method="post" className="admin-card__actions" aria-label={t('transactions.actionsFor', { name: x.user.name })}>
          <CsrfField />
          <input type="hidden" name="id" value={x.id} />
          {needsTrxId && !x.lottery.is_result_published ? <p className="muted">{t('transactions.approveNeedsTrxId')}</p> : null}
          {actions.map((a) => (
            <button
              key={a.to}
              type="submit"
              name="status"
              value={a.to}
              className={`btn btn-${a.kind} btn-sm`}
              disabled={busy}
              aria-busy={mine && nav.formData?.get('status') === a.to ? true : undefined}
            >
              {t(`transactions.actions.${a.label}`)}
            </button>
          ))}
        </Form>
      ) : null}
    </article>
  );
}

type Check = NonNullable<Row['bkash_check']>;

/**
 * What bKash answered about the TrxID the player typed (docs/rules/payments.md#9-send-money-confirmed-by-bkash): the
 * check's state and reason, and bKash's own words, so that staff see why a purchase was or was not confirmed.
 */
function BkashCheck({ check, lng }: { check: Check; lng: Language }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  const a = check.answer;
  const flagged = check.state === 'refused' || check.state === 'left';
  const state = t(`transactions.bkashCheckStates.${check.state}`);
  const reason = check.reason ? t(`transactions.bkashCheckReasons.${check.reason}`, { defaultValue: check.reason }) : null;
  return (
    <div>
      <dt>{t('transactions.bkashCheck')}</dt>
      <dd>
        {flagged ? <span className="admin-flag">{state}</span> : state}
        {reason ? <span className="admin-card__wrap"> · {reason}</span> : null}
        {a ? (
          <span className="admin-card__wrap muted">
            {' · '}
            {t('transactions.bkashAnswer', { status: a.transactionStatus, from: a.customerMsisdn ?? na, to: a.receiver ?? na })}
            {' · '}
            {a.amount === null ? na : <Amount value={a.amount} lng={lng} />}
            {' · '}
            {a.completedTime ? <DateTime value={a.completedTime} lng={lng} withTime invalid={t('common:errors.invalidDate')} /> : na}
          </span>
        ) : null}
      </dd>
    </div>
  );
}
