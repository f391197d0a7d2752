import type { InputHTMLAttributes, ReactNode } from 'react';
import { formatNumber } from '../../shared/dates.ts';
import { Form, Link } from 'react-router';
import { Alert } from '../components/form.tsx';
import { useTranslation } from '../i18n.tsx';
import { Pager } from '../lotteries/pager.tsx';
import { pageCount, parsePage, type ListData } from '../lotteries/paging.ts';

export { listData, type ListData } from '../lotteries/paging.ts';

/** A filter's value from the query: one of `list`, else null (a hand-written address gets the list unfiltered). */
export const oneOf = <T extends string>(list: readonly T[], raw: string | null | undefined): T | null =>
  (list as readonly string[]).includes(raw ?? '') ? (raw as T) : null;

/**
 * The address of a back-office list: its filters as query parameters (empty ones, and the filters' "all", left out)
 * and the page (page 1 left out), so that every list writes its links the same way.
 */
export function adminHref(path: string, params: Record<string, string | number | null | undefined>, page = 1): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '' && v !== 'all') q.set(k, String(v));
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/**
 * Where a list stands, from its address: the search (trimmed, at most 100 characters), the page (`?page=`, at most
 * `maxPage`) and the slice of the list to ask the API for.
 */
export function listPlace(url: URL, perPage: number, maxPage = 10_000): { search: string; page: number; limit: number; offset: number } {
  const page = parsePage(url.searchParams.get('page'), maxPage);
  return { search: (url.searchParams.get('search') ?? '').trim().slice(0, 100), page, limit: perPage, offset: (page - 1) * perPage };
}

/** A back-office page's heading: its title, its lead, and the page's main action (or `children`) beside them. */
export function AdminPageHead({
  title,
  lead,
  action,
  children,
}: {
  title: string;
  lead?: ReactNode;
  action?: { to: string; label: string };
  children?: ReactNode;
}) {
  return (
    <header className="admin-page__head">
      <div>
        <h1>{title}</h1>
        {lead ? <p className="muted">{lead}</p> : null}
      </div>
      {action ? (
        <Link className="btn btn-primary" to={action.to}>
          {action.label}
        </Link>
      ) : null}
      {children}
    </header>
  );
}

/** A list's items as cards, one per item. */
export function AdminCards<T extends { id: number }>({
  items,
  className,
  card,
}: {
  items: T[];
  className?: string;
  card: (item: T) => ReactNode;
}) {
  return (
    <ul className={className ? `admin-cards ${className}` : 'admin-cards'}>
      {items.map((x) => (
        <li key={x.id}>{card(x)}</li>
      ))}
    </ul>
  );
}

/**
 * What every back-office list shows around its items: the load error with the hint to try later, the count, the empty
 * state ("nothing on this page" past the last page), the items as `children` renders them, and the pager.
 */
export function AdminResults<T>({
  d,
  perPage,
  href,
  count,
  empty,
  children,
}: {
  d: ListData<T>;
  perPage: number;
  href: (page: number) => string;
  /** The count line; "12 results" (the list's total) unless given. */
  count?: string;
  /** What an empty first page says. */
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  const {
    t,
    i18n: { language: lng },
  } = useTranslation('admin');
  if (d.items === null)
    return (
      <Alert kind="error">
        {t('common:errors.error', { message: d.error ?? t('common.loadFailed') })} {t('common.retryHint')}
      </Alert>
    );
  return (
    <>
      <p className="admin-count" aria-live="polite">
        {count ?? t('common.count', { count: d.total, n: formatNumber(d.total, lng) })}
      </p>
      {d.items.length === 0 ? (
        <p className="empty-state empty-state--card">{d.page > 1 ? t('common.pageEmpty') : empty}</p>
      ) : (
        children(d.items)
      )}
      <Pager page={d.page} pages={pageCount(d.total, perPage)} href={href} texts="admin:common" lng={lng} />
    </>
  );
}

/** A list's filter form: a GET form (the filters are the list's address, so it works without JavaScript) and Apply. */
export function AdminFilters({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  const { t } = useTranslation('admin');
  return (
    <Form method="get" className="admin-filters" role="search">
      {children}
      <button type="submit" className="btn btn-ghost">
        {t('common.apply')}
      </button>
      {extra}
    </Form>
  );
}

/** A text field of a filter form (by default the list's search). */
export function FilterInput({
  id,
  label,
  name = 'search',
  ...input
}: { id: string; label: string; name?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type={name === 'search' ? 'search' : 'text'} maxLength={100} {...input} />
    </div>
  );
}

/** A choice of a filter form; `any` is the label of the choice that filters nothing (value ''), when there is one. */
export function FilterSelect({
  id,
  label,
  name,
  value,
  options,
  any,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  options: readonly { value: string | number; label: string }[];
  any?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A back-office table: a focusable region that scrolls sideways on a narrow screen (by keyboard too), named by a
 * label or by the id of the heading above it, with one row of column headers; the rows are its children.
 */
export function AdminTable({
  label,
  labelledBy,
  className,
  columns,
  children,
}: {
  label?: string;
  labelledBy?: string;
  className?: string;
  columns: ReactNode[];
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label} aria-labelledby={labelledBy}>
      <table className={className ? `admin-table ${className}` : 'admin-table'}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One fact of a card's list (`<dl>`): its label and its value (`className` for the value: nowrap, admin-card__wrap…). */
export function Fact({ label, className, children }: { label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
