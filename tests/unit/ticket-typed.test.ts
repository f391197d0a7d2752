import { readLuckyCode, readTypedTicket, type TypedTicketError } from '../../shared/ticket-typed.ts';

const canonical = (s: string) => {
  const r = readTypedTicket(s);
  return r.ok ? r.canonical : `error: ${r.error}`;
};

describe('readTypedTicket: a ticket as people type it (docs/rules/tickets.md#9-a-ticket-as-people-type-it)', () => {
  test.each([
    ['5 11 12 34 51 2', 'spaces, the main numbers in the order typed'],
    ['51 34 12 11 5 2', 'the main numbers backwards'],
    ['05-11-12-34-51-02', 'the canonical form'],
    ['5-11-12-34-51-2', 'dashes without leading zeros'],
    ['5,11,12,34,51,2', 'commas'],
    ['5, 11, 12, 34, 51, 2', 'commas and spaces'],
    ['5. 11. 12. 34. 51 / 2', 'other punctuation'],
    ['  05   11\t12\n34  51   2  ', 'runs of white space'],
    ['০৫ ১১ ১২ ৩৪ ৫১ ২', 'Bengali digits'],
    ['৫,১১,12,৩৪,51,০২', 'Bengali and ASCII digits mixed'],
    ['５ １１ １２ ３４ ５１ ２', 'full-width digits'],
    ['005 11 12 34 51 002', 'more leading zeros'],
    ['5 11 12 34 51 + 2', 'a symbol between the main numbers and the last'],
  ])('%s (%s) is 05-11-12-34-51-02', (typed) => {
    expect(canonical(typed)).toBe('05-11-12-34-51-02');
  });

  test('the last number typed is the last number, whatever its size', () => {
    expect(canonical('2 5 11 12 34 15')).toBe('02-05-11-12-34-15');
    expect(canonical('2 5 11 12 34 1')).toBe('02-05-11-12-34-01');
  });

  test('the last number may equal a main number', () => {
    expect(canonical('5 11 12 34 51 5')).toBe('05-11-12-34-51-05');
  });

  test('the parsed numbers come back too', () => {
    expect(readTypedTicket('51 34 12 11 5 2')).toEqual({
      ok: true,
      ticket: { main: [5, 11, 12, 34, 51], last: 2 },
      canonical: '05-11-12-34-51-02',
    });
  });

  test.each<[string, TypedTicketError]>([
    ['', 'tooFew'],
    ['   ', 'tooFew'],
    ['5 11 12 34 51', 'tooFew'],
    ['5', 'tooFew'],
    ['5 11 12 34 51 2 7', 'tooMany'],
    ['1 2 3 4 5 6 7 8 9', 'tooMany'],
    ['0 11 12 34 51 2', 'mainOutOfRange'],
    ['5 11 12 34 56 2', 'mainOutOfRange'],
    ['5 11 12 34 100 2', 'mainOutOfRange'],
    ['5 11 12 34 51 0', 'lastOutOfRange'],
    ['5 11 12 34 51 16', 'lastOutOfRange'],
    ['5 11 12 34 51 55', 'lastOutOfRange'],
    ['5 5 12 34 51 2', 'repeated'],
    ['05 5 12 34 51 2', 'repeated'],
    ['5 11 12 34 51 two', 'notNumbers'],
    ['a 11 12 34 51 2', 'notNumbers'],
    ['5 11 12 34 51 2x', 'notNumbers'],
    ['5 11 12 34 5100 2', 'notNumbers'],
    ['5 11 12 34 51 २', 'notNumbers'],
  ])('%j is refused: %s', (typed, error) => {
    expect(readTypedTicket(typed)).toEqual({ ok: false, error });
  });

  test('the count is judged before the range, the range before a repeat', () => {
    expect(readTypedTicket('99 99 2')).toEqual({ ok: false, error: 'tooFew' });
    expect(readTypedTicket('99 99 12 34 51 2')).toEqual({ ok: false, error: 'mainOutOfRange' });
  });
});

describe('a Lucky Chance code as people type it (readLuckyCode)', () => {
  test('with or without BHG, grouped or not, any case, Bengali digits: the code as the proof writes it', () => {
    for (const typed of ['BHG 4821 7730', 'bhg48217730', '4821 7730', '4821-7730', ' BHG-4821.7730 ', 'BHG ৪৮২১ ৭৭৩০'])
      expect(readLuckyCode(typed)).toBe('BHG 4821 7730');
  });

  test('anything else is not a code (and is read as a ticket): a ticket, too few or too many digits, other letters', () => {
    for (const typed of ['5 12 23 34 45 7', '4821 773', '4821 77301', 'ABC 4821 7730', 'BHG 4821 7730 1', '', 'BHG'])
      expect(readLuckyCode(typed)).toBeNull();
  });
});
