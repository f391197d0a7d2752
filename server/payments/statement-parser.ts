/**
 * Reading the bKash merchant statement staff upload (docs/rules/payments.md#81-reading-the-statement): the CSV
 * the merchant portal exports, a few title lines, a header row, one row per transaction. Pure: bytes in, rows and the
 * problems of unreadable rows out; nothing in a cell is trusted, nothing is evaluated. Matching the rows to purchases
 * is statement-match.ts.
 */
import { toAsciiDigits } from '../../shared/dates.ts';
import { trxId as trxIdField } from '../../shared/fields.ts';
import { normalisePhone } from '../../shared/identifiers.ts';
import { parseWholeTaka } from '../../shared/money.ts';

export const STATEMENT_MAX_BYTES = 2 * 1024 * 1024;
export const STATEMENT_MAX_ROWS = 20_000;
/** The header row is looked for among the first records that are not blank (title and metadata lines before it). */
export const STATEMENT_HEADER_SCAN = 30;
/** A problem row's text as shown to staff: at most this many characters, control characters removed. */
export const STATEMENT_RAW_MAX = 200;

export type StatementDirection = 'in' | 'out' | 'unknown';

export type StatementRow = {
  /** The file's line where the row starts (1-based; a spreadsheet's row number unless a cell holds a line break). */
  line: number;
  /** Upper-case, 8–20 letters and digits (shared/fields.ts `trxId`). */
  trxId: string;
  /** Whole taka, exact, at least 1 (the sign, if any, went into `direction`). */
  amount: number;
  /** `01XXXXXXXXX`; a masked number keeps its 11 places with `*` for each hidden digit (`017****5678`); '' for an outgoing row without one. */
  sender: string;
  senderMasked: boolean;
  /** ISO 8601 UTC; the file's times are Dhaka time unless they carry an offset. */
  at: string;
  /** The transaction type as the file writes it (`Send Money`, `Cash Out`…), spaces collapsed. */
  type: string;
  /** Money received (`in`), paid out (`out`), or not known from the file (`unknown`): only `in` can approve a purchase. */
  direction: StatementDirection;
  /** direction === 'in'. */
  incoming: boolean;
};

export type StatementProblemReason =
  'trx_id_invalid' | 'amount_invalid' | 'amount_not_whole' | 'sender_invalid' | 'date_invalid' | 'type_invalid';

export type StatementProblem = { line: number; reason: StatementProblemReason; raw: string };

/** The fields a statement's columns are read into; `missing` names the required ones by these keys. */
export type StatementColumn = 'trx_id' | 'date' | 'time' | 'type' | 'sender' | 'receiver' | 'amount' | 'direction';

export type StatementRead =
  | {
      ok: true;
      rows: StatementRow[];
      problems: StatementProblem[];
      /** The header row's line, and the header text each column was read from. */
      headerLine: number;
      columns: Partial<Record<StatementColumn, string>>;
      separator: ',' | ';' | '\t';
    }
  | {
      ok: false;
      reason: 'empty' | 'too_large' | 'too_many_rows' | 'unreadable' | 'format_not_supported' | 'not_a_statement';
      /** not_a_statement: the required columns the likeliest header row lacks. */
      missing?: StatementColumn[];
      /** format_not_supported: what the file is. */
      format?: 'xlsx' | 'xls' | 'pdf';
      /** unreadable: the line of a quoted cell that never ends. */
      line?: number;
    };

export type ReadStatementOptions = {
  /** Our bKash receiver number (BKASH_RECEIVER_NUMBER): a row paid to it is received, a row paid from it is not. */
  receiver?: string | null;
};

// ---------------------------------------------------------------------------------------------------------------
// Header names

/** A header as compared: NFKC, lower case, letters (with their marks) and digits only: "Amount (BDT)" → "amountbdt". */
const headerKey = (s: string): string =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]/gu, '');

