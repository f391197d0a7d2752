/** A game's calendar (docs/rules/games.md#2-the-calendar): its next draws on Dhaka weekdays at a Dhaka time. */
import { daysMask, daysOf, hhmmOf, minuteOf, nextDraws, salesCloseOf, WEEKDAYS } from '../../shared/games/calendar.ts';

const SATURDAY_8PM = { draw_days: daysMask(['sat']), draw_minute: 20 * 60, close_minutes: 30, starts_at: '2026-01-01T00:00:00Z' };
const iso = (d: Date[]) => d.map((x) => x.toISOString());

describe('the weekdays and the time as stored', () => {
  test('a weekday is one bit, Sunday 1 … Saturday 64; the mask gives them back Sunday first', () => {
    expect(daysMask(['sun'])).toBe(1);
    expect(daysMask(['sat'])).toBe(64);
    expect(daysMask(['sat', 'wed'])).toBe(64 + 8);
    expect(daysOf(72)).toEqual(['wed', 'sat']);
    expect(daysOf(daysMask([...WEEKDAYS]))).toEqual([...WEEKDAYS]);
  });

  test('the time as HH:MM and minutes after midnight, both ways; anything else is not a time', () => {
    expect(minuteOf('20:00')).toBe(1200);
    expect(minuteOf('00:05')).toBe(5);
    expect(minuteOf('23:59')).toBe(1439);
    for (const bad of ['24:00', '8:00', '20:60', '20.00', '', '20:00:00']) expect(minuteOf(bad)).toBeNull();
    expect(hhmmOf(1200)).toBe('20:00');
    expect(hhmmOf(5)).toBe('00:05');
  });
});

describe('the next draws', () => {
  // Saturday 28 November 2026, 12:00 in Dhaka (06:00 UTC).
  const saturdayNoon = Date.parse('2026-11-28T06:00:00Z');

  test('Saturday 8 PM Dhaka is 14:00 UTC: the next three from a Saturday noon are that evening and the two after', () => {
    expect(iso(nextDraws(SATURDAY_8PM, saturdayNoon, 3))).toEqual([
      '2026-11-28T14:00:00.000Z',
      '2026-12-05T14:00:00.000Z',
      '2026-12-12T14:00:00.000Z',
    ]);
  });

  test("once a draw's sales closed (half an hour before) it is no longer among the draws on sale", () => {
    const atClose = Date.parse('2026-11-28T13:30:00Z');
    expect(iso(nextDraws(SATURDAY_8PM, atClose - 1, 1))).toEqual(['2026-11-28T14:00:00.000Z']);
    expect(iso(nextDraws(SATURDAY_8PM, atClose, 1))).toEqual(['2026-12-05T14:00:00.000Z']);
  });

  test('the Dhaka day counts, not the UTC one: a draw at 02:00 Dhaka on Sunday is Saturday 20:00 UTC', () => {
    const c = { ...SATURDAY_8PM, draw_days: daysMask(['sun']), draw_minute: 120, close_minutes: 0 };
    expect(iso(nextDraws(c, saturdayNoon, 1))).toEqual(['2026-11-28T20:00:00.000Z']);
  });

  test('two weekdays alternate; none before the game starts', () => {
    const c = { ...SATURDAY_8PM, draw_days: daysMask(['wed', 'sat']), starts_at: '2026-12-01T00:00:00Z' };
    expect(iso(nextDraws(c, saturdayNoon, 3))).toEqual([
      '2026-12-02T14:00:00.000Z',
      '2026-12-05T14:00:00.000Z',
      '2026-12-09T14:00:00.000Z',
    ]);
  });

  test('no weekday or no count: no draws', () => {
    expect(nextDraws({ ...SATURDAY_8PM, draw_days: 0 }, saturdayNoon, 3)).toEqual([]);
    expect(nextDraws(SATURDAY_8PM, saturdayNoon, 0)).toEqual([]);
  });

  test('sales close the given minutes before the draw', () => {
    expect(salesCloseOf(new Date('2026-11-28T14:00:00Z'), 30).toISOString()).toBe('2026-11-28T13:30:00.000Z');
  });
});
