/** The freeze rule (docs/rules/lotteries-and-sales.md#8-transaction-states): from the end of sales, to the millisecond. */
import { closedFor, stillOnSale, ticketsFrozen, type SaleFacts } from '../../shared/lotteries/freeze.ts';

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

describe('closedFor: why a purchase can no longer be confirmed (one answer for every confirming path)', () => {
  const START = '2026-05-01T00:00:00.000Z';
  const open: SaleFacts = { published: true, is_result_published: false, drawn: false, start_date: START, end_date: END };

  test('on sale: nothing stops a confirmation, to the last millisecond before the end of sales', () => {
    expect(closedFor(open, { end_date: END, frozen_at: null }, endMs - 1)).toBeUndefined();
    expect(closedFor(open, undefined, endMs - 1)).toBeUndefined();
    expect(stillOnSale(open, endMs - 1)).toBe(true);
  });

  test('from the end of sales, or a freeze on record, one answer: tickets_frozen', () => {
    expect(closedFor(open, { end_date: END, frozen_at: null }, endMs)).toBe('tickets_frozen');
    expect(closedFor(open, undefined, endMs)).toBe('tickets_frozen');
    // A freeze recorded by another instance, this clock behind.
    expect(closedFor(open, { end_date: END, frozen_at: END }, endMs - 60_000)).toBe('tickets_frozen');
    expect(stillOnSale(open, endMs - 60_000)).toBe(true);
  });

  test('the freeze first: after the close, results out or a lottery taken off sale still answer tickets_frozen', () => {
    const after = endMs + 1;
    expect(closedFor({ ...open, is_result_published: true, drawn: true }, { end_date: END, frozen_at: END }, after)).toBe('tickets_frozen');
    expect(closedFor({ ...open, published: false }, { end_date: END, frozen_at: null }, after)).toBe('tickets_frozen');
  });

  test('before the close: results out is results_published; off sale (unpublished, not started, drawn) is sales_closed', () => {
    const now = endMs - 1;
    const freeze = { end_date: END, frozen_at: null };
    expect(closedFor({ ...open, is_result_published: true }, freeze, now)).toBe('results_published');
    expect(closedFor({ ...open, published: false }, freeze, now)).toBe('sales_closed');
    expect(closedFor({ ...open, drawn: true }, freeze, now)).toBe('sales_closed');
    expect(closedFor({ ...open, start_date: END }, freeze, now)).toBe('sales_closed');
    expect(stillOnSale({ ...open, start_date: END }, now)).toBe(false);
  });
});