/** The header names each column is read from (compared by headerKey); the docs list the same names. */
export const STATEMENT_HEADERS: Record<StatementColumn, readonly string[]> = {
  trx_id: [
    'TrxID',
    'Trx ID',
    'Trx No',
    'Trxn ID',
    'Txn ID',
    'Trans ID',
    'Transaction ID',
    'Transaction No',
    'Transaction Number',
    'ট্রানজেকশন আইডি',
    'লেনদেন আইডি',
  ],
  date: [
    'Date',
    'Date Time',
    'Date & Time',
    'Date and Time',
    'Transaction Date',
    'Transaction Date Time',
    'Transaction Time',
    'Trx Date',
    'Trx Date Time',
    'Created At',
    'Completed Time',
    'তারিখ',
    'তারিখ ও সময়',
    'লেনদেনের সময়',
  ],
  time: ['Time', 'Trx Time', 'সময়'],
  type: ['Type', 'Transaction Type', 'Trx Type', 'Txn Type', 'Service', 'Service Type', 'Particulars', 'লেনদেনের ধরন', 'ধরন'],
  sender: [
    'From',
    'Sender',
    'Sender No',
    'Sender Number',
    'Sender Wallet',
    'Sender Account',
    'From Account',
    'From Wallet',
    'From Number',
    'Customer No',
    'Customer Number',
    'Customer Wallet',
    'Customer MSISDN',
    'Payer',
    'প্রেরক',
    'প্রেরকের নম্বর',
  ],
  receiver: ['To', 'Receiver', 'Receiver No', 'Receiver Number', 'Receiver Wallet', 'To Account', 'To Wallet', 'To Number', 'প্রাপক'],
  amount: [
    'Amount',
    'Amount (BDT)',
    'Amount (Tk)',
    'Amount (৳)',
    'Amount Taka',
    'Transacted Amount',
    'Transaction Amount',
    'Trx Amount',
    'টাকার পরিমাণ',
    'পরিমাণ',
  ],
  direction: ['Dr/Cr', 'Cr/Dr', 'Debit/Credit', 'Credit/Debit', 'Direction', 'In/Out', 'ডেবিট/ক্রেডিট'],
};

export const STATEMENT_REQUIRED: readonly StatementColumn[] = ['trx_id', 'date', 'type', 'sender', 'amount'];

const HEADER_INDEX = new Map<string, StatementColumn>();
for (const [column, names] of Object.entries(STATEMENT_HEADERS) as [StatementColumn, readonly string[]][])
  for (const name of names) HEADER_INDEX.set(headerKey(name), column);

type Header = { line: number; at: Partial<Record<StatementColumn, number>>; names: Partial<Record<StatementColumn, string>> };

/** The columns a record names (the first cell naming a column wins); `found` counts the required ones among them. */
function headerOf(fields: string[]): { at: Header['at']; names: Header['names']; found: number } {
  const at: Header['at'] = {};
  const names: Header['names'] = {};
  let found = 0;
  fields.forEach((cell, i) => {
    if (cell.length > 60) return;
    const column = HEADER_INDEX.get(headerKey(cell));
    if (column && at[column] === undefined) {
      at[column] = i;
      names[column] = cell.trim();
      if (STATEMENT_REQUIRED.includes(column)) found++;
    }
  });
  return { at, names, found };
}

// ---------------------------------------------------------------------------------------------------------------
// CSV (RFC 4180, read leniently: a quote inside an unquoted cell is a letter, text after a closing quote is kept)

type CsvRecord = { fields: string[]; line: number };

class UnterminatedQuote extends Error {
  readonly line: number;
  constructor(line: number) {
    super(`a quoted cell starting on line ${line} never ends`);
    this.line = line;
  }
}

function* csvRecords(text: string, sep: string): Generator<CsvRecord> {
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    for (;;) {
      if (text[i] === '"') {
        let from = ++i;
        for (;;) {
          if (i >= n) throw new UnterminatedQuote(start);
          const c = text[i];
          if (c === '"') {
            field += text.slice(from, i);
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              from = i;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
          i++;
        }
      }
      const from = i;
      while (i < n && text[i] !== sep && text[i] !== '\n' && text[i] !== '\r') i++;
      field += text.slice(from, i);
      fields.push(field);
      field = '';
      if (i < n && text[i] === sep) {
        i++;
        continue;
      }
      if (i < n) {
        i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line++;
      }
      break;
    }
    yield { fields, line: start };
  }
}

