/**
 * Every CSV file the product writes goes through these two functions (docs/rules/security.md#9-csv-files): RFC 4180
 * quoting, and no text cell that a spreadsheet program would run as a formula (OWASP "CSV injection").
 */

/** A cell's value: text that comes from people or the database, or a number the product computed itself. */
export type CsvValue = string | number | boolean | null;

/**
 * The first characters that make Excel, LibreOffice or Google Sheets read a cell as a formula (`=`, `+`, `-`, `@`)
 * or that they skip before looking for one (tab, carriage return). OWASP's list.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell as the file writes it.
 * - Text that starts with a formula character is neutralised: a single quote `'` goes in front (spreadsheets show it
 *   as text, and the quote shows that something was there) and the cell is always quoted. `=1+2` becomes `"'=1+2"`.
 * - Text is quoted when it holds a comma, a quote or a line break; a quote inside is doubled.
 * - A number is written as the number it is, even a negative one: only the product's own figures (taka amounts,
 *   counts) are passed as numbers, and `-5` is a value to a spreadsheet, not a formula. Anything a person typed is
 *   passed as text, so a name such as `-5` or `+880…` is neutralised like any other.
 * - `null` is an empty cell; booleans are `true`/`false`.
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const s = String(value);
  if (typeof value === 'string' && FORMULA_START.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line of a file: the cells joined by commas, ended by CRLF (as RFC 4180 writes it). */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;
