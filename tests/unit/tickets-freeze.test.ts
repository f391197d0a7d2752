/** The freeze rule (docs/rules/lotteries-and-sales.md#8-transaction-states): from the end of sales, to the millisecond. */
import { ticketsFrozen } from '../../shared/lotteries/freeze.ts';

const END = '2026-06-01T14:00:00.000Z';
const endMs = Date.parse(END);

describe('ticketsFrozen', () => {
  test('open until the last millisecond before the end of sales, frozen from the end itself', () => {
    expect(ticketsFrozen({ end_date: END, frozen_at: null }, endMs - 1)).toBe(false);
    expect(ticketsFrozen({ end_date: END, frozen_at: null }, endMs)).toBe(true);
    expect(ticketsFrozen({ end_date: END, frozen_at: null }, endMs + 1)).toBe(true);
    expect(ticketsFrozen({ end_date: new Date(endMs), frozen_at: null }, endMs - 1)).toBe(false);
    expect(ticketsFrozen({ end_date: new Date(endMs), frozen_at: null }, endMs)).toBe(true);
  });

  test('a freeze on record is final whatever the clock says (another instance, a clock behind)', () => {
    expect(ticketsFrozen({ end_date: END, frozen_at: '2026-06-01T14:00:05.000Z' }, endMs - 60_000)).toBe(true);
    expect(ticketsFrozen({ end_date: END, frozen_at: new Date(endMs) }, 0)).toBe(true);
  });

  test('an end of sales that is not a date freezes: nothing changes on a lottery whose close cannot be told', () => {
    expect(ticketsFrozen({ end_date: 'not a date', frozen_at: null }, endMs)).toBe(true);
    expect(ticketsFrozen({ end_date: '', frozen_at: null }, 0)).toBe(true);
  });
});
