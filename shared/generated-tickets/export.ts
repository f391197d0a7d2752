/**
 * The CSV export of generated tickets (docs/rules/tickets.md#8-deleting-and-exporting-generated-tickets): columns and
 * file name, written once for the server that makes the file and the page that links to it. Its cells are written by
 * shared/csv.ts, like every CSV file of the product.
 */

/** The columns, in order. */
export const CSV_COLUMNS = [
  'Ticket Number',
  'Secret Key',
  'Lottery Name',
  'Ticket Price',
  'Total Prize',
  'Draw Date',
  'Created Date',
  'Is Activated',
  'Activated By',
  'Activated At',
] as const;

/** `bhagya-tickets-<lottery name with spaces as dashes>-<YYYY-MM-DD>.csv`; characters a file name cannot hold are dropped. */
export function exportFileName(lotteryName: string, dhakaDate: string): string {
  const name = lotteryName
    .trim()
    .replace(/\s+/g, '-')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]/g, '');
  return `bhagya-tickets-${name || 'lottery'}-${dhakaDate}.csv`;
}

/** The secret number in groups of four (`1234 5678 1234 5678`), after spaces and dashes are removed. */
export const secretGroups = (secret: string): string =>
  secret
    .replace(/[\s-]/g, '')
    .replace(/(.{4})(?=.)/g, '$1 ')
    .trim();

/**
 * Where the page's Export button points: the API's download through the page server's /bff proxy, which adds the
 * staff member's token from his session cookie (a plain link: it works without JavaScript).
 */
export function exportHref(o: { lotteryId: number; search: string }): string {
  const q = new URLSearchParams({ lottery_id: String(o.lotteryId) });
  if (o.search) q.set('search', o.search);
  return `/bff/api/v1/generated-tickets/export/?${q.toString()}`;
}

const DHAKA_OFFSET_MS = 6 * 3600 * 1000;

/** An instant as Dhaka wall-clock time, `YYYY-MM-DD HH:MM` (what a spreadsheet reads as a date and time). */
export function dhakaStamp(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  return new Date(ms + DHAKA_OFFSET_MS).toISOString().slice(0, 16).replace('T', ' ');
}
