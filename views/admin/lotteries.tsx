import { Link, useActionData, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { NotifyBody } from '../../shared/draws/schemas.ts';
import { LOTTERY_FILTERS, type LotteryFilter, type StaffLottery } from '../../shared/lotteries/schemas.ts';
import { adminPaths } from '../../shared/paths.ts';
import { apiOf } from '../context.ts';
import { action as formAction, refuse } from '../components/action.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import type { FormResult } from '../components/form.tsx';
import { Head } from '../components/head.tsx';
import { key, msg } from '../components/messages.ts';
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
  oneOf,
  Fact,
} from './list.tsx';

type Row = z.output<typeof StaffLottery>;
export const PER_PAGE = 20;

const filterOf = (raw: string | null): LotteryFilter => oneOf(LOTTERY_FILTERS, raw) ?? 'all';

/** `?search=&filter=&page=` of the list, page 1, 'all' and an empty search left out. */
const listHref = (search: string, filter: LotteryFilter, page: number, notify?: number): string =>
  adminHref(adminPaths.lotteries, { search, filter, notify }, page);

/** /admin/lotteries: every lottery, searched, filtered and paged by the server (GET /api/v1/lotteries/). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const filter = filterOf(url.searchParams.get('filter'));
  const notice = url.searchParams.get('notice');
  // ?notify={id}: the confirmation of Notify Winners for that lottery (a dialog; a page of its own without JavaScript).
  const notify = Number(/^[1-9]\d{0,14}$/.exec(url.searchParams.get('notify') ?? '')?.[0] ?? 0) || null;
  const r = await apiOf(context).call(contract.staffLotteries, {
    query: { search: search || undefined, filter, limit, offset },
  });
  return { search, filter, notice: notice === 'created' || notice === 'saved' ? notice : null, notify, ...listData(r, page) };
}

/**
 * Notify Winners (docs/rules/lotteries-and-sales.md#9-the-draw): the confirmation's post. The server's message on
 * success (how many were sent), else its error, else 'Failed to notify winners'.
 */
export const action = formAction({
  prepare: (form) => (form.get('intent') === 'notify' ? undefined : refuse(key('admin:notify.failed'), 400)),
  schema: NotifyBody,
  call: (api, body) => api.call(contract.notifyWinners, { body }),
  fields: [],
  fix: key('admin:notify.failed'),
  failed: 'admin:notify.failed',
  done: (r) => ({ notice: r.detail || key('admin:notify.success') }) satisfies FormResult,
});

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const notified = useActionData<FormResult>();
  const here = listHref(d.search, d.filter, d.page);
  const confirming = d.notify !== null && !notified ? d.items?.find((l) => l.id === d.notify && l.is_result_published) : undefined;
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: t('lotteries.title') })} description={t('lotteries.lead')} />
      {d.notice ? <Notice text={t(`lotteries.${d.notice}`)} /> : null}
      {notified?.notice ? <Notice text={msg(t, notified.notice) ?? ''} /> : null}
      {notified?.formError ? <Notice kind="error" text={msg(t, notified.formError) ?? ''} /> : null}
      <AdminPageHead
        title={t('lotteries.title')}
        lead={t('lotteries.lead')}
        action={{ to: adminPaths.createLottery, label: t('lotteries.create') }}
      />
      <AdminFilters>
        <FilterInput id="lottery-search" label={t('lotteries.searchLabel')} defaultValue={d.search} />
        <FilterSelect
          id="lottery-filter"
          name="filter"
          label={t('common.filter')}
          value={d.filter}
          options={LOTTERY_FILTERS.map((f) => ({ value: f, label: t(`lotteries.filters.${f}`) }))}
        />
      </AdminFilters>
      <AdminResults d={d} perPage={PER_PAGE} href={(p) => listHref(d.search, d.filter, p)} empty={t('lotteries.empty')}>
        {(items) => (
          <AdminCards items={items} card={(l) => <LotteryCard l={l} lng={lng} notifyHref={listHref(d.search, d.filter, d.page, l.id)} />} />
        )}
      </AdminResults>
      {confirming ? (
        <ConfirmDialog
          titleId="notify-title"
          title={t('notify.title')}
          action={here}
          cancelHref={here}
          hidden={{ lottery_id: confirming.id }}
          intent="notify"
          confirm={t('notify.confirm')}
          cancel={t('notify.cancel')}
        >
          <p>{t('notify.text', { name: lng === 'bn' && confirming.name_bn ? confirming.name_bn : confirming.name })}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function LotteryCard({ l, lng, notifyHref }: { l: Row; lng: Language; notifyHref: string }) {
  const { t } = useTranslation('admin');
  const invalid = t('common:errors.invalidDate');
  return (
    <article className="card admin-card" aria-labelledby={`lottery-${l.id}`}>
      <header className="admin-card__head">
        <h2 id={`lottery-${l.id}`}>
          {l.name}
          {l.name_bn ? (
            <span className="admin-card__alt" lang="bn">
              {l.name_bn}
            </span>
          ) : null}
        </h2>
        <div className="admin-card__badges">
          <span className={`badge ${l.published ? 'badge--success' : 'badge--muted'}`}>
            {l.published ? t('lotteries.active') : t('lotteries.inactive')}
          </span>
          {l.featured ? <span className="badge badge--gold">{t('lotteries.featured')}</span> : null}
          <span className={`badge ${l.is_result_published ? 'badge--red' : 'badge--muted'}`}>
            {l.is_result_published ? t('lotteries.resultPublished') : t('lotteries.resultNotPublished')}
          </span>
        </div>
      </header>
      <dl className="admin-card__facts">
        <Fact label={t('lotteries.start')}>
          <DateTime value={l.start_date} lng={lng} withTime invalid={invalid} />
        </Fact>
        <Fact label={t('lotteries.end')}>
          <DateTime value={l.end_date} lng={lng} withTime invalid={invalid} />
        </Fact>
        <Fact label={t('lotteries.price')}>
          <Amount value={l.ticket_price} lng={lng} />
        </Fact>
        <Fact label={t('lotteries.prize')}>
          <Amount value={l.total_prize} lng={lng} />
        </Fact>
        <Fact label={t('lotteries.winners')}>{formatNumber(l.winners, lng)}</Fact>
        <Fact label={t('lotteries.sold')}>
          {t('lotteries.soldOf', { sold: formatNumber(l.tickets_sold, lng), total: formatNumber(l.total_tickets, lng) })}
        </Fact>
      </dl>
      <div className="admin-card__actions">
        <Link className="btn btn-ghost btn-sm" to={adminPaths.editLottery(l.id)}>
          {t('lotteries.edit')}
        </Link>
        {/* Enabled once the results are published; the link opens its confirmation (docs/rules/lotteries-and-sales.md#9-the-draw). */}
        {l.is_result_published ? (
          <Link className="btn btn-ghost btn-sm" to={notifyHref} preventScrollReset>
            {t('notify.button')}
          </Link>
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" disabled title={t('notify.unavailable')}>
            {t('notify.button')}
          </button>
        )}
        <Link className="btn btn-primary btn-sm" to={adminPaths.drawLottery(l.id)}>
          {t('lotteries.draw')}
        </Link>
      </div>
    </article>
  );
}
