import {
  LAST_MAX,
  MAIN_COUNT,
  MAIN_MAX,
  cryptoRandomInt,
  formatTicket,
  groupSecret,
  isSecretNumber,
  normaliseSecret,
  normaliseTicket,
  parseTicket,
  randomTicket,
  ticketNumberParts,
  toggleLast,
  toggleMain,
  validateSelection,
} from '../../shared/ticket.ts';

describe('ticket constants', () => {
  test('are the rules (docs/rules/tickets.md): 5 main numbers of 1–55, last number 1–15', () => {
    expect([MAIN_COUNT, MAIN_MAX, LAST_MAX]).toEqual([5, 55, 15]);
  });
});

describe('parseTicket', () => {
  test.each([
    ['5-12-23-34-45-7', [5, 12, 23, 34, 45], 7],
    ['05-12-23-34-45-07', [5, 12, 23, 34, 45], 7],
    ['45-5-34-12-23-7', [5, 12, 23, 34, 45], 7],
    [' 05 - 12 -23- 34-45 -07 ', [5, 12, 23, 34, 45], 7],
    ['1-2-3-4-5-1', [1, 2, 3, 4, 5], 1],
    ['51-52-53-54-55-15', [51, 52, 53, 54, 55], 15],
    ['55-1-30-2-54-15', [1, 2, 30, 54, 55], 15],
    ['\t1-2-3-4-5-1\n', [1, 2, 3, 4, 5], 1],
  ])('accepts %j and sorts the main numbers', (text, main, last) => {
    expect(parseTicket(text)).toEqual({ main, last });
  });

  test.each([
    ['', 'empty text'],
    ['0-12-23-34-45-7', 'main number 0'],
    ['56-12-23-34-45-7', 'main number 56'],
    ['5-12-23-34-45-0', 'last number 0'],
    ['5-12-23-34-45-16', 'last number 16'],
    ['5-5-23-34-45-7', 'duplicate main number'],
    ['05-5-23-34-45-7', 'duplicate main number written differently'],
    ['5-12-23-34-45', 'five parts'],
    ['5-12-23-34-45-7-8', 'seven parts'],
    ['5-12--34-45-7', 'empty part'],
    ['-5-12-23-34-45', 'leading dash'],
    ['5-12-23-34-45-', 'trailing dash'],
    ['1.5-12-23-34-45-7', 'decimal'],
    ['+3-12-23-34-45-7', 'plus sign'],
    ['5-12-23-34-45-1e1', 'exponent'],
    ['5-12-23-34-45-0x7', 'hex'],
    ['005-12-23-34-45-07', 'three digits'],
    ['5-1 2-23-34-45-7', 'space inside a number'],
    ['5,12,23,34,45,7', 'commas'],
    ['5 12 23 34 45 7', 'spaces only'],
    ['a-12-23-34-45-7', 'letter'],
    ['৫-১২-২৩-৩৪-৪৫-৭', 'Bengali digits (the ticket text form is ASCII)'],
    ['00-12-23-34-45-07', 'zero written as 00'],
  ])('rejects %j (%s)', (text) => {
    expect(parseTicket(text)).toBeNull();
  });

  test('rejects a non-string at run time', () => {
    expect(parseTicket(undefined as unknown as string)).toBeNull();
    expect(parseTicket(123 as unknown as string)).toBeNull();
  });

  test('the last number may equal a main number (they are separate pools)', () => {
    expect(parseTicket('7-12-23-34-45-7')).toEqual({ main: [7, 12, 23, 34, 45], last: 7 });
  });
});

describe('formatTicket and normaliseTicket', () => {
  test('formats zero-padded, main ascending, last at the end', () => {
    expect(formatTicket({ main: [45, 5, 34, 12, 23], last: 7 })).toBe('05-12-23-34-45-07');
    expect(formatTicket({ main: [51, 52, 53, 54, 55], last: 15 })).toBe('51-52-53-54-55-15');
  });

  test('does not reorder the caller’s array', () => {
    const main = [45, 5, 34, 12, 23];
    formatTicket({ main, last: 7 });
    expect(main).toEqual([45, 5, 34, 12, 23]);
  });

  test.each([
    ['5-12-23-34-45-7', '05-12-23-34-45-07'],
    ['05-12-23-34-45-07', '05-12-23-34-45-07'],
    ['45-34-23-12-5-7', '05-12-23-34-45-07'],
    [' 1 - 2 - 3 - 4 - 5 - 1 ', '01-02-03-04-05-01'],
    ['5-12-23-34-45-16', null],
    ['garbage', null],
  ])('normaliseTicket(%j) → %j', (text, expected) => {
    expect(normaliseTicket(text)).toBe(expected);
  });

  test('round trip: parse(format(t)) gives t back', () => {
    const t = { main: [3, 9, 27, 41, 55], last: 11 };
    expect(parseTicket(formatTicket(t))).toEqual(t);
  });
});

