import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { api as contract } from '../../shared/api/contract.ts';
import { formatNumber, toDigits } from '../../shared/dates.ts';
import type { Language } from '../../shared/i18n.ts';
import { adminPaths } from '../../shared/paths.ts';
import { USER_FILTERS, type StaffUser, type UserFilter } from '../../shared/users/schemas.ts';
import { apiOf } from '../context.ts';
import { Head } from '../components/head.tsx';
import { Amount, DateTime } from '../components/nowrap.tsx';
import { Notice } from '../components/toast.tsx';
import { useTranslation } from '../i18n.tsx';
import {
  AdminFilters,
  adminHref,
  AdminPageHead,
  AdminResults,
  AdminTable,
  FilterInput,
  FilterSelect,
  listData,
  listPlace,
  oneOf,
} from './list.tsx';

type Row = z.output<typeof StaffUser>;
export const PER_PAGE = 20;

const filterOf = (raw: string | null): UserFilter => oneOf(USER_FILTERS, raw) ?? 'all';

/** `?search=&filter=&page=` of the list, page 1, 'all' and an empty search left out. */
const listHref = (search: string, filter: UserFilter, page: number): string => adminHref(adminPaths.users, { search, filter }, page);

/**
 * A user's short id, as the table shows it beside his name. The spec shows the first 8 characters of an id; ours are
 * whole numbers, shown whole with a `#` (docs/decisions/018-staff-users-and-transactions.md).
 */
export const shortId = (id: number, lng: Language): string => `#${toDigits(String(id).slice(0, 8), lng)}`;

/** /admin/users: every user, searched, filtered and paged by the server (GET /api/v1/admin-users/). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { search, page, limit, offset } = listPlace(url, PER_PAGE);
  const filter = filterOf(url.searchParams.get('filter'));
  const notice = url.searchParams.get('notice');
  const r = await apiOf(context).call(contract.staffUsers, {
    query: { search: search || undefined, filter, limit, offset },
  });
  return { search, filter, notice: notice === 'created' || notice === 'updated' ? notice : null, ...listData(r, page) };
}

export function Component() {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  const d = useLoaderData<typeof loader>();
  const title = t('users.title');
  return (
    <section className="admin-page">
      <Head title={t('common:title', { page: title })} description={t('users.lead')} />
      {d.notice ? <Notice text={t(`users.${d.notice}`)} /> : null}
      <AdminPageHead title={title} lead={t('users.lead')} action={{ to: adminPaths.newUser, label: t('users.create') }} />
      <AdminFilters>
        <FilterInput id="user-search" label={t('users.searchLabel')} defaultValue={d.search} />
        <FilterSelect
          id="user-filter"
          name="filter"
          label={t('common.filter')}
          value={d.filter}
          options={USER_FILTERS.map((f) => ({ value: f, label: t(`users.filters.${f}`) }))}
        />
      </AdminFilters>
      <AdminResults
        d={d}
        perPage={PER_PAGE}
        href={(p) => listHref(d.search, d.filter, p)}
        count={t('users.count', { count: d.total, n: formatNumber(d.total, lng) })}
        empty={t('users.empty')}
      >
        {(items) => (
          <AdminTable
            label={t('users.tableLabel')}
            className="admin-users"
            columns={[
              t('users.name'),
              t('users.email'),
              t('users.phone'),
              t('users.status'),
              t('users.prizeMoney'),
              t('users.dateJoined'),
              t('users.actions'),
            ]}
          >
            {items.map((u) => (
              <UserRow key={u.id} u={u} lng={lng} />
            ))}
          </AdminTable>
        )}
      </AdminResults>
    </section>
  );
}

function UserRow({ u, lng }: { u: Row; lng: Language }) {
  const { t } = useTranslation('admin');
  const na = t('common.notAvailable');
  return (
    <tr>
      <td>
        <span className="admin-users__name">{u.name}</span>
        <span className="admin-users__id">{shortId(u.id, lng)}</span>
      </td>
      <td className="admin-card__wrap">
        {u.email ?? na}
        {u.email && u.email_confirmed ? <span className="admin-users__confirmed">{t('users.confirmed')}</span> : null}
      </td>
      <td className="nowrap">
        {u.phone ? toDigits(u.phone, lng) : na}
        {u.phone && u.phone_confirmed ? <span className="admin-users__confirmed">{t('users.confirmed')}</span> : null}
      </td>
      <td>
        <div className="admin-card__badges">
          <span className={`badge ${u.is_active ? 'badge--success' : 'badge--muted'}`}>
            {u.is_active ? t('users.active') : t('users.inactive')}
          </span>
          {u.is_staff ? <span className="badge badge--gold">{t('users.staff')}</span> : null}
          {u.is_superuser ? <span className="badge badge--red">{t('users.superuser')}</span> : null}
        </div>
      </td>
      <td>
        <Amount value={u.prize_money} lng={lng} />
      </td>
      <td>
        <DateTime value={u.date_joined} lng={lng} invalid={t('common:errors.invalidDate')} />
      </td>
      <td>
        <Link className="btn btn-ghost btn-sm" to={adminPaths.editUser(u.id)} aria-label={t('users.editNamed', { name: u.name })}>
          {t('users.edit')}
        </Link>
      </td>
    </tr>
  );
}
