import { firstDuplicate, ownTicket } from '../../shared/draws/split.ts';

// docs/rules/lotteries-and-sales.md#9-the-draw: the checks of winning tickets chosen by hand.
const T1 = '05-12-23-34-45-07';
const T2 = '01-02-03-04-05-06';
const T3 = '10-20-30-40-50-15';

describe('firstDuplicate', () => {
  test('the first ticket chosen twice, or null', () => {
    expect(firstDuplicate([T1, T2, T3])).toBeNull();
    expect(firstDuplicate([T1, T2, T1, T2])).toBe(T1);
    expect(firstDuplicate([])).toBeNull();
  });
});

describe('ownTicket', () => {
  const chosen = [
    { ticket: T1, user_id: 10, activated_by: null },
    { ticket: T2, user_id: 20, activated_by: 20 },
    { ticket: T3, user_id: 30, activated_by: null },
  ];

  test('no chosen ticket held by these staff members: null', () => {
    expect(ownTicket(chosen, [1, 2])).toBeNull();
    expect(ownTicket(chosen, [])).toBeNull();
    expect(ownTicket([], [10])).toBeNull();
  });

  test('a ticket bought by one of them: the ticket and who holds it', () => {
    expect(ownTicket(chosen, [30])).toEqual({ ticket: T3, holder: 30 });
    expect(ownTicket(chosen, [1, 10])).toEqual({ ticket: T1, holder: 10 });
  });

  test('a generated ticket he activated is his too, whoever the transaction names', () => {
    expect(ownTicket([{ ticket: T2, user_id: 20, activated_by: 7 }], [7])).toEqual({ ticket: T2, holder: 7 });
  });

  test('the first in the order chosen; for one ticket, the first staff member given', () => {
    expect(ownTicket(chosen, [30, 20])).toEqual({ ticket: T2, holder: 20 });
    expect(ownTicket([{ ticket: T1, user_id: 5, activated_by: 6 }], [6, 5])).toEqual({ ticket: T1, holder: 6 });
  });
});