describe('ticketNumberParts', () => {
  test('gives the six two-digit strings of the canonical form', () => {
    expect(ticketNumberParts('45-5-34-12-23-7')).toEqual(['05', '12', '23', '34', '45', '07']);
  });
  test('null for a text that is not a ticket', () => {
    expect(ticketNumberParts('5-12-23')).toBeNull();
  });
});

describe('validateSelection', () => {
  test('valid selection gives a sorted ticket', () => {
    expect(validateSelection([45, 5, 34, 12, 23], 7)).toEqual({ ok: true, ticket: { main: [5, 12, 23, 34, 45], last: 7 } });
  });

  test('does not mutate the selection', () => {
    const main = [45, 5, 34, 12, 23];
    validateSelection(main, 7);
    expect(main).toEqual([45, 5, 34, 12, 23]);
  });

  test.each<[string, number[], number | null, string[]]>([
    ['nothing chosen', [], null, ['selectFiveMain', 'selectLastNumber']],
    ['four main numbers', [1, 2, 3, 4], 1, ['selectFiveMain']],
    ['six main numbers', [1, 2, 3, 4, 5, 6], 1, ['selectFiveMain']],
    ['no last number', [1, 2, 3, 4, 5], null, ['selectLastNumber']],
    ['main 0', [0, 2, 3, 4, 5], 1, ['invalidNumber']],
    ['main 56', [1, 2, 3, 4, 56], 1, ['invalidNumber']],
    ['main 1.5', [1.5, 2, 3, 4, 5], 1, ['invalidNumber']],
    ['main NaN', [Number.NaN, 2, 3, 4, 5], 1, ['invalidNumber']],
    ['last 0', [1, 2, 3, 4, 5], 0, ['invalidNumber']],
    ['last 16', [1, 2, 3, 4, 5], 16, ['invalidNumber']],
    ['duplicate main', [1, 1, 3, 4, 5], 1, ['duplicateNumber']],
    ['duplicate and short', [1, 1, 3, 4], null, ['selectFiveMain', 'selectLastNumber', 'duplicateNumber']],
  ])('%s', (_name, main, last, errors) => {
    expect(validateSelection(main, last)).toEqual({ ok: false, errors });
  });

  test.each([
    [[1, 2, 3, 4, 55], 1],
    [[1, 2, 3, 4, 5], 15],
  ])('boundaries %j + %i are valid', (main, last) => {
    expect(validateSelection(main, last).ok).toBe(true);
  });
});

describe('toggleMain', () => {
  test('adds a number and keeps the selection ascending', () => {
    expect(toggleMain([10, 30], 20)).toEqual([10, 20, 30]);
  });
  test('removes a number that is already picked', () => {
    expect(toggleMain([10, 20, 30], 20)).toEqual([10, 30]);
  });
  test('adds up to five', () => {
    let sel: number[] = [];
    for (const n of [9, 3, 55, 1, 27]) sel = toggleMain(sel, n);
    expect(sel).toEqual([1, 3, 9, 27, 55]);
  });
  test('ignores a sixth pick and returns the same array', () => {
    const full = [1, 2, 3, 4, 5];
    expect(toggleMain(full, 6)).toBe(full);
  });
  test('a full selection still allows removing', () => {
    expect(toggleMain([1, 2, 3, 4, 5], 3)).toEqual([1, 2, 4, 5]);
  });
  test.each([0, 56, -1, 2.5, Number.NaN])('ignores out-of-range %p', (n) => {
    const sel = [1];
    expect(toggleMain(sel, n)).toBe(sel);
  });
  test('never mutates its input', () => {
    const sel = [10, 30];
    toggleMain(sel, 20);
    toggleMain(sel, 10);
    expect(sel).toEqual([10, 30]);
  });
});

describe('toggleLast', () => {
  test.each<[number | null, number, number | null]>([
    [null, 7, 7],
    [7, 7, null],
    [7, 8, 8],
    [null, 1, 1],
    [null, 15, 15],
    [null, 0, null],
    [3, 16, 3],
    [3, 1.5, 3],
  ])('toggleLast(%p, %p) → %p', (current, n, expected) => {
    expect(toggleLast(current, n)).toBe(expected);
  });
});

