import { data, Form, Link, useActionData, useLoaderData, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { errorText } from '../../shared/api-types.ts';
import { api as contract } from '../../shared/api/contract.ts';
import { CLAIM_STATUSES, PAYOUT_METHODS, type ClaimStatus, type PayoutMethod, type StaffClaim } from '../../shared/claims/schemas.ts';
import { formatNumber, toDigits, type Lng } from '../../shared/dates.ts';
import { lotteryName } from '../../shared/lotteries/names.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { CsrfField } from '../components/csrf-field.tsx';
import { field, SubmitButton, type FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import { adminHref, AdminFilters, AdminResults, AdminTable, FilterInput, FilterSelect } from './list.tsx';
import { parsePage } from '../lotteries/paging.ts';

type Row = z.output<typeof StaffClaim>;
type Result = FormResult & { done?: number };
export const PER_PAGE = 20;

const oneOf = <T extends string>(list: readonly T[], raw: string | null): T | null =>
  (list as readonly string[]).includes(raw ?? '') ? (raw as T) : null;

type Filters = { search: string; status: ClaimStatus | null; method: PayoutMethod | null };

const listHref = (f: Filters, page: number): string =>
  adminHref(adminPaths.prizeClaims, { search: f.search, status: f.status, payment_method: f.method }, page);

/**
 * /admin/prize-claims: every claim, searched, filtered and paged by the server, the summary over all of them, and
 * the transfer actions (docs/rules/lotteries-and-sales.md#11-prize-claims).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const f: Filters = {
    search: (url.searchParams.get('search') ?? '').trim().slice(0, 100),
    status: oneOf(CLAIM_STATUSES, url.searchParams.get('status')),
    method: oneOf(PAYOUT_METHODS, url.searchParams.get('payment_method')),
  };
  const page = parsePage(url.searchParams.get('page'), 10_000);
  const api = apiOf(context);
  const [r, summary] = await Promise.all([
    api.call(contract.staffClaims, {
      query: {
        search: f.search || undefined,
        status: f.status ?? undefined,
        payment_method: f.method ?? undefined,
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      },
    }),
    api.call(contract.claimsSummary),
  ]);
  const base = { f, page, here: listHref(f, page), summary: summary.ok ? summary.data : null };
  if (!r.ok) return { ...base, items: null, total: 0, error: errorText(r.error, '') || null };
  return { ...base, items: r.data, total: r.total ?? r.data.length, error: null };
}

/** Complete or fail a transfer: a plain form post per claim. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const id = field(form, 'claim');
  const intent = field(form, 'intent');
  if (!/^[1-9]\d{0,15}$/.test(id) || (intent !== 'complete' && intent !== 'fail'))
    return data<Result>({ formError: key('admin:claims.failed') }, { status: 400 });
  const endpoint = intent === 'complete' ? contract.completeTransfer : contract.failTransfer;
  const r = await apiOf(context).call(endpoint, { params: { id } });
  if (r.ok) return { done: r.data.id, notice: key('admin:claims.updated') } satisfies Result;
  return data<Result>({ formError: errorText(r.error, key('admin:claims.failed')) }, { status: r.status >= 500 ? 502 : r.status });
}

export function Component() {
  const {
    t,
    i18n: { language },
  } = useTranslation('admin');
  const lng = language as Lng;
  const d = useLoaderData<typeof loader>();
  const result = useActionData<Result>();
  const filtered = Boolean(d.f.search || d.f.status || d.f.method);
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('claims.title') })} description={t('claims.lead')} />
      {result?.notice ? <Notice text={msg(t, result.notice) ?? ''} /> : null}
      {result?.formError ? <Notice kind="error" text={msg(t, result.formError) ?? ''} /> : null}
      <header className="admin-page__head">
        <div>
          <h1>{t('claims.title')}</h1>
          <p className="muted">{t('claims.lead')}</p>
        </div>
        <Link className="btn btn-ghost" to={d.here} reloadDocument>
          {t('claims.refresh')}
        </Link>
      </header>
      {d.summary ? (
        <ul className="admin-stats">
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.totalClaims')}</span>
            <span className="admin-stat__value">{formatNumber(d.summary.total_claims, lng)}</span>
          </li>
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.totalAmount')}</span>
            <span className="admin-stat__value">
              <Amount value={d.summary.total_prize_amount} lng={lng} />
            </span>
          </li>
          <li className="card admin-stat">
            <span className="admin-stat__label">{t('claims.pendingTransfers')}</span>
            <span className="admin-stat__value">{formatNumber(d.summary.pending_transfers, lng)}</span>
          </li>
        </ul>
      ) : null}
      <details className="admin-filter-panel" open={filtered}>
        <summary className="btn btn-ghost">{t('common.filter')}</summary>
        <AdminFilters
          extra={
            <Link className="btn btn-ghost" to={adminPaths.prizeClaims}>
              {t('claims.clearFilters')}
            </Link>
          }
        >
          <FilterInput id="claim-search" label={t('claims.searchLabel')} defaultValue={d.f.search} />
          <FilterSelect
            id="claim-status"
            name="status"
            label={t('claims.status')}
            value={d.f.status ?? ''}
            any={t('claims.all')}
            options={CLAIM_STATUSES.map((s) => ({ value: s, label: t(`claims.statuses.${s}`) }))}
          />
          <FilterSelect
            id="claim-method"
            name="payment_method"
            label={t('claims.method')}
            value={d.f.method ?? ''}
            any={t('claims.all')}
            options={PAYOUT_METHODS.map((m) => ({ value: m, label: t(`claims.methods.${m}`) }))}
          />
        </AdminFilters>
      </details>
      <AdminResults
        d={d}
        perPage={PER_PAGE}
        href={(p) => listHref(d.f, p)}
        count={t('common.count', { count: d.total, n: formatNumber(d.total, lng) })}
        empty={t('claims.empty')}
        lng={lng}
      >
        {(items) => (
          <AdminTable
            label={t('claims.title')}
            columns={[t('claims.player'), t('claims.prize'), t('claims.payTo'), t('claims.status'), t('claims.date'), t('claims.transfer')]}
          >
            {items.map((c) => (
              <ClaimRow key={c.id} c={c} lng={lng} />
            ))}
          </AdminTable>
        )}
      </AdminResults>
    </section>
  );
}

function ClaimRow({ c, lng }: { c: Row; lng: Lng }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  return (
    <tr>
      <td>
        <strong>{c.user.name}</strong>
        <br />
        {c.user.phone ? toDigits(c.user.phone, lng) : na}
        {c.user.email ? (
          <>
            <br />
            {c.user.email}
          </>
        ) : null}
      </td>
      <td>
        {lotteryName(c.prize.lottery, lng)}
        <br />
        <span className="nowrap">{toDigits(c.prize.ticket, lng)}</span>
        <br />
        <Amount value={c.prize.prize_money} lng={lng} />
      </td>
      <td>
        {c.payment_method ? (
          <>
            {t(`claims.methods.${c.payment_method}`)}: <span className="nowrap">{toDigits(c.account_number, lng)}</span>
            <br />
            {c.account_holder_name}
            {c.payment_method === 'bank' ? (
              <>
                <br />
                {c.bank_name}, {c.branch_name}
              </>
            ) : null}
          </>
        ) : (
          na
        )}
      </td>
      <td>
        <span className={`badge badge--claim-${c.status}`}>{t(`claims.statuses.${c.status}`)}</span>
      </td>
      <td>
        <DateTime value={c.submitted_at ?? c.created_at} lng={lng} withTime invalid={t('common:errors.invalidDate')} />
      </td>
      <td>
        {c.status === 'payment_info_submitted' ? (
          <Form method="post" className="admin-row-actions">
            <CsrfField />
            <input type="hidden" name="claim" value={c.id} />
            <SubmitButton name="intent" value="complete" className="btn btn-primary btn-sm">
              {t('claims.complete')}
            </SubmitButton>
            <SubmitButton name="intent" value="fail" className="btn btn-ghost btn-sm">
              {t('claims.markFailed')}
            </SubmitButton>
          </Form>
        ) : c.status === 'transfer_completed' ? (
          <span className="admin-done">{t('claims.done')}</span>
        ) : (
          <span className="muted">{na}</span>
        )}
      </td>
    </tr>
  );
}
