/**
 * The embedded database's rows read straight from PostgreSQL's wire bytes (server/db/pglite-rows.ts): every value in
 * place, null as null, text in any script, the columns in order; anything but rows (an error, a notice) or a row that
 * does not match its description is left to PGlite's parser (undefined).
 */
import { openLiteDb } from '../../server/db/pglite.ts';
import { readRows, type RowField } from '../../server/db/pglite-rows.ts';
import { types } from '@electric-sql/pglite';
import pg from 'pg';
import { isoOfTimestamptz, sharedParsers, TIMESTAMPTZ, type TextParser } from '../../server/db/types.ts';

const message = (code: string, payload: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(code, 0, 'latin1');
  head.writeUInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
};
const dataRow = (values: (string | null)[]) => {
  const parts = [Buffer.alloc(2)];
  parts[0]!.writeInt16BE(values.length);
  for (const v of values) {
    const len = Buffer.alloc(4);
    if (v === null) len.writeInt32BE(-1);
    else len.writeInt32BE(Buffer.byteLength(v));
    parts.push(len);
    if (v !== null) parts.push(Buffer.from(v));
  }
  return message('D', Buffer.concat(parts));
};
const cstring = (s: string) => Buffer.from(`${s}\0`);
const bindComplete = message('2', Buffer.alloc(0));
const complete = (tag: string) => message('C', cstring(tag));
const ready = message('Z', Buffer.from('I'));
const answer = (...parts: Buffer[]) => new Uint8Array(Buffer.concat(parts));

const fields: RowField[] = [
  { name: 'id', dataTypeID: 20 },
  { name: 'name', dataTypeID: 25 },
  { name: 'paid', dataTypeID: 16 },
];
/** What PGlite's parsers would make of each type, for the test: the type told beside the text. */
const parse = (text: string, type: number) => `${type}:${text}`;

test('rows in order, each value with its type, null as null, Bengali as it was written', () => {
  const raw = answer(bindComplete, dataRow(['1', 'রহিম উদ্দিন', 't']), dataRow(['2', null, 'f']), complete('SELECT 2'), ready);
  expect(readRows(raw, fields, parse)).toEqual([
    { id: '20:1', name: '25:রহিম উদ্দিন', paid: '16:t' },
    { id: '20:2', name: null, paid: '16:f' },
  ]);
  expect(Object.keys(readRows(raw, fields, parse)?.[0] ?? {})).toEqual(['id', 'name', 'paid']);
});

test('a view into a larger buffer is read from its own offset', () => {
  const inner = Buffer.concat([
    Buffer.from('junk'),
    bindComplete,
    dataRow(['7', 'x', 't']),
    complete('SELECT 1'),
    ready,
    Buffer.from('junk'),
  ]);
  const view = new Uint8Array(inner.buffer, inner.byteOffset + 4, inner.length - 8);
  expect(readRows(view, fields, parse)).toEqual([{ id: '20:7', name: '25:x', paid: '16:t' }]);
});

test('no rows: an empty list (a write without RETURNING, a SELECT that found none)', () => {
  expect(readRows(answer(bindComplete, complete('UPDATE 0'), ready), undefined, parse)).toEqual([]);
  expect(readRows(answer(bindComplete, complete('SELECT 0'), ready), fields, parse)).toEqual([]);
});

test('anything else is left to PGlite: an error, a notice, rows without a description or of another width, a cut answer', () => {
  const error = message('E', Buffer.concat([Buffer.from('SERROR\0'), Buffer.from('C23505\0'), Buffer.from('Mduplicate\0\0')]));
  const notice = message('N', Buffer.from('SNOTICE\0Mhello\0\0'));
  expect(readRows(answer(bindComplete, error, ready), fields, parse)).toBeUndefined();
  expect(readRows(answer(bindComplete, notice, complete('SELECT 0'), ready), fields, parse)).toBeUndefined();
  expect(readRows(answer(bindComplete, dataRow(['1', 'x', 't']), complete('SELECT 1'), ready), undefined, parse)).toBeUndefined();
  expect(readRows(answer(bindComplete, dataRow(['1', 'x']), complete('SELECT 1'), ready), fields, parse)).toBeUndefined();
  const whole = answer(bindComplete, dataRow(['1', 'x', 't']), complete('SELECT 1'), ready);
  expect(readRows(whole.subarray(0, whole.length - 3), fields, parse)).toBeUndefined();
});

describe('a timestamptz read as its ISO string (isoOfTimestamptz)', () => {
  test('the same string a Date of it gives, microseconds cut to milliseconds', () => {
    for (const text of [
      '2026-11-30 03:39:11.123999+00',
      '2026-11-30 03:39:11.1+00',
      '2026-11-30 03:39:11.12+00',
      '2026-11-30 03:39:11+00',
      '1999-12-31 23:59:59.999999+00',
      '2028-02-29 00:00:00.000001+00',
    ])
      expect(isoOfTimestamptz(text)).toBe(new Date(text).toISOString());
    expect(isoOfTimestamptz('2026-11-30 03:39:11.5+00')).toBe('2026-11-30T03:39:11.500Z');
  });

  test("anything else is left to the driver's own parser, as before: another offset, an early year, infinity", () => {
    const lite = sharedParsers((oid) => types.parsers[oid] as TextParser)[TIMESTAMPTZ] as TextParser;
    const node = sharedParsers((oid) => pg.types.getTypeParser(oid, 'text'))[TIMESTAMPTZ] as TextParser;
    for (const text of ['2026-11-30 09:39:11.123+06', '0999-01-01 00:00:00+00']) {
      expect(isoOfTimestamptz(text)).toBeUndefined();
      const v = lite(text);
      expect(v).toBeInstanceOf(Date);
      expect((v as Date).toISOString()).toBe(new Date(text).toISOString());
      expect(node(text)).toEqual(pg.types.getTypeParser(TIMESTAMPTZ, 'text')(text));
    }
    expect(lite('infinity')).toBe(Infinity);
    expect(lite('-infinity')).toBe(-Infinity);
    // Both drivers read the usual text the same way.
    expect(node('2026-11-30 03:39:11.123999+00')).toBe('2026-11-30T03:39:11.123Z');
  });

  test('the embedded database gives every timestamptz as that string', async () => {
    const db = await openLiteDb(undefined);
    try {
      const [row] = await db.query<{ a: unknown; b: unknown }>(
        `SELECT '2026-11-30 03:39:11.123456+00'::timestamptz AS a, $1::timestamptz AS b`,
        ['2026-01-02T03:04:05.678Z'],
      );
      expect(row).toEqual({ a: '2026-11-30T03:39:11.123Z', b: '2026-01-02T03:04:05.678Z' });
    } finally {
      await db.close();
    }
  });
});
