import { birthDateProblem, birthday, calendarDay, dhakaToday, isAdultOn } from '../../shared/accounts/age.ts';

describe('isAdultOn: 18 or older on the day, in calendar days', () => {
  test.each([
    ['2008-11-28', '2026-11-28', true], // the 18th birthday itself
    ['2008-11-29', '2026-11-28', false], // one day short
    ['2008-11-27', '2026-11-28', true],
    ['2008-12-31', '2026-12-30', false],
    ['2008-12-31', '2026-12-31', true],
    ['1950-06-15', '2026-01-01', true],
    ['2020-01-01', '2026-01-01', false],
  ])('born %s, on %s: %s', (birth, today, adult) => {
    expect(isAdultOn(birth, today)).toBe(adult);
  });

  test('born on 29 February: 18 on 1 March of a year without one, not on 28 February', () => {
    // 2008 is a leap year, 2026 is not.
    expect(isAdultOn('2008-02-29', '2026-02-28')).toBe(false);
    expect(isAdultOn('2008-02-29', '2026-03-01')).toBe(true);
    expect(birthday('2008-02-29', 18)).toBe('2026-03-01');
    expect(birthday('2000-02-29', 18)).toBe('2018-03-01');
    // A birthday that falls in a leap year stays on 29 February (2012 + 16 = 2028, a leap year).
    expect(birthday('2012-02-29', 16)).toBe('2028-02-29');
    expect(isAdultOn('2012-02-29', '2030-02-28')).toBe(false);
    expect(isAdultOn('2012-02-29', '2030-03-01')).toBe(true);
  });

  test('a date that is not a day is never adult', () => {
    expect(isAdultOn('2001-02-29', '2026-01-01')).toBe(false);
    expect(isAdultOn('1990-13-01', '2026-01-01')).toBe(false);
    expect(isAdultOn('1990-1-1', '2026-01-01')).toBe(false);
    expect(isAdultOn('1990-01-01', 'today')).toBe(false);
  });
});

describe('calendarDay', () => {
  test.each(['2024-02-29', '2000-02-29', '1999-12-31', '2026-04-30'])('%s exists', (s) => expect(calendarDay(s)).not.toBeNull());
  test.each(['1900-02-29', '2023-02-29', '2026-04-31', '2026-00-10', '2026-01-00', '26-01-01', '2026-01-01T00:00', ''])(
    '%j does not',
    (s) => expect(calendarDay(s)).toBeNull(),
  );
});

describe('birthDateProblem', () => {
  test.each([
    ['2000-05-05', null],
    ['2008-11-28', null],
    ['2008-11-29', 'underAge'],
    ['2026-11-28', 'underAge'],
    ['2026-11-29', 'invalid'], // after today
    ['1899-12-31', 'invalid'],
    ['1900-01-01', null],
    ['2001-02-29', 'invalid'],
    ['not a date', 'invalid'],
  ])('born %s on 2026-11-28: %s', (birth, problem) => {
    expect(birthDateProblem(birth, '2026-11-28')).toBe(problem);
  });
});

test('dhakaToday: the calendar day in Dhaka (UTC+6), not in UTC', () => {
  expect(dhakaToday(Date.parse('2026-11-27T17:59:59Z'))).toBe('2026-11-27');
  expect(dhakaToday(Date.parse('2026-11-27T18:00:00Z'))).toBe('2026-11-28');
});