/** A deterministic source: returns the given values in turn. */
const sequence = (values: number[]) => {
  let i = 0;
  const calls: number[] = [];
  const rand = (max: number) => {
    calls.push(max);
    return values[i++ % values.length] as number;
  };
  return { rand, calls };
};

describe('randomTicket', () => {
  test('always-zero source takes the first of each pool', () => {
    const { rand, calls } = sequence([0]);
    expect(randomTicket(rand)).toEqual({ main: [1, 2, 3, 4, 5], last: 1 });
    expect(calls).toEqual([55, 54, 53, 52, 51, 15]);
  });

  test('maximal source: Fisher–Yates swaps 55 to the front, then the displaced numbers follow', () => {
    const rand = (max: number) => max - 1;
    expect(randomTicket(rand)).toEqual({ main: [1, 2, 3, 4, 55], last: 15 });
  });

  test('a picked index is never picked again (distinct main numbers)', () => {
    const { rand } = sequence([10, 9, 8, 7, 6, 3]);
    // Index 10 picks 11; then 1+9, 2+8, 3+7, 4+6 all point at slot 10, which each time holds the number just displaced: 1, 2, 3, 4.
    expect(randomTicket(rand)).toEqual({ main: [1, 2, 3, 4, 11], last: 4 });
  });

  test('throws when the source goes out of range', () => {
    expect(() => randomTicket(() => 55)).toThrow(RangeError);
    expect(() => randomTicket(() => -1)).toThrow(RangeError);
    expect(() => randomTicket(() => 0.5)).toThrow(RangeError);
  });

  test('with the default CSPRNG always gives a valid ticket', () => {
    for (let i = 0; i < 500; i++) {
      const t = randomTicket();
      expect(parseTicket(formatTicket(t))).toEqual(t);
    }
  });
});

describe('cryptoRandomInt', () => {
  test('stays in [0, max)', () => {
    for (const max of [1, 2, 15, 55, 1000]) {
      for (let i = 0; i < 200; i++) {
        const x = cryptoRandomInt(max);
        expect(Number.isInteger(x) && x >= 0 && x < max).toBe(true);
      }
    }
  });

  test('reaches every value of a small range', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(cryptoRandomInt(15));
    expect(seen.size).toBe(15);
  });

  test('rejects values at or above the largest multiple of max (no modulo bias)', () => {
    // 2^32 % 3 === 1, so 2^32 - 1 must be rejected (it would favour 0); then 7 gives 7 % 3 === 1.
    const queue = [2 ** 32 - 1, 7];
    let calls = 0;
    const fake = <T extends ArrayBufferView | null>(arr: T): T => {
      calls++;
      (arr as unknown as Uint32Array)[0] = queue.shift() as number;
      return arr;
    };
    Object.defineProperty(globalThis.crypto, 'getRandomValues', { value: fake, configurable: true, writable: true });
    try {
      expect(cryptoRandomInt(3)).toBe(1);
      expect(calls).toBe(2);
    } finally {
      delete (globalThis.crypto as unknown as Record<string, unknown>).getRandomValues;
    }
    expect(globalThis.crypto.getRandomValues).not.toBe(fake);
  });

  test.each([0, -1, 1.5, 2 ** 32 + 1, Number.NaN])('throws for max %p', (max) => {
    expect(() => cryptoRandomInt(max)).toThrow(RangeError);
  });
});

describe('secret numbers', () => {
  test.each([
    ['1234567812345678', true],
    ['1234 5678 1234 5678', true],
    ['1234-5678-1234-5678', true],
    [' 1234 5678-1234 5678 ', true],
    ['123456781234567', false],
    ['12345678123456789', false],
    ['1234 5678 1234 567a', false],
    ['', false],
    ['১২৩৪৫৬৭৮১২৩৪৫৬৭৮', false],
  ])('isSecretNumber(%j) is %p', (s, ok) => {
    expect(isSecretNumber(s)).toBe(ok);
  });

  test('normaliseSecret strips spaces and dashes', () => {
    expect(normaliseSecret('1234-5678 1234-5678')).toBe('1234567812345678');
  });

  test('groupSecret writes four groups of four', () => {
    expect(groupSecret('0000111122223333')).toBe('0000 1111 2222 3333');
    expect(groupSecret('0000-1111-2222-3333')).toBe('0000 1111 2222 3333');
    expect(groupSecret('123')).toBeNull();
  });
});
