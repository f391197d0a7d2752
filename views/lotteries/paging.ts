import { errorText, type ApiResult } from '../../shared/api-types.ts';

/** Page numbers in addresses (`?page=2`): anything that is not a whole number ≥ 1 is page 1. */
export function parsePage(raw: string | null | undefined, max = 100_000): number {
  const v = (raw ?? '').trim();
  if (!/^\d{1,9}$/.test(v)) return 1;
  const n = Number(v);
  return n < 1 ? 1 : Math.min(n, max);
}

/** How many pages `total` items fill, at least one (an empty list still has its first page). */
export const pageCount = (total: number, perPage: number): number => Math.max(1, Math.ceil(Math.max(0, total) / perPage));

/** `?page=N&pick=ID` as a page's own links write it: page 1 and no pick are left out. */
export function listHref(path: string, page: number, pick?: number | null): string {
  const q = new URLSearchParams();
  if (page > 1) q.set('page', String(page));
  if (pick) q.set('pick', String(pick));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** What a list page's loader hands to its list: the page of items (null when the API refused), its total and error. */
export type ListData<T> = { items: T[] | null; total: number; page: number; error: string | null };

/** A paged list's answer as its page shows it: the items and their total, or the API's refusal. */
export function listData<T>(r: ApiResult<T[]>, page: number): ListData<T> {
  return r.ok
    ? { items: r.data, total: r.total ?? r.data.length, page, error: null }
    : { items: null, total: 0, page, error: errorText(r.error, '') || null };
}