const isBlank = (fields: string[]): boolean => fields.every((f) => f.trim() === '');

const SEPARATORS = [',', ';', '\t'] as const;

/** The separator whose records hold a header row soonest (ties: the header with more cells), and that header. */
function findHeader(text: string): { sep: (typeof SEPARATORS)[number]; header: Header } | { missing: StatementColumn[] } {
  let best: { sep: (typeof SEPARATORS)[number]; header: Header; cells: number } | null = null;
  let likeliest: { found: number; at: Header['at'] } = { found: -1, at: {} };
  for (const sep of SEPARATORS) {
    let seen = 0;
    try {
      for (const { fields, line } of csvRecords(text, sep)) {
        if (isBlank(fields)) continue;
        if (++seen > STATEMENT_HEADER_SCAN) break;
        if (best && line > best.header.line) break;
        const h = headerOf(fields);
        if (h.found > likeliest.found) likeliest = h;
        if (h.found === STATEMENT_REQUIRED.length) {
          const cells = fields.filter((f) => f.trim() !== '').length;
          if (!best || line < best.header.line || cells > best.cells) best = { sep, header: { line, at: h.at, names: h.names }, cells };
          break;
        }
      }
    } catch (e) {
      if (!(e instanceof UnterminatedQuote)) throw e;
    }
  }
  if (best) return { sep: best.sep, header: best.header };
  return { missing: STATEMENT_REQUIRED.filter((c) => likeliest.at[c] === undefined) };
}

// ---------------------------------------------------------------------------------------------------------------
// Cells

/** A cell as read for a strict column: NFKC (full-width digits become ASCII), Bengali digits as ASCII, trimmed. */
const clean = (cell: string): string => toAsciiDigits(cell.normalize('NFKC')).trim();

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A problem row's text for staff: cells joined by the separator, control and bidi characters dropped, shortened. */
function rawOf(fields: string[], sep: string): string {
  let s = '';
  for (const [i, f] of fields.entries()) {
    s += (i > 0 ? (sep === '\t' ? ' ' : sep) : '') + f.slice(0, STATEMENT_RAW_MAX + 1).replace(CONTROL, ' ');
    if (s.length > STATEMENT_RAW_MAX) break;
  }
  s = s.trim();
  return s.length > STATEMENT_RAW_MAX ? s.slice(0, STATEMENT_RAW_MAX - 1) + '…' : s;
}

type Amount = { amount: number; sign: '+' | '-' | null } | { error: 'amount_invalid' | 'amount_not_whole' };

const CURRENCY = /^(?:৳|tk\.?|taka|bdt|টাকা)\s*|\s*(?:৳|tk\.?|taka|bdt|টাকা)$/i;
/** Digits with Western (1,000,000) or Indian (10,00,000) grouping or none, then at most two decimals. */
const AMOUNT = /^(\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3})(?:\.(\d{1,2}))?$/;

/** "৳1,000.00", "BDT 1000", "1,000.00 Cr", "-500", "(500.00)", "১০০০": whole taka and the sign the cell carries. */
export function readAmount(cell: string): Amount {
  let s = clean(cell).replace(/\s+/g, ' ');
  if (s === '' || s.length > 40) return { error: 'amount_invalid' };
  let sign: '+' | '-' | null = null;
  const drcr = /^(.*?)\s*(?<![a-z])(cr|dr)\.?$/i.exec(s);
  if (drcr) {
    s = drcr[1] as string;
    sign = (drcr[2] as string).toLowerCase() === 'cr' ? '+' : '-';
  }
  const paren = /^\((.*)\)$/.exec(s);
  if (paren) {
    if (sign) return { error: 'amount_invalid' };
    s = paren[1] as string;
    sign = '-';
  }
  s = s.replace(CURRENCY, '');
  if (s[0] === '+' || s[0] === '-') {
    if (sign) return { error: 'amount_invalid' };
    sign = s[0];
    s = s.slice(1).trimStart();
  }
  s = s.replace(CURRENCY, '').replace(CURRENCY, '');
  const m = AMOUNT.exec(s);
  if (!m) return { error: 'amount_invalid' };
  const whole = (m[1] as string).replace(/,/g, '');
  const fraction = m[2] ?? '';
  if (/[1-9]/.test(fraction)) return { error: 'amount_not_whole' };
  const amount = parseWholeTaka(whole);
  if (amount === null || amount < 1) return { error: 'amount_invalid' };
  return { amount, sign };
}

