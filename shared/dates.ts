/**
 * Dates are stored as UTC and shown in Asia/Dhaka (UTC+6, no DST since 2009), docs/rules/money-and-time.md.
 * Draws: Saturday 20:00 Dhaka time.
 */
import type { Language } from './i18n.ts';

export const TIME_ZONE = 'Asia/Dhaka';
export const DHAKA_OFFSET_MS = 6 * 60 * 60 * 1000;
/** English fallback text; callers normally show the translated text when formatDate returns null. */
export const INVALID_DATE = 'Invalid date';

const DAY_MS = 24 * 60 * 60 * 1000;
const BN_DIGITS = '০১২৩৪৫৬৭৮৯';

/** ASCII digits → Bengali digits (০–৯) for 'bn'; 'en' leaves the text as is. */
export function toDigits(s: string, lng: Language): string {
  return lng === 'bn' ? s.replace(/[0-9]/g, (d) => BN_DIGITS[Number(d)] as string) : s;
}

/** Bengali digits → ASCII digits, for reading what a Bengali keyboard typed. */
export function toAsciiDigits(s: string): string {
  return s.replace(/[০-৯]/g, (d) => String(BN_DIGITS.indexOf(d)));
}

const locale = (lng: Language): string => (lng === 'bn' ? 'bn-BD' : 'en-US');

/** Grouped number: `1,000,000` (en) or `১০,০০,০০০` (bn, Indian-style grouping as ICU gives it). */
const numberFormats = new Map<Language, Intl.NumberFormat>();
export function formatNumber(n: number | bigint, lng: Language): string {
  let f = numberFormats.get(lng);
  if (!f) numberFormats.set(lng, (f = new Intl.NumberFormat(locale(lng)))); // a formatter costs far more to make than to use
  return f.format(n);
}

// ISO 8601 as JSON and PostgreSQL give it: `2026-11-28T14:00:00.000Z`, `2026-11-28 14:00:00+00`, `2026-11-28`.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Milliseconds since the epoch, or null when the text is not an ISO date with valid fields.
 * Parsed here rather than by Date.parse, which reads offset-less times as local time and
 * differs between engines; a missing offset means UTC (that is how times are stored).
 */
