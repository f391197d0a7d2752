/**
 * Reading the bKash merchant statement (server/payments/statement-parser.ts, docs/rules/payments.md "Reading the bKash
 * statement"): the realistic exports in tests/fixtures/bkash-statement, CSV edge cases, limits and hostile cells.
 */
import { readFileSync } from 'node:fs';
import {
  readAmount,
  readDateTime,
  readSender,
  readStatement,
  STATEMENT_MAX_BYTES,
  STATEMENT_MAX_ROWS,
  STATEMENT_RAW_MAX,
  type StatementRead,
  type StatementRow,
} from '../../server/payments/statement-parser.ts';

const OURS = '01811000000';
const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/bkash-statement/${name}`, import.meta.url));
const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');
const HEADER = 'Trx ID,Date Time,Transaction Type,From,To,Amount';
/** A statement of the given data lines under the usual header, read with our receiver number. */
const read = (lines: string[], header = HEADER, opts = { receiver: OURS }): StatementRead =>
  readStatement(utf8([header, ...lines].join('\n')), 'statement.csv', opts);

function ok(r: StatementRead): Extract<StatementRead, { ok: true }> {
  if (!r.ok) throw new Error(`expected a statement, got ${JSON.stringify(r)}`);
  return r;
}
const onlyRow = (r: StatementRead): StatementRow => {
  const { rows, problems } = ok(r);
  expect(problems).toEqual([]);
  expect(rows).toHaveLength(1);
  return rows[0] as StatementRow;
};
const ROW = 'CKD4A7F2QX,05-Dec-26 08:15:30 PM,Send Money,01712345678,01811000000,৳100.00';

describe('the merchant portal export (merchant-statement.csv)', () => {
  const r = ok(readStatement(fixture('merchant-statement.csv'), 'merchant-statement.csv', { receiver: OURS }));

  test('title lines are skipped and the header row found, with the header text of each column', () => {
    expect(r.headerLine).toBe(8);
    expect(r.separator).toBe(',');
    expect(r.columns).toEqual({
      trx_id: 'Trx ID',
      date: 'Date Time',
      type: 'Transaction Type',
      sender: 'From',
      receiver: 'To',
      amount: 'Amount (BDT)',
    });
  });

  test('every transaction line is a row or a problem; the blank line before the total is skipped', () => {
    expect(r.rows.map((x) => x.line)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 24]);
    expect(r.problems).toEqual([
      {
        line: 18,
        reason: 'amount_not_whole',
        raw: '10,CKJ2R5X3AH,03-Dec-26 04:44:00 PM,Send Money,01555666777,01811000000,৳100.50,৳0.00,৳1,972.75,He wrote "one hundred"',
      },
      { line: 26, reason: 'trx_id_invalid', raw: 'Total,,,,,,৳4,300.50,৳32.75,,' },
    ]);
  });

  test('a row: TrxID, whole taka from "৳1,000.00", the sender from +88…, Dhaka time as UTC', () => {
    expect(r.rows[1]).toEqual({
      line: 10,
      trxId: 'CKD8B1L0ZM',
      amount: 1000,
      sender: '01898765432',
      senderMasked: false,
      at: '2026-12-01T05:47:02.000Z',
      type: 'Send Money',
      direction: 'in',
      incoming: true,
    });
  });

  test('senders written "880 1555-123456" and masked "017XXXX9012"; Bengali digits in an amount; 12:30 AM', () => {
    const byTrx = new Map(r.rows.map((x) => [x.trxId, x]));
    expect(byTrx.get('CKE2H5N9TA')).toMatchObject({ sender: '01555123456', senderMasked: false });
    expect(byTrx.get('CKG1M8S5WD')).toMatchObject({ sender: '017****9012', senderMasked: true });
    expect(byTrx.get('CKK4T9Z0CK')).toMatchObject({ amount: 100, at: '2026-12-03T18:30:00.000Z' });
  });

  test('money paid out by our number (cash out, payment, refund, a prize sent) is outgoing; money sent to it is received', () => {
    const direction = Object.fromEntries(r.rows.map((x) => [`${x.line} ${x.type}`, x.direction]));
    expect(direction).toEqual({
      '9 Send Money': 'in',
      '10 Send Money': 'in',
      '11 Send Money': 'in',
      '12 Cash Out': 'out',
      '13 Send Money': 'in',
      '14 Send Money': 'in',
      '15 Send Money': 'in',
      '16 Send Money': 'in',
      '17 Payment': 'out',
      '19 Refund': 'out',
      '20 Send Money': 'in',
      '21 Send Money': 'in',
      '22 Send Money': 'out',
      '23 Send Money': 'in',
      '24 Send Money': 'in',
    });
    expect(r.rows.every((x) => x.incoming === (x.direction === 'in'))).toBe(true);
  });

  test('without our receiver number a plain "Send Money" or "Payment" cannot be told in from out: unknown', () => {
    const bare = ok(readStatement(fixture('merchant-statement.csv'), 'merchant-statement.csv'));
    const types = new Map(bare.rows.map((x) => [x.type, x.direction]));
    expect(types).toEqual(
      new Map([
        ['Send Money', 'unknown'],
        ['Cash Out', 'out'],
        ['Payment', 'unknown'],
        ['Refund', 'out'],
      ]),
    );
  });
});

test('the semicolon export with a BOM, CRLF, a Bengali title, its own header names and order, a time column and Dr/Cr', () => {
  const r = ok(readStatement(fixture('merchant-statement-semicolon.csv'), 'statement.csv'));
  expect(r.separator).toBe(';');
  expect(r.headerLine).toBe(4);
  expect(r.columns).toMatchObject({
    trx_id: 'Transaction ID',
    date: 'Transaction Date',
    time: 'Time',
    direction: 'Dr/Cr',
    type: 'Trx Type',
  });
  expect(r.problems).toEqual([]);
  expect(r.rows.map((x) => [x.line, x.trxId, x.amount, x.sender, x.at, x.type, x.direction])).toEqual([
    [5, 'CKD4A7F2QX', 100, '01712345678', '2026-12-01T03:12:44.000Z', 'Send Money', 'in'],
    [6, 'CKF0J3P6UB', 1500, '01811000000', '2026-12-02T01:30:00.000Z', 'Cash Out', 'out'],
    [7, 'CKM2X7D4GP', 1000, '01798765432', '2026-12-05T14:15:30.000Z', 'Payment', 'in'],
    [8, 'CKM8Y1E6HQ', 100, '017*****432', '2026-12-05T15:40:02.000Z', 'Send Money', 'in'],
  ]);
});

test('a file that is not a statement names the required columns its likeliest header lacks', () => {
  expect(readStatement(fixture('not-a-statement.csv'), 'not-a-statement.csv')).toEqual({
    ok: false,
    reason: 'not_a_statement',
    missing: ['trx_id', 'type', 'sender', 'amount'],
  });
  expect(readStatement(utf8('just,some,words\nand,more,words\n'), 'x.csv')).toEqual({
    ok: false,
    reason: 'not_a_statement',
    missing: ['trx_id', 'date', 'type', 'sender', 'amount'],
  });
});

describe('CSV', () => {
  test('quoted cells hold separators, doubled quotes and line breaks; a row keeps the line it starts on', () => {
    const r = ok(
      read([
        'CKD4A7F2QX,"05-Dec-26 08:15:30 PM","Send Money",01712345678,01811000000,"৳1,000.00"',
        'CKD8B1L0ZM,05-Dec-26 08:16:00 PM,"Send ""Money""",01712345678,01811000000,100',
        '"CKE2H5N9TA",05-Dec-26 08:17:00 PM,"Send',
        'Money",01712345678,01811000000,100',
        'CKF7K2R4VC,05-Dec-26 08:18:00 PM,Send Money,01712345678,01811000000,100',
      ]),
    );
    expect(r.rows.map((x) => [x.line, x.trxId, x.amount, x.type])).toEqual([
      [2, 'CKD4A7F2QX', 1000, 'Send Money'],
      [4, 'CKE2H5N9TA', 100, 'Send Money'], // the line break inside the type is a space
      [6, 'CKF7K2R4VC', 100, 'Send Money'],
    ]);
    // A quote is no letter of a transaction type.
    expect(r.problems.map((p) => [p.line, p.reason, p.raw])).toEqual([
      [3, 'type_invalid', 'CKD8B1L0ZM,05-Dec-26 08:16:00 PM,Send "Money",01712345678,01811000000,100'],
    ]);
  });

  test('CRLF, LF and a lone CR end lines alike; blank lines and lines of empty cells are skipped', () => {
    for (const eol of ['\r\n', '\n', '\r']) {
      const text = ['Title', '', HEADER, ROW, ',,,,,', '   ', ROW.replace('CKD4A7F2QX', 'CKD8B1L0ZM'), ''].join(eol);
      const r = ok(readStatement(utf8(text), 's.csv', { receiver: OURS }));
      expect(r.rows.map((x) => [x.line, x.trxId])).toEqual([
        [4, 'CKD4A7F2QX'],
        [7, 'CKD8B1L0ZM'],
      ]);
    }
  });

  test('a UTF-8 BOM, UTF-16 with a BOM and the Windows code page are read', () => {
    const text = `${HEADER}\n${ROW.replace('৳100.00', 'Tk 100.00')}\n`;
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(text)]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/,/g, '\t'), 'utf16le')]);
    const [before, after] = text.split('Tk 100.00') as [string, string];
    const cp1252 = Buffer.concat([Buffer.from(`${before}Tk`, 'latin1'), Buffer.from([0xa0]), Buffer.from(`100.00${after}`, 'latin1')]);
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(cp1252)).toThrow();
    for (const bytes of [bom, utf16])
      expect(onlyRow(readStatement(bytes, 's.csv', { receiver: OURS }))).toMatchObject({ trxId: 'CKD4A7F2QX', amount: 100 });
    expect(ok(readStatement(cp1252, 's.csv', { receiver: OURS })).rows[0]).toMatchObject({ amount: 100 });
  });

  test("tab-separated, and a separator other than the header row's inside a title line does not mislead", () => {
    const tsv = ['Statement, December; 2026', HEADER.replace(/,/g, '\t'), ROW.replace(/,/g, '\t').replace('৳100.00', '"৳1,000.00"')].join(
      '\n',
    );
    const r = ok(readStatement(utf8(tsv), 's.tsv', { receiver: OURS }));
    expect(r.separator).toBe('\t');
    expect(r.rows[0]).toMatchObject({ trxId: 'CKD4A7F2QX', amount: 1000 });
  });

  test('extra columns are ignored; a short row leaves its missing cells empty', () => {
    const r = ok(
      read([
        `${ROW},0.00,"৳1,100.00",rahim,,,,,,,,,,,,extra`,
        'CKD8B1L0ZM,05-Dec-26 08:16:00 PM,Send Money,01712345678', // no To, no Amount
      ]),
    );
    expect(r.rows).toHaveLength(1);
    expect(r.problems.map((p) => [p.line, p.reason])).toEqual([[3, 'amount_invalid']]);
  });

  test('columns in any order, found by their names', () => {
    const r = onlyRow(
      read(['৳100.00,01811000000,01712345678,Send Money,05-Dec-26 08:15:30 PM,CKD4A7F2QX'], 'Amount,To,From,Type,Date,TrxID'),
    );
    expect(r).toMatchObject({ trxId: 'CKD4A7F2QX', amount: 100, sender: '01712345678', direction: 'in', at: '2026-12-05T14:15:30.000Z' });
  });

  test.each([
    ['TRX ID,date & time,TRANSACTION TYPE,sender,receiver,amount (tk)'],
    ['Transaction ID,Transaction Date Time,Trx Type,Sender Number,Receiver Number,Transacted Amount'],
    ['trx_id,date_time,txn-type,from-wallet,to_wallet,Amount (৳)'],
    ['  Txn ID ,  Created At ,Service,Customer MSISDN,To Account,Trx Amount'],
    ['ট্রানজেকশন আইডি,তারিখ ও সময়,লেনদেনের ধরন,প্রেরক,প্রাপক,টাকার পরিমাণ'],
  ])('header synonyms in any case, spacing and punctuation: %s', (header) => {
    expect(onlyRow(read([ROW], header))).toMatchObject({ trxId: 'CKD4A7F2QX', amount: 100, sender: '01712345678', direction: 'in' });
  });

  test('the first of two columns with the same meaning is read', () => {
    const r = onlyRow(read([`${ROW},999`], `${HEADER},Transaction Amount`));
    expect(r.amount).toBe(100);
  });

  test('the header repeated (two exports pasted together) is skipped, not a problem', () => {
    const r = ok(read([ROW, HEADER, ROW.replace('CKD4A7F2QX', 'CKD8B1L0ZM')]));
    expect(r.rows.map((x) => x.trxId)).toEqual(['CKD4A7F2QX', 'CKD8B1L0ZM']);
    expect(r.problems).toEqual([]);
  });

  test('a header after more than 30 title lines is not looked for', () => {
    const title = Array.from({ length: 30 }, (_, i) => `Title line ${i + 1}`);
    expect(readStatement(utf8([...title.slice(0, 29), HEADER, ROW].join('\n')), 's.csv').ok).toBe(true);
    expect(readStatement(utf8([...title, HEADER, ROW].join('\n')), 's.csv')).toMatchObject({ ok: false, reason: 'not_a_statement' });
  });

  test('a quoted cell that never ends makes the file unreadable, naming its line', () => {
    expect(read([ROW, 'CKD8B1L0ZM,"05-Dec-26 08:16:00 PM,Send Money,01712345678,01811000000,100', ROW])).toEqual({
      ok: false,
      reason: 'unreadable',
      line: 3,
    });
  });
});

describe('the file as a whole', () => {
  test('empty: no bytes, only blanks, only a BOM', () => {
    for (const bytes of [Buffer.alloc(0), utf8(' \r\n\n\t'), Buffer.from([0xef, 0xbb, 0xbf])])
      expect(readStatement(bytes, 's.csv')).toEqual({ ok: false, reason: 'empty' });
  });

  test('at most 2 MB', () => {
    const line = `${ROW}\n`;
    const big = `${HEADER}\n${line.repeat(Math.ceil(STATEMENT_MAX_BYTES / line.length))}`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(STATEMENT_MAX_BYTES);
    expect(readStatement(utf8(big), 's.csv')).toEqual({ ok: false, reason: 'too_large' });
  });

  test('at most 20,000 transaction rows (blank lines and the header not counted)', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `CK${String(i).padStart(8, '0')},05-Dec-26 08:15 PM,Cash Out,,,1`);
    const at = read(['', ...rows(STATEMENT_MAX_ROWS)]);
    expect(ok(at).rows).toHaveLength(STATEMENT_MAX_ROWS);
    expect(read(rows(STATEMENT_MAX_ROWS + 1))).toEqual({ ok: false, reason: 'too_many_rows' });
  });

  test.each<[string, Buffer, string, string]>([
    ['an XLSX (a zip)', Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.xlsx', 'xlsx'],
    ['an XLSX named .csv', Buffer.from('PK\u0003\u0004rest-of-a-zip', 'latin1'), 'statement.csv', 'xlsx'],
    ['an old XLS', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'statement.xls', 'xls'],
    ['a PDF', Buffer.from('%PDF-1.7\n...', 'latin1'), 'statement.pdf', 'pdf'],
    ['text named .xlsx', utf8(`${HEADER}\n${ROW}\n`), 'Statement.XLSX', 'xlsx'],
  ])('%s is refused: save it as CSV first', (_, bytes, name, format) => {
    expect(readStatement(bytes, name)).toEqual({ ok: false, reason: 'format_not_supported', format });
  });

  test('a binary file (NUL bytes) is unreadable', () => {
    expect(readStatement(Buffer.from([0x54, 0x72, 0x78, 0x00, 0x01, 0x02]), 's.csv')).toEqual({ ok: false, reason: 'unreadable' });
  });
});

describe('each problem of a row', () => {
  test.each<[string, string, string]>([
    ['a TrxID too short', 'CKD4A7', 'trx_id_invalid'],
    ['a TrxID with a dash', 'CKD4-A7F2QX', 'trx_id_invalid'],
    ['no TrxID', '', 'trx_id_invalid'],
    ['a fraction of a taka', 'amount=৳100.50', 'amount_not_whole'],
    ['an amount that is not one', 'amount=one hundred', 'amount_invalid'],
    ['a zero amount', 'amount=0.00', 'amount_invalid'],
    ['a sender that is not a wallet number', 'sender=Rahim', 'sender_invalid'],
    ['no sender on money received', 'sender=', 'sender_invalid'],
    ['a date that is not one', 'date=31-Nov-26 08:00 PM', 'date_invalid'],
    ['a month-first date', 'date=12/31/2026 20:00', 'date_invalid'],
    ['no type', 'type=', 'type_invalid'],
  ])('%s', (_, change, reason) => {
    const cells: Record<string, string> = {
      trx: 'CKD4A7F2QX',
      date: '05-Dec-26 08:15:30 PM',
      type: 'Send Money',
      sender: '01712345678',
      to: OURS,
      amount: '৳100.00',
    };
    const [k, v] = change.includes('=') ? (change.split('=') as [string, string]) : ['trx', change];
    cells[k] = v;
    const r = ok(read([Object.values(cells).join(',')]));
    expect(r.rows).toEqual([]);
    expect(r.problems).toEqual([{ line: 2, reason, raw: Object.values(cells).join(',') }]);
  });

  test('a TrxID in lower case or Bengali digits is read in its stored form', () => {
    expect(onlyRow(read([ROW.replace('CKD4A7F2QX', ' ckd4a7f2q৯ ')])).trxId).toBe('CKD4A7F2Q9');
  });

  test('money paid out may name no wallet (a bank transfer); its sender is empty', () => {
    expect(onlyRow(read(['CKD4A7F2QX,05-Dec-26 08:15 PM,bKash to Bank,,,"৳5,000.00"']))).toMatchObject({
      sender: '',
      direction: 'out',
      amount: 5000,
    });
  });
});

describe('hostile cells', () => {
  test.each([
    [
      'a formula as the TrxID',
      '=HYPERLINK("http://x.example"),05-Dec-26 08:15 PM,Send Money,01712345678,01811000000,100',
      'trx_id_invalid',
    ],
    ['a formula as the amount', 'CKD4A7F2QX,05-Dec-26 08:15 PM,Send Money,01712345678,01811000000,=100+0', 'amount_invalid'],
    ['a formula as the sender', 'CKD4A7F2QX,05-Dec-26 08:15 PM,Send Money,"=1+01712345678",01811000000,100', 'sender_invalid'],
    ['a formula as the type', 'CKD4A7F2QX,05-Dec-26 08:15 PM,"=cmd|\' /C calc\'!A0",01712345678,01811000000,100', 'type_invalid'],
    ['a sign-led type', 'CKD4A7F2QX,05-Dec-26 08:15 PM,@SUM(A1),01712345678,01811000000,100', 'type_invalid'],
    ['a type with a bidi override', 'CKD4A7F2QX,05-Dec-26 08:15 PM,Send \u202eyenoM,01712345678,01811000000,100', 'type_invalid'],
    ['a type with a control character', 'CKD4A7F2QX,05-Dec-26 08:15 PM,Send\u0007Money,01712345678,01811000000,100', 'type_invalid'],
    ['a date full of script', 'CKD4A7F2QX,<script>alert(1)</script>,Send Money,01712345678,01811000000,100', 'date_invalid'],
  ])('%s is a problem, never a value', (_, line, reason) => {
    const r = ok(read([line]));
    expect(r.rows).toEqual([]);
    expect(r.problems.map((p) => p.reason)).toEqual([reason]);
  });

  test("a problem's raw text is short and has no control or bidi characters", () => {
    const r = ok(read([`CKD4A7F2QX\u202e,05-Dec-26 08:15 PM,Send Money,01712345678,01811000000,${'9'.repeat(100_000)}\u0007\u001b`]));
    const raw = (r.problems[0] as { raw: string }).raw;
    expect(raw.length).toBeLessThanOrEqual(STATEMENT_RAW_MAX);
    expect(raw).toMatch(/^CKD4A7F2QX ,05-Dec-26/);
    expect(raw.endsWith('…')).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(raw).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
  });

  test('a huge cell in a column we do not read changes nothing; in one we read it is a problem', () => {
    const huge = 'A'.repeat(1_000_000);
    expect(onlyRow(read([`${ROW},"${huge}"`], `${HEADER},Reference`)).trxId).toBe('CKD4A7F2QX');
    expect(ok(read([`${huge},05-Dec-26 08:15 PM,Send Money,01712345678,01811000000,100`])).problems[0]?.reason).toBe('trx_id_invalid');
  });

  test('a header cell named like an object property is just an unknown column', () => {
    expect(onlyRow(read([`${ROW},x,y`], `${HEADER},__proto__,constructor`)).trxId).toBe('CKD4A7F2QX');
  });
});

describe('readAmount', () => {
  test.each<[string, number, '+' | '-' | null]>([
    ['100', 100, null],
    ['100.00', 100, null],
    ['100.0', 100, null],
    ['৳100.00', 100, null],
    ['৳ 1,000.00', 1000, null],
    ['Tk. 1,000', 1000, null],
    ['TK1000', 1000, null],
    ['1000 BDT', 1000, null],
    ['BDT 1,000.00', 1000, null],
    ['1,000.00 টাকা', 1000, null],
    ['1,000,000.00', 1000000, null],
    ['10,00,000.00', 1000000, null],
    ['১,০০০.০০', 1000, null],
    ['１２３', 123, null],
    ['  500  ', 500, null],
    ['-500.00', 500, '-'],
    ['- ৳500', 500, '-'],
    ['৳-500', 500, '-'],
    ['+500', 500, '+'],
    ['(500.00)', 500, '-'],
    ['500.00 Cr', 500, '+'],
    ['500.00Dr', 500, '-'],
    ['৳1,000.00 CR', 1000, '+'],
  ])('%j → %d %s', (cell, amount, sign) => {
    expect(readAmount(cell)).toEqual({ amount, sign });
  });

  test.each([
    ['', 'amount_invalid'],
    ['0', 'amount_invalid'],
    ['0.00', 'amount_invalid'],
    ['-0', 'amount_invalid'],
    ['100,00', 'amount_invalid'], // a decimal comma, never read as 10000
    ['1.000', 'amount_invalid'], // a dot as thousands separator, never read as 1
    ['1,0000', 'amount_invalid'],
    ['1,00', 'amount_invalid'],
    ['1e3', 'amount_invalid'],
    ['0x10', 'amount_invalid'],
    ['1 000', 'amount_invalid'],
    ['--5', 'amount_invalid'],
    ['(-5)', 'amount_invalid'],
    ['-5 Cr', 'amount_invalid'],
    ['=100', 'amount_invalid'],
    ['99999999999999999999', 'amount_invalid'],
    ['100.5', 'amount_not_whole'],
    ['100.50', 'amount_not_whole'],
    ['৳1,000.01', 'amount_not_whole'],
    ['100.005', 'amount_invalid'],
  ])('%j is refused: %s', (cell, error) => {
    expect(readAmount(cell)).toEqual({ error });
  });
});

describe('readDateTime (Dhaka time unless the cell says otherwise)', () => {
  test.each([
    ['05-Dec-26 08:15:30 PM', '2026-12-05T14:15:30.000Z'],
    ['05-Dec-2026 08:15 PM', '2026-12-05T14:15:00.000Z'],
    ['5 Dec 2026 8:15:30 pm', '2026-12-05T14:15:30.000Z'],
    ['05 December, 2026 20:15', '2026-12-05T14:15:00.000Z'],
    ['Dec 5, 2026 8:15 PM', '2026-12-05T14:15:00.000Z'],
    ['05/12/2026 20:15:30', '2026-12-05T14:15:30.000Z'],
    ['05.12.26 20:15', '2026-12-05T14:15:00.000Z'],
    ['2026-12-05 20:15:30', '2026-12-05T14:15:30.000Z'],
    ['2026-12-05T20:15:30.250', '2026-12-05T14:15:30.000Z'],
    ['2026/12/05 20:15', '2026-12-05T14:15:00.000Z'],
    ['2026-12-05T14:15:30Z', '2026-12-05T14:15:30.000Z'],
    ['2026-12-05 20:15:30+06:00', '2026-12-05T14:15:30.000Z'],
    ['2026-12-05', '2026-12-04T18:00:00.000Z'],
    ['০৫-Dec-২৬ ০৮:১৫ PM', '2026-12-05T14:15:00.000Z'],
    ['01-Jan-27 12:05 AM', '2026-12-31T18:05:00.000Z'],
    ['01-Jan-27 12:05 PM', '2027-01-01T06:05:00.000Z'],
    ['29-Feb-28 10:00', '2028-02-29T04:00:00.000Z'],
  ])('%j → %s', (cell, iso) => {
    expect(readDateTime(cell)).toBe(iso);
  });

  test('a separate time column completes a date-only cell', () => {
    expect(readDateTime('2026-12-05', '20:15:30')).toBe('2026-12-05T14:15:30.000Z');
    expect(readDateTime('05-Dec-26', '8:15:30 PM')).toBe('2026-12-05T14:15:30.000Z');
    expect(readDateTime('05-Dec-26 08:00 PM', '09:00')).toBe('2026-12-05T14:00:00.000Z');
  });

  test.each([
    '',
    'yesterday',
    '12/31/2026 20:00',
    '31-Nov-26 08:00 PM',
    '29-Feb-27 10:00',
    '05-Dex-26 08:00 PM',
    '05-Dec-26 25:00',
    '05-Dec-26 13:00 PM',
    '05-Dec-26 00:30 AM',
    '05-Dec-26 20:61',
    '05-Dec-26 8 PM',
    '1999-12-31 20:00',
    '2026-12-05 20:00:00+25:00',
    '46361.84',
    '2026-12-051',
  ])('%j is not a date', (cell) => {
    expect(readDateTime(cell)).toBeNull();
  });
});

describe('readSender', () => {
  test.each([
    ['01712345678', '01712345678', false],
    ['+8801712345678', '01712345678', false],
    ['8801712345678', '01712345678', false],
    ['+88 017-1234-5678', '01712345678', false],
    ['০১৭১২৩৪৫৬৭৮', '01712345678', false],
    ['017XXXX5678', '017****5678', true],
    ['017xxxxx678', '017*****678', true],
    ['+88017******78', '017******78', true],
    ['01712***678', '01712***678', true],
    ['017••••5678', '017****5678', true],
  ])('%j → %s', (cell, sender, masked) => {
    expect(readSender(cell)).toEqual({ sender, masked });
  });

  test.each(['', 'Rahim', '1712345678', '0171234567', '017123456789', '02712345678', '017XXXX567', 'XXXXXXXXXXX', '=01712345678'])(
    '%j is not a wallet number',
    (cell) => {
      expect(readSender(cell)).toBeNull();
    },
  );
});

describe('direction: only money received can approve', () => {
  const row = (type: string, more: { dir?: string; amount?: string; from?: string; to?: string } = {}) =>
    `CKD4A7F2QX,05-Dec-26 08:15 PM,${type},${more.from ?? '01712345678'},${more.to ?? '01911000000'},${more.amount ?? '100'},${more.dir ?? ''}`;
  const dir = (line: string, receiver: string | null = OURS) =>
    onlyRow(readStatement(utf8(`${HEADER},Dr/Cr\n${line}\n`), 's.csv', { receiver })).direction;

  test.each([
    ['Cr', 'in'],
    ['credit', 'in'],
    ['IN', 'in'],
    ['Received', 'in'],
    ['Dr', 'out'],
    ['DEBIT', 'out'],
    ['out', 'out'],
    ['Sent', 'out'],
    ['maybe', 'unknown'],
  ])('a direction column saying %j: %s', (word, d) => {
    expect(dir(row('Send Money', { dir: word }))).toBe(d);
  });

  test("the amount's sign or Cr/Dr decides when there is no direction column value", () => {
    expect(dir(row('Send Money', { amount: '-100' }))).toBe('out');
    expect(dir(row('Send Money', { amount: '(100.00)' }))).toBe('out');
    expect(dir(row('Send Money', { amount: '100 Dr' }))).toBe('out');
    expect(dir(row('Send Money', { amount: '100 Cr' }))).toBe('in');
    expect(dir(row('Send Money', { amount: '+100' }))).toBe('in');
  });

  test('then our receiver number in To (received) or From (paid out)', () => {
    expect(dir(row('Send Money', { to: OURS }))).toBe('in');
    expect(dir(row('Send Money', { from: OURS, to: '01712345678' }))).toBe('out');
    expect(dir(row('Send Money', { to: '+880 1811-000000' }))).toBe('in');
    expect(dir(row('Send Money', { to: OURS }), null)).toBe('unknown');
  });

  test.each([
    ['Received Money', 'in'],
    ['Cash In', 'in'],
    ['Payment Received', 'in'],
    ['Cash Out', 'out'],
    ['Refund', 'out'],
    ['B2B Transfer', 'out'],
    ['bKash to Bank', 'out'],
    ['Send Money', 'unknown'],
    ['Payment', 'unknown'],
    ['Add Money', 'unknown'],
  ])('then the type %j: %s', (type, d) => {
    expect(dir(row(type))).toBe(d);
  });

  test('a type that is never money received stays not received whatever the row claims', () => {
    expect(dir(row('Cash Out', { dir: 'Cr' }))).toBe('unknown');
    expect(dir(row('Refund', { amount: '100 Cr' }))).toBe('unknown');
    expect(dir(row('Cash Out', { to: OURS }))).toBe('unknown');
  });
});