/** A wallet number: `01XXXXXXXXX`, or masked (`017XXXX5678`, `+88017*****78`) with `*` in the hidden places. */
export function readSender(cell: string): { sender: string; masked: boolean } | null {
  const s = clean(cell);
  if (s === '' || s.length > 30) return null;
  const phone = normalisePhone(s);
  if (phone) return { sender: phone, masked: false };
  const compact = s.replace(/[\s\-().]/g, '').replace(/[xX*•#]/g, '*');
  const m = /^(?:\+88|0088|88)?(0[\d*]{10})$/.exec(compact);
  if (!m || !(m[1] as string).includes('*')) return null;
  return { sender: m[1] as string, masked: true };
}

const MONTHS = new Map<string, number>(
  ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].flatMap((m, i) => [[m, i + 1]]),
);
const FULL_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
FULL_MONTHS.forEach((m, i) => MONTHS.set(m, i + 1));
MONTHS.set('sept', 9);

type Ymd = { y: number; mo: number; d: number };
const year = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** Date forms at the start of a cell, day before month wherever both are numbers (never month first). */
const DATE_FORMS: [RegExp, (m: RegExpExecArray) => Ymd | null][] = [
  [/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/, (m) => ({ y: Number(m[1]), mo: Number(m[2]), d: Number(m[3]) })],
  [/^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})(?!\d)/, (m) => ({ y: year(m[3] as string), mo: Number(m[2]), d: Number(m[1]) })],
  [
    /^(\d{1,2})[- ./]([a-z]{3,9})\.?(?:[- ./]|, ?)(\d{4}|\d{2})(?!\d)/i,
    (m) => {
      const mo = MONTHS.get((m[2] as string).toLowerCase());
      return mo ? { y: year(m[3] as string), mo, d: Number(m[1]) } : null;
    },
  ],
  [
    /^([a-z]{3,9})\.? (\d{1,2}),? (\d{4})/i,
    (m) => {
      const mo = MONTHS.get((m[1] as string).toLowerCase());
      return mo ? { y: Number(m[3]), mo, d: Number(m[2]) } : null;
    },
  ],
];
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?\s*(?:([ap])\.?m\.?)?\s*(z|[+-]\d{2}:?\d{2})?$/i;
const DHAKA_OFFSET_MIN = 6 * 60;

