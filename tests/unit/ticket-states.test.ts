import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLAIM_STATUSES } from '../../shared/claims/schemas.ts';
import { TICKET_STATES, ticketState } from '../../shared/purchases/states.ts';

const common = (lng: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../locales/${lng}/common.json`, import.meta.url)), 'utf8')) as {
    ticketStates: Record<string, string>;
    claimStates: Record<string, string>;
  };

describe('ticketState: one name per state for players and staff (docs/rules/lotteries-and-sales.md#8-transaction-states)', () => {
  test.each([
    [{ status: 'pending', trx_id: null }, 'awaiting_payment'],
    [{ status: 'pending', trx_id: 'TRX12345' }, 'awaiting_confirmation'],
    [{ status: 'success', trx_id: 'TRX12345' }, 'confirmed'],
    [{ status: 'success', trx_id: null }, 'confirmed'], // an activated generated ticket
    [{ status: 'failed', trx_id: null }, 'cancelled'],
    [{ status: 'failed', trx_id: 'TRX12345' }, 'cancelled'], // rejected by staff
  ] as const)('%j is %s', (tx, state) => {
    expect(ticketState(tx)).toBe(state);
  });

  test('every state has its own words in English and Bengali, and no other key is there', () => {
    for (const lng of ['en', 'bn']) {
      const texts = common(lng).ticketStates;
      expect(Object.keys(texts).sort()).toEqual([...TICKET_STATES].sort());
      expect(new Set(Object.values(texts)).size).toBe(TICKET_STATES.length);
    }
    expect(common('bn').ticketStates.confirmed).toBe('নিশ্চিত');
    expect(common('en').ticketStates.cancelled).toBe('Cancelled');
  });

  test("a prize claim's states: one name each for players and staff, in both languages", () => {
    for (const lng of ['en', 'bn']) {
      const texts = common(lng).claimStates;
      expect(Object.keys(texts).sort()).toEqual([...CLAIM_STATUSES].sort());
      expect(new Set(Object.values(texts)).size).toBe(CLAIM_STATUSES.length);
    }
  });
});
