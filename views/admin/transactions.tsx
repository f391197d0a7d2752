import { data, Form, useActionData, useLoaderData, useNavigation, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, type Lng } from '../../shared/dates.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { formatTaka } from '../../shared/money.ts';
import { TRANSACTION_STATUSES, type StaffTransaction, type TransactionStatus } from '../../shared/purchases/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import { adminHref, AdminFilters, AdminResults, FilterInput, FilterSelect } from './list.tsx';
import { parsePage } from '../lotteries/paging.ts';

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

/** What a posted status change did: a notice (its key) or the API's message, for the card it was about. */
type Result = { id: string; notice: 'updated' | 'rejected' | null; error: string | null; at: number };

const filterOf = (raw: string | null): StatusFilter => ((FILTERS as readonly string[]).includes(raw ?? '') ? (raw as StatusFilter) : 'all');
const idOf = (raw: unknown): string | null => (typeof raw === 'string' && /^[1-9]\d{0,14}$/.test(raw) ? raw : null);

/** `?search=&status=&page=` of the list, page 1, 'all' and an empty search left out. */
const listHref = (search: string, status: StatusFilter, page: number): string =>
  adminHref(adminPaths.transactions, { search, status }, page);

/** /admin/transactions: every transaction, searched, filtered by status and paged by the server (GET /api/v1/transactions/). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const search = (url.searchParams.get('search') ?? '').trim().slice(0, 100);
  const status = filterOf(url.searchParams.get('status'));
  const page = parsePage(url.searchParams.get('page'), 10_000);
  const r = await apiOf(context).call(contract.transactions, {
    query: { search: search || undefined, status: status === 'all' ? undefined : status, limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
  });
  const base = { search, status, page };
  if (!r.ok) return { ...base, items: null, total: 0, error: errorText(r.error, '') || null };
  return { ...base, items: r.data, total: r.total ?? r.data.length, error: null };
}

/** A status change posted by a card's button (PUT /api/v1/transactions/{id}/); the list is loaded again after it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = idOf(form.get('id'));
  const status = form.get('status');
  const at = Date.now();
  if (!id || !(TRANSACTION_STATUSES as readonly unknown[]).includes(status))
    return data<Result>({ id: id ?? '', notice: null, error: null, at }, { status: 400 });
  const to = status as TransactionStatus;
  const r = await apiOf(context).call(contract.updateTransaction, { params: { id }, body: { status: to } });
  if (r.ok) return { id, notice: to === 'failed' ? 'rejected' : 'updated', error: null, at } satisfies Result;
  return data<Result>({ id, notice: null, error: errorText(r.error, '') || null, at }, { status: r.status >= 500 ? 502 : r.status });
}

export function Component() {
  const {
    t,
    i18n: { language },
  } = useTranslation('admin');
  const lng = language as Lng;
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const title = t('transactions.title');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={t('transactions.lead')} />
      {/* key: every change is a toast of its own, even with the same words as the one before */}
      {result?.notice ? <Notice key={result.at} text={t(`transactions.${result.notice}`)} /> : null}
      {result && !result.notice ? <Notice key={result.at} kind="error" text={result.error ?? t('transactions.updateFailed')} /> : null}
      <header className="admin-page__head">
        <div>
          <h1>{title}</h1>
          <p className="muted">{t('transactions.lead')}</p>
        </div>
      </header>
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
        {(items) => (
          <ul className="admin-cards">
            {items.map((x) => (
              <li key={x.id}>
                <TransactionCard x={x} lng={lng} />
              </li>
            ))}
          </ul>
        )}
      </AdminResults>
    </section>
  );
}

function TransactionCard({ x, lng }: { x: Row; lng: Lng }) {
  const { t } = useTranslation('admin');
  const nav = useNavigation();
  // Every action button waits while a change is on its way (the list is then loaded again).
  const busy = nav.state !== 'idle' && nav.formMethod?.toUpperCase() === 'POST';
  const mine = busy && nav.formData?.get('id') === String(x.id);
  const invalid = t('common:errors.invalidDate');
  const na = t('common.notAvailable');
  const priceDiffers = x.amount !== x.lottery.ticket_price;
  // After the draw only an unpaid ticket may still be rejected; an activated generated ticket keeps its status
  // (docs/rules/lotteries-and-sales.md#8-transaction-states); the API says why for anything else.
  // Approval needs the TrxID the payment is checked against: without one, a pending card offers Reject only.
  const needsTrxId = x.status === 'pending' && x.trx_id === null && x.transaction_type !== 'activation';
  const actions =
    x.transaction_type === 'activation'
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
