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
