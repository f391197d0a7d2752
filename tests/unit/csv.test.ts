/**
 * The product's one CSV writer (shared/csv.ts, docs/rules/security.md#9-csv-files): RFC 4180 quoting, and no text cell a
 * spreadsheet would run as a formula (OWASP CSV injection).
 */
import { csvCell, csvLine } from '../../shared/csv.ts';

describe('csvCell', () => {
  test.each<[string, string]>([
    ['=1+2+cmd|"/C calc"!A0', `"'=1+2+cmd|""/C calc""!A0"`],
    ['+880 1711 000000', `"'+880 1711 000000"`],
    ['-2+3', `"'-2+3"`],
    ['-5', `"'-5"`],
    ['@SUM(A1:A9)', `"'@SUM(A1:A9)"`],
    ['\t=1+2', `"'\t=1+2"`],
    ['\r=1+2', `"'\r=1+2"`],
    ['=HYPERLINK("http://x.example","click")', `"'=HYPERLINK(""http://x.example"",""click"")"`],
    ['=a,b', `"'=a,b"`],
  ])('text starting with a formula character is quoted behind a single quote: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  test.each<[string, string]>([
    ['Padma Lottery', 'Padma Lottery'],
    ['পদ্মা লটারি', 'পদ্মা লটারি'],
    ['01-02-03-04-05-06', '01-02-03-04-05-06'],
    ['2026-12-05 20:00', '2026-12-05 20:00'],
    ['a=b', 'a=b'],
    [' =1+2', ' =1+2'],
    ["'quoted", "'quoted"],
    ['', ''],
  ])('other text is left as it is: %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  test('text holding a comma, a quote or a line break is quoted, quotes doubled', () => {
    expect(csvCell('Padma "Big", Draw\nSpecial')).toBe('"Padma ""Big"", Draw\nSpecial"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });

  test("the product's own numbers are written as numbers, a negative one too; null is an empty cell", () => {
    expect(csvCell(150)).toBe('150');
    expect(csvCell(-250)).toBe('-250');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
  });
});

describe('csvLine', () => {
  test('cells joined by commas, ended by CRLF, each cell neutralised on its own', () => {
    expect(csvLine(['=1+2', 'Padma', 150, -3, null, '@x'])).toBe(`"'=1+2",Padma,150,-3,,"'@x"\r\n`);
  });
});
