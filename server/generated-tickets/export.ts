import { refuse } from '../../shared/api/refusals.ts';
import { csvLine } from '../../shared/csv.ts';
import { CSV_COLUMNS, dhakaStamp, exportFileName } from '../../shared/generated-tickets/export.ts';
import type { Db } from '../db/index.ts';
import type { FileAnswer } from '../http/route.ts';
import type { Keyring } from '../crypto/sealed.ts';
import { secretOf } from './service.ts';
import { STAFF_SELECT, staffWhere, type GeneratedFilter, type StaffGeneratedRow } from './queries.ts';

/** Rows read from the database at a time: the file is written as it is read, never held whole in memory. */
export const EXPORT_BATCH = 1000;

/**
 * One generated ticket as a line of the file (docs/rules/tickets.md#8-deleting-and-exporting-generated-tickets), its secret
 * opened from its sealed form. Names, numbers and contacts go as text (a name starting with `=` is neutralised); price
 * and prize as the numbers they are.
 */
const line = (keys: Keyring, g: StaffGeneratedRow): string =>
  csvLine([
    g.ticket_number,
    secretOf(keys, g),
    g.l_name,
    g.l_ticket_price,
    g.l_total_prize,
    dhakaStamp(g.l_end_date),
    dhakaStamp(g.created_at),
    g.activated_at ? 'Yes' : 'No',
    g.activated_at ? [g.u_name, g.u_phone ?? g.u_email].filter(Boolean).join(' ') : '',
    g.activated_at ? dhakaStamp(g.activated_at) : '',
  ]);

/**
 * The CSV of the non-activated generated tickets of one lottery that match the staff's search: a UTF-8 byte order
 * mark (spreadsheets then read Bengali names right), the header, then one line per ticket by ascending id, read
 * EXPORT_BATCH at a time as the file is sent (never held whole in memory). Nothing to export is a 409 with the back
 * office's message, before any byte is sent.
 */
export async function exportFile(
  db: Db,
  keys: Keyring,
  f: Omit<GeneratedFilter, 'activation' | 'lotteryId'> & { lotteryId: number },
  today: string,
): Promise<FileAnswer> {
  const lottery = await db.one<{ name: string }>('SELECT name FROM lotteries WHERE id = $1', [f.lotteryId]);
  if (!lottery) refuse('export_lottery_not_found');
  const where = staffWhere({ ...f, activation: 'not_activated' });
  const batchAfter = (last: number) =>
    db.query<StaffGeneratedRow>(`${STAFF_SELECT} ${where.sql} AND g.id > $6 ORDER BY g.id LIMIT $7`, [...where.params, last, EXPORT_BATCH]);
  const first = await batchAfter(0);
  if (!first.length) refuse('nothing_to_export');
  const name = exportFileName(lottery.name, today);
  async function* lines(): AsyncIterable<string> {
    yield `\ufeff${csvLine(CSV_COLUMNS)}`;
    let batch = first;
    for (;;) {
      yield batch.map((g) => line(keys, g)).join('');
      if (batch.length < EXPORT_BATCH) return;
      batch = await batchAfter(batch[batch.length - 1]?.id ?? 0);
      if (!batch.length) return;
    }
  }
  return {
    file: {
      headers: {
        'Content-Type': 'text/csv; charset=utf-8',
        // The ASCII name for old clients, the exact one (Bengali letters kept) for the rest.
        'Content-Disposition': `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'Cache-Control': 'no-store',
      },
      body: lines(),
    },
  };
}