/** A statement's date and time (Dhaka time unless it carries an offset) → ISO UTC; null when it is not one. */
export function readDateTime(cell: string, timeCell = ''): string | null {
  let s = clean(cell).replace(/\s+/g, ' ');
  const t = clean(timeCell);
  if (t && !s.includes(':')) s = `${s} ${t}`;
  if (s === '' || s.length > 40) return null;
  for (const [re, ymd] of DATE_FORMS) {
    const m = re.exec(s);
    if (!m) continue;
    const date = ymd(m);
    if (!date) return null;
    const { y, mo, d } = date;
    if (y < 2000 || y > 2099 || mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
    const rest = s.slice(m[0].length).replace(/^(?:[ T]|, ?)/i, '');
    let h = 0,
      mi = 0,
      sec = 0,
      offset = DHAKA_OFFSET_MIN;
    if (rest !== '') {
      const tm = TIME.exec(rest);
      if (!tm) return null;
      h = Number(tm[1]);
      mi = Number(tm[2]);
      sec = Number(tm[3] ?? 0);
      const ampm = tm[4]?.toLowerCase();
      if (ampm) {
        if (h < 1 || h > 12) return null;
        h = (h % 12) + (ampm === 'p' ? 12 : 0);
      }
      if (h > 23 || mi > 59 || sec > 59) return null;
      const tz = tm[5];
      if (tz) {
        if (tz.toLowerCase() === 'z') offset = 0;
        else {
          const oh = Number(tz.slice(1, 3));
          const om = Number(tz.slice(3).replace(':', ''));
          if (oh > 14 || om > 59) return null;
          offset = (tz[0] === '-' ? -1 : 1) * (oh * 60 + om);
        }
      }
    }
    return new Date(Date.UTC(y, mo - 1, d, h, mi, sec) - offset * 60_000).toISOString();
  }
  return null;
}

/** A type as written, spaces collapsed: letters, marks, digits, spaces and `.,'&()/_-`, at most 60, not starting like a formula. */
function readType(cell: string): string | null {
  const s = cell.normalize('NFKC').replace(/\s+/g, ' ').trim();
  if (s === '' || s.length > 60 || /^[=+\-@]/.test(s) || !/^[\p{L}\p{M}\p{N} .,'&()/_-]+$/u.test(s)) return null;
  return s;
}

const typeKey = (type: string): string => headerKey(type);

/** Types that are money received whatever else the row says. */
const INCOMING_TYPES = new Set(
  ['Received Money', 'Receive Money', 'Money Received', 'Send Money Received', 'Cash In', 'Payment Received'].map(typeKey),
);
/** Types that are never money received (an explicit "Cr" on such a row makes its direction unknown). */
const OUTGOING_TYPES = new Set(
  [
    'Cash Out',
    'Refund',
    'Reversal',
    'B2B Transfer',
    'bKash to Bank',
    'Transfer to Bank',
    'Pay Bill',
    'Mobile Recharge',
    'Airtime Topup',
    'Fee',
    'Charge',
    'Withdrawal',
    'Send Money Sent',
    'Make Payment',
  ].map(typeKey),
);

const DIRECTION_WORDS: Record<string, 'in' | 'out'> = {
  cr: 'in',
  credit: 'in',
  in: 'in',
  incoming: 'in',
  received: 'in',
  dr: 'out',
  debit: 'out',
  out: 'out',
  outgoing: 'out',
  sent: 'out',
  paid: 'out',
};

/**
 * Whether a row is money received: a direction column decides; else the amount's sign (`-`, `(…)`, `Dr` out;
 * `+`, `Cr` in); else our receiver number in the To column (in) or the From column (out); else the type's table.
 * A type that is never money received (Cash Out, Refund…) is never read as received.
 */
function directionOf(o: {
  directionCell: string | null;
  sign: '+' | '-' | null;
  type: string;
  sender: string;
  receiverCell: string | null;
  ours: string | null;
}): StatementDirection {
  const key = typeKey(o.type);
  let d: StatementDirection;
  if (o.directionCell !== null && o.directionCell.trim() !== '') d = DIRECTION_WORDS[headerKey(o.directionCell)] ?? 'unknown';
  else if (o.sign) d = o.sign === '+' ? 'in' : 'out';
  else if (o.ours && o.receiverCell !== null && normalisePhone(clean(o.receiverCell)) === o.ours) d = 'in';
  else if (o.ours && o.sender === o.ours) d = 'out';
  else if (INCOMING_TYPES.has(key)) d = 'in';
  else if (OUTGOING_TYPES.has(key)) d = 'out';
  else d = 'unknown';
  return d === 'in' && OUTGOING_TYPES.has(key) ? 'unknown' : d;
}

// ---------------------------------------------------------------------------------------------------------------
// The file

function decode(bytes: Buffer): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    // Excel's "CSV (Comma delimited)" writes the Windows code page; the columns we read are ASCII in it.
    return new TextDecoder('windows-1252').decode(body);
  }
}

function formatOf(bytes: Buffer, filename: string): 'xlsx' | 'xls' | 'pdf' | null {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'xlsx';
  if (bytes.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'xls';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const ext = /\.([a-z]+)$/i.exec(filename.trim())?.[1]?.toLowerCase();
  return ext === 'xlsx' || ext === 'xls' || ext === 'pdf' ? ext : null;
}

/**
 * Reads a bKash merchant statement (CSV: `,`, `;` or tab; UTF-8 with or without BOM, UTF-16 with BOM, or the
 * Windows code page). The file as a whole is refused (ok: false) when it is empty, too large, not CSV, has no header
 * row with the required columns, or has too many rows; otherwise each transaction row is a row or a problem.
 */
export function readStatement(bytes: Buffer, filename: string, options: ReadStatementOptions = {}): StatementRead {
  if (bytes.length > STATEMENT_MAX_BYTES) return { ok: false, reason: 'too_large' };
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  const format = formatOf(bytes, filename);
  if (format) return { ok: false, reason: 'format_not_supported', format };
  const text = decode(bytes);
  if (text === null || text.includes('\u0000')) return { ok: false, reason: 'unreadable' };
  if (text.trim() === '') return { ok: false, reason: 'empty' };

  const found = findHeader(text);
  if ('missing' in found) return { ok: false, reason: 'not_a_statement', missing: found.missing };
  const { sep, header } = found;
  const col = header.at;
  const ours = options.receiver ? normalisePhone(options.receiver) : null;
  const cell = (fields: string[], c: StatementColumn): string | null => {
    const i = col[c];
    return i === undefined ? null : (fields[i] ?? '');
  };

  const rows: StatementRow[] = [];
  const problems: StatementProblem[] = [];
  let count = 0;
  try {
    for (const { fields, line } of csvRecords(text, sep)) {
      if (line <= header.line || isBlank(fields)) continue;
      if (headerOf(fields).found === STATEMENT_REQUIRED.length) continue; // the header again (two exports pasted together)
      if (++count > STATEMENT_MAX_ROWS) return { ok: false, reason: 'too_many_rows' };
      const problem = (reason: StatementProblemReason) => problems.push({ line, reason, raw: rawOf(fields, sep) });

      const trx = trxIdField.safeParse(clean(cell(fields, 'trx_id') ?? '').slice(0, 41));
      if (!trx.success) {
        problem('trx_id_invalid');
        continue;
      }
      const amount = readAmount(cell(fields, 'amount') ?? '');
      if ('error' in amount) {
        problem(amount.error);
        continue;
      }
      const at = readDateTime(cell(fields, 'date') ?? '', cell(fields, 'time') ?? '');
      if (!at) {
        problem('date_invalid');
        continue;
      }
      const type = readType(cell(fields, 'type') ?? '');
      if (!type) {
        problem('type_invalid');
        continue;
      }
      const senderCell = cell(fields, 'sender') ?? '';
      const sender = readSender(senderCell);
      const direction = directionOf({
        directionCell: cell(fields, 'direction'),
        sign: amount.sign,
        type,
        sender: sender?.sender ?? '',
        receiverCell: cell(fields, 'receiver'),
        ours,
      });
      // An outgoing row may name no wallet (a bank transfer, a fee); any other row needs the number it came from.
      if (!sender && !(direction === 'out' && senderCell.trim() === '')) {
        problem('sender_invalid');
        continue;
      }
      rows.push({
        line,
        trxId: trx.data,
        amount: amount.amount,
        sender: sender?.sender ?? '',
        senderMasked: sender?.masked ?? false,
        at,
        type,
        direction,
        incoming: direction === 'in',
      });
    }
  } catch (e) {
    if (e instanceof UnterminatedQuote) return { ok: false, reason: 'unreadable', line: e.line };
    throw e;
  }
  return { ok: true, rows, problems, headerLine: header.line, columns: header.names, separator: sep };
}