export function parseIso(iso: string | Date): number | null {
  if (iso instanceof Date) return Number.isNaN(iso.getTime()) ? null : iso.getTime();
  if (typeof iso !== 'string') return null;
  const m = ISO.exec(iso.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', tz = 'Z'] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  let offsetMin = 0;
  if (tz.toUpperCase() !== 'Z') {
    const oh = Number(tz.slice(1, 3));
    const om = Number(tz.slice(3).replace(':', '') || '0');
    if (oh > 23 || om > 59) return null;
    offsetMin = (tz[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // setUTCFullYear keeps years 0–99 as they are
  utc.setUTCHours(hour, minute, second, ms);
  return utc.getTime() - offsetMin * 60_000;
}

/** The instant shifted by Dhaka's offset: its getUTC* fields are the Dhaka wall-clock date and time. */
const dhakaParts = (ms: number): Date => new Date(ms + DHAKA_OFFSET_MS);
const p2 = (n: number): string => String(n).padStart(2, '0');

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function fmt(loc: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = loc + JSON.stringify(opts);
  let f = fmtCache.get(key);
  if (!f) fmtCache.set(key, (f = new Intl.DateTimeFormat(loc, { timeZone: TIME_ZONE, ...opts })));
  return f;
}

/** Bengali month names as Bangladeshi texts spell them (য় written as য + nukta, the NFC form). */
const BN_MONTHS = ['জানুয়ারি', 'ফেব্রুয়ারি', 'মার্চ', 'এপ্রিল', 'মে', 'জুন', 'জুলাই', 'আগস্ট', 'সেপ্টেম্বর', 'অক্টোবর', 'নভেম্বর', 'ডিসেম্বর'];

/**
 * The part of the day a Bangladeshi names before a 12-hour time, by the Dhaka hour it starts at
 * (docs/rules/money-and-time.md#5-showing-dates-and-times): ভোর 4:00–5:59, সকাল 6:00–11:59, দুপুর 12:00–14:59,
 * বিকেল 15:00–17:59, সন্ধ্যা 18:00–19:59, রাত 20:00–3:59. Written out here rather than taken from ICU's `dayPeriod`,
 * whose Bengali data says রাত্রি after the time and differs between runtimes (server and browser must agree).
 */
const BN_DAY_PERIODS: readonly (readonly [fromHour: number, word: string])[] = [
  [4, 'ভোর'],
  [6, 'সকাল'],
  [12, 'দুপুর'],
  [15, 'বিকেল'],
  [18, 'সন্ধ্যা'],
  [20, 'রাত'],
];

/** The Bengali part of the day for a Dhaka hour 0–23 (0–3 is still রাত). */
export function bnDayPeriod(hour: number): string {
  let word = 'রাত';
  for (const [from, w] of BN_DAY_PERIODS) if (hour >= from) word = w;
  return word;
}

/**
 * `29 Nov 2026` / `২৯ নভেম্বর ২০২৬`; with time `29 Nov 2026, 8:00 PM` / `২৯ নভেম্বর ২০২৬, রাত ৮:০০`.
 * Bengali is written as a Dhaka reader writes it: no comma between month and year, the part of the day before
 * the time (রাত ৮:০০, বিকেল ৫:০০, দুপুর ১২:৩০), Bengali digits. Returns null for unparseable input: show the
 * translated 'Invalid date' then.
 */
export function formatDate(iso: string | Date, lng: Language, opts?: { withTime?: boolean }): string | null {
  const ms = parseIso(iso);
  if (ms === null) return null;
  if (lng === 'bn') {
    const d = dhakaParts(ms);
    const date = toDigits(`${d.getUTCDate()} ${BN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`, 'bn');
    if (!opts?.withTime) return date;
    const hour = d.getUTCHours();
    return `${date}, ${bnDayPeriod(hour)} ${toDigits(`${hour % 12 || 12}:${p2(d.getUTCMinutes())}`, 'bn')}`;
  }
  const d = new Date(ms);
  const date = fmt('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(d);
  if (!opts?.withTime) return date;
  // en-US for the time: en-GB writes a lower-case 'pm'.
  return `${date}, ${fmt('en-US', { hour: 'numeric', minute: '2-digit', hour12: true }).format(d)}`;
}

export type Countdown = { days: number; hours: number; minutes: number; seconds: number; done: boolean };

/**
 * Time left until endIso. Partial seconds round up, so the display never reads 0:00:00 before the end;
 * at and after the end everything is 0 and done is true. Null for an unparseable end.
 */
export function countdown(endIso: string | Date, nowMs: number): Countdown | null {
  const end = parseIso(endIso);
  if (end === null || !Number.isFinite(nowMs)) return null;
  const left = Math.max(0, Math.ceil((end - nowMs) / 1000));
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
    done: left === 0,
  };
}

/** The Dhaka calendar date of an instant as `YYYY-MM-DD` (value of an <input type="date">); null if invalid. */
export function dhakaDateInputValue(iso: string | Date): string | null {
  const ms = parseIso(iso);
  if (ms === null) return null;
  const d = dhakaParts(ms);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
}

/** Dhaka wall-clock date (`YYYY-MM-DD`) and time (`HH:MM`, default 20:00, the draw hour) → UTC ISO; null if invalid. */
export function dhakaLocalToIso(date: string, time = '20:00'): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const ms = parseIso(`${date}T${time}:00+06:00`);
  return ms === null ? null : new Date(ms).toISOString();
}

const SATURDAY = 6;
const DRAW_HOUR_DHAKA = 20;

/** ISO (UTC) of the next Saturday 20:00 Dhaka time strictly after fromMs. */
export function nextSaturdayDraw(fromMs: number): string {
  const local = dhakaParts(fromMs);
  const midnightLocal = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const daysAhead = (SATURDAY - local.getUTCDay() + 7) % 7;
  let draw = midnightLocal + daysAhead * DAY_MS + DRAW_HOUR_DHAKA * 3_600_000 - DHAKA_OFFSET_MS;
  if (draw <= fromMs) draw += 7 * DAY_MS;
  return new Date(draw).toISOString();
}
