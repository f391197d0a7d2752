import type { Response } from 'express';
import type { TFunction } from 'i18next';
import { csvLine } from '../../shared/csv.ts';
import { CSV_COLUMNS, dhakaStamp, exportFileName } from '../../shared/generated-tickets/export.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { STAFF_SELECT, staffWhere, type GeneratedFilter, type StaffGeneratedRow } from './queries.ts';

/** Rows read from the database at a time: the file is written as it is read, never held whole in memory. */
export const EXPORT_BATCH = 1000;

/**
 * One generated ticket as a line of the file (docs/rules/tickets.md#8-deleting-and-exporting-generated-tickets). Names,
 * numbers and contacts go as text (a name starting with `=` is neutralised); price and prize as the numbers they are.
 */
const line = (g: StaffGeneratedRow): string =>
  csvLine([
    g.ticket_number,
    g.secret_number,
    g.l_name,
    g.l_ticket_price,
    g.l_total_prize,
    dhakaStamp(g.l_end_date),
    dhakaStamp(g.created_at),
    g.activated_at ? 'Yes' : 'No',
    g.activated_at ? [g.u_name, g.u_phone ?? g.u_email].filter(Boolean).join(' ') : '',
    g.activated_at ? dhakaStamp(g.activated_at) : '',
  ]);

/** Waits until the socket took what was written (back-pressure), or fails when the client went away. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', closed);
      resolve();
    };
    const closed = () => {
      res.off('drain', done);
      reject(new Error('the client closed the download'));
    };
    res.once('drain', done);
    res.once('close', closed);
  });
}

/**
 * Streams the CSV of the non-activated generated tickets of one lottery that match the staff's search: a UTF-8 byte
 * order mark (spreadsheets then read Bengali names right), the header, then one line per ticket by ascending id,
 * read EXPORT_BATCH at a time. Nothing to export is a 409 with the back office's message, before any byte is sent.
 */
export async function streamExport(
  db: Db,
  f: Omit<GeneratedFilter, 'activation' | 'lotteryId'> & { lotteryId: number },
  res: Response,
  t: TFunction,
  today: string,
): Promise<void> {
  const lottery = await db.one<{ name: string }>('SELECT name FROM lotteries WHERE id = $1', [f.lotteryId]);
  if (!lottery) throw ApiError.detail(404, t('api:lotteryNotFound'), 'not_found');
  const where = staffWhere({ ...f, activation: 'not_activated' });
  const first = await db.query<StaffGeneratedRow>(`${STAFF_SELECT} ${where.sql} AND g.id > $6 ORDER BY g.id LIMIT $7`, [
    ...where.params,
    0,
    EXPORT_BATCH,
  ]);
  if (!first.length) throw ApiError.detail(409, t('api:nothingToExport'), 'nothing_to_export');
  const name = exportFileName(lottery.name, today);
  res.set({
    'Content-Type': 'text/csv; charset=utf-8',
    // The ASCII name for old clients, the exact one (Bengali letters kept) for the rest.
    'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'Cache-Control': 'no-store',
  });
  res.status(200);
  let batch = first;
  let ok = res.write(`\ufeff${csvLine(CSV_COLUMNS)}`);
  for (;;) {
    for (const g of batch) ok = res.write(line(g)) && ok;
    if (!ok) await drained(res);
    ok = true;
    if (batch.length < EXPORT_BATCH) break;
    const last = batch[batch.length - 1]?.id ?? 0;
    batch = await db.query<StaffGeneratedRow>(`${STAFF_SELECT} ${where.sql} AND g.id > $6 ORDER BY g.id LIMIT $7`, [
      ...where.params,
      last,
      EXPORT_BATCH,
    ]);
    if (!batch.length) break;
  }
  res.end();
}
