import { availability, ticketsLeft, type AvailabilityFields } from '../../shared/availability.ts';
import { listHref, pageCount, parsePage } from '../../views/lotteries/paging.ts';
import { checkSelection, readSelection } from '../../views/lotteries/selection.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const lottery = (over: Partial<AvailabilityFields> = {}): AvailabilityFields => ({
  published: true,
  is_result_published: false,
  drawn: false,
  start_date: '2026-11-01T00:00:00Z',
  end_date: '2026-11-28T14:00:00Z',
  total_tickets: 100,
  tickets_sold: 10,
  ...over,
});

describe('availability: whether a lottery can be bought and why not (docs/rules/lotteries-and-sales.md#4-when-a-lottery-can-be-bought)', () => {
  test('the API flag decides when present: purchasable is open', () => {
    expect(availability(lottery({ purchasable: true }), NOW)).toBe('open');
  });
  test('without the flag, published, started, not ended and with tickets left is open', () => {
    expect(availability(lottery(), NOW)).toBe('open');
  });
  test('an end date in the past or published results: ended', () => {
    expect(availability(lottery({ end_date: '2026-11-19T00:00:00Z', purchasable: false }), NOW)).toBe('ended');
    expect(availability(lottery({ is_result_published: true }), NOW)).toBe('ended');
  });
  test('drawn once and its results taken back: still ended, even before the end date (never sells again)', () => {
    expect(availability(lottery({ drawn: true }), NOW)).toBe('ended');
    expect(availability(lottery({ drawn: true, purchasable: false }), NOW)).toBe('ended');
    expect(availability(lottery({ drawn: true, tickets_sold: 100, purchasable: false }), NOW)).toBe('ended');
  });
  test('not started yet or not published: not yet on sale', () => {
    expect(availability(lottery({ start_date: '2026-11-25T00:00:00Z', purchasable: false }), NOW)).toBe('notYet');
    expect(availability(lottery({ published: false }), NOW)).toBe('notYet');
  });
  test('every ticket sold: sold out; the count left never goes below zero', () => {
    expect(availability(lottery({ tickets_sold: 100, purchasable: false }), NOW)).toBe('soldOut');
    expect(ticketsLeft({ total_tickets: 100, tickets_sold: 40 })).toBe(60);
    expect(ticketsLeft({ total_tickets: 100, tickets_sold: 140 })).toBe(0);
  });
  test('closed by the API for a reason the page cannot see: not available yet', () => {
    expect(availability(lottery({ purchasable: false }), NOW)).toBe('notYet');
  });
});

describe('readSelection: what the no-JS picker form sent', () => {
  const q = (s: string) => new URLSearchParams(s);
  test('reads the lottery, the repeated main numbers (sorted, distinct) and the last number', () => {
    expect(readSelection(q('lottery=3&main=45&main=5&main=12&main=5&last=7'))).toEqual({
      lotteryId: 3,
      main: [5, 12, 45],
      last: 7,
      invalid: false,
    });
  });
  test('no or a bad lottery id gives null', () => {
    expect(readSelection(q('main=1')).lotteryId).toBeNull();
    expect(readSelection(q('lottery=abc')).lotteryId).toBeNull();
    expect(readSelection(q('lottery=0')).lotteryId).toBeNull();
    expect(readSelection(q('lottery=-2')).lotteryId).toBeNull();
  });
  test('out-of-range or non-numeric values are dropped and flagged', () => {
    expect(readSelection(q('lottery=1&main=56&main=0&main=x&main=9&last=16'))).toEqual({
      lotteryId: 1,
      main: [9],
      last: null,
      invalid: true,
    });
  });
  test('an empty last number is simply not chosen', () => {
    expect(readSelection(q('lottery=1&last=')).last).toBeNull();
    expect(readSelection(q('lottery=1&last=')).invalid).toBe(false);
  });
});

describe('checkSelection: the picker messages, or the ticket (docs/rules/tickets.md#4-picking-numbers)', () => {
  test('five main numbers and a last number make a ticket', () => {
    expect(checkSelection({ main: [5, 12, 23, 34, 45], last: 7, invalid: false })).toEqual({
      ok: true,
      ticket: { main: [5, 12, 23, 34, 45], last: 7 },
    });
  });
  test('too few numbers and no last number: both messages, in the form order', () => {
    expect(checkSelection({ main: [1, 2], last: null, invalid: false })).toEqual({
      ok: false,
      messages: ['selectAtLeastFive', 'selectLastNumber'],
    });
  });
  test('more than five (possible without JavaScript) asks for only five', () => {
    expect(checkSelection({ main: [1, 2, 3, 4, 5, 6], last: 3, invalid: false })).toEqual({ ok: false, messages: ['selectOnlyFive'] });
  });
  test('a tampered value is reported even when the rest would do', () => {
    expect(checkSelection({ main: [1, 2, 3, 4, 5], last: 3, invalid: true })).toEqual({ ok: false, messages: ['invalidNumber'] });
  });
});

describe('paging of /all-lotteries', () => {
  test('parsePage: whole numbers ≥ 1, anything else is page 1', () => {
    expect(parsePage('2')).toBe(2);
    expect(parsePage(' 3 ')).toBe(3);
    for (const bad of [null, undefined, '', '0', '-1', '1.5', 'abc', '1e3']) expect(parsePage(bad)).toBe(1);
    expect(parsePage('999999999', 500)).toBe(500);
  });
  test('pageCount: at least one page', () => {
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
  });
  test('listHref leaves out page 1 and an absent pick', () => {
    expect(listHref('/all-lotteries', 1)).toBe('/all-lotteries');
    expect(listHref('/all-lotteries', 2)).toBe('/all-lotteries?page=2');
    expect(listHref('/all-lotteries', 1, 7)).toBe('/all-lotteries?pick=7');
    expect(listHref('/all-lotteries', 3, 7)).toBe('/all-lotteries?page=3&pick=7');
  });
});
