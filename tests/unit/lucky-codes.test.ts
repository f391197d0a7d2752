import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LuckyCodes } from '../../server/draws/lucky-codes.ts';
import { DrawInputError, luckyCode } from '../../server/draws/verifiable.ts';
import { formatTicket, randomTicket } from '../../shared/ticket.ts';

/** The published vectors (tests/fixtures/draw-vectors.json): the commitment and its tickets' codes. */
const fixture = JSON.parse(readFileSync(new URL('../fixtures/draw-vectors.json', import.meta.url), 'utf8')) as {
  commitment: string;
  lucky_codes: { ticket: string; code: string }[];
};
const commitment = () => randomBytes(32).toString('hex');
const tickets = (n: number) => Array.from({ length: n }, () => formatTicket(randomTicket()));
/** Turns of the event loop, as many as the slices need. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}

describe('Lucky Chance codes for pages (docs/decisions/085-lucky-codes-from-a-table.md)', () => {
  test('before and after its table is built, a draw gives every ticket the code luckyCode gives it', async () => {
    const codes = new LuckyCodes({ buildAfter: 5, slice: 10_000 });
    const c = commitment();
    const some = tickets(400);
    for (const t of some.slice(0, 4)) expect(codes.code(c, t)).toBe(luckyCode(c, t));
    expect(codes.hasTable(c)).toBe(false);
    // The fifth code starts the table; it is not there yet: the build waits for the next turns.
    expect(codes.code(c, some[4] as string)).toBe(luckyCode(c, some[4] as string));
    expect(codes.hasTable(c)).toBe(false);
    await turns(4);
    expect(codes.hasTable(c)).toBe(true);
    for (const t of some) expect(codes.code(c, t)).toBe(luckyCode(c, t));
  });

  test('the table is built a slice per turn of the event loop, never all at once', async () => {
    const codes = new LuckyCodes({ buildAfter: 1, slice: 4_000 });
    const c = commitment();
    codes.code(c, '05-12-23-34-45-07');
    // 40,000 entries in slices of 4,000: ten turns.
    await turns(9);
    expect(codes.hasTable(c)).toBe(false);
    await turns(1);
    expect(codes.hasTable(c)).toBe(true);
  });

  test('the published vectors hold through the table (docs/rules/draws.md#8-test-vectors)', async () => {
    const codes = new LuckyCodes({ buildAfter: 1, slice: 40_000 });
    codes.code(fixture.commitment, fixture.lucky_codes[0]?.ticket as string);
    await turns(2);
    expect(codes.hasTable(fixture.commitment)).toBe(true);
    expect(fixture.lucky_codes.length).toBeGreaterThan(0);
    for (const v of fixture.lucky_codes) expect(codes.code(fixture.commitment, v.ticket)).toBe(v.code);
  });

  test('only the tables of the draws asked for most recently are kept', async () => {
    const codes = new LuckyCodes({ buildAfter: 1, slice: 40_000, keep: 2 });
    const [a, b, c] = [commitment(), commitment(), commitment()];
    codes.code(a, '05-12-23-34-45-07');
    codes.code(b, '05-12-23-34-45-07');
    await turns(2);
    expect([codes.hasTable(a), codes.hasTable(b)]).toEqual([true, true]);
    // a asked again is the most recent: c's arrival drops b, not a.
    codes.code(a, '01-02-03-04-05-01');
    codes.code(c, '05-12-23-34-45-07');
    await turns(2);
    expect([codes.hasTable(a), codes.hasTable(b), codes.hasTable(c)]).toEqual([true, false, true]);
    // b comes back as a new draw: its codes are the same, its table built again.
    expect(codes.code(b, '05-12-23-34-45-07')).toBe(luckyCode(b, '05-12-23-34-45-07'));
  });

  test('a malformed commitment or ticket is refused as luckyCode refuses it', () => {
    const codes = new LuckyCodes();
    expect(() => codes.code('AB'.repeat(32), '05-12-23-34-45-07')).toThrow(
      new DrawInputError('the commitment must be 64 lower-case hex characters (32 bytes)'),
    );
    expect(() => codes.code(commitment(), '5-12-23-34-45-7')).toThrow(DrawInputError);
  });
});
