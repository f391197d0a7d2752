/**
 * The rules of money out (docs/rules/lotteries-and-sales.md#11-prize-claims): the 72-hour hold after a change of a
 * player's account, and four eyes on a transfer (shared/claims/payout.ts).
 */
import {
  CONTACT_HOLD_HOURS,
  heldUntil,
  needsSecondApproval,
  refuseApproval,
  refuseCompletion,
  type PayoutFacts,
} from '../../shared/claims/payout.ts';

const H = 3600 * 1000;
const changed = '2026-03-01T06:00:00.000Z';
const at = (hours: number) => new Date(changed).getTime() + hours * H;

describe('heldUntil: 72 hours after the change', () => {
  test('no change: no hold', () => {
    expect(heldUntil(null, at(0))).toBeNull();
  });

  test('held from the change until exactly 72 hours later, then free', () => {
    const end = '2026-03-04T06:00:00.000Z';
    expect(CONTACT_HOLD_HOURS).toBe(72);
    expect(heldUntil(changed, at(0))).toBe(end);
    expect(heldUntil(changed, at(71.99))).toBe(end);
    expect(heldUntil(changed, at(72) - 1)).toBe(end);
    expect(heldUntil(changed, at(72))).toBeNull();
    expect(heldUntil(changed, at(100))).toBeNull();
  });

  test('a Date (as a database driver may give) counts like its ISO text; an unreadable time holds nothing', () => {
    expect(heldUntil(new Date(changed), at(1))).toBe('2026-03-04T06:00:00.000Z');
    expect(heldUntil('not a date', at(1))).toBeNull();
  });
});

describe('needsSecondApproval: more than the threshold', () => {
  test.each([
    [10_000, 10_000, false],
    [10_001, 10_000, true],
    [1, 0, true],
    [100_000, 100_000, false],
  ])('TK %d with threshold %d → %p', (prize, threshold, needed) => {
    expect(needsSecondApproval(prize, threshold)).toBe(needed);
  });
});

const STAFF = 10;
const OTHER = 11;
const WINNER = 20;
const facts = (o: Partial<PayoutFacts> = {}): PayoutFacts => ({
  staffId: STAFF,
  winnerId: WINNER,
  prizeMoney: 50_000,
  thresholdTk: 10_000,
  contactChangedAt: null,
  contactChangedBy: null,
  approvedBy: null,
  ...o,
});
const now = at(200);

describe('refuseCompletion', () => {
  test('a large prize approved by another staff member, the account not changed lately: allowed', () => {
    expect(refuseCompletion(facts({ approvedBy: OTHER }), now)).toBeNull();
  });

  test('a small prize needs no approval', () => {
    expect(refuseCompletion(facts({ prizeMoney: 10_000 }), now)).toBeNull();
  });

  test('a large prize without approval, or approved by the same staff member: refused', () => {
    expect(refuseCompletion(facts(), now)).toEqual({ reason: 'approval_needed' });
    expect(refuseCompletion(facts({ approvedBy: STAFF }), now)).toEqual({ reason: 'approver_completes' });
  });

  test('the hold comes first, whoever acts and whatever was approved', () => {
    const held = facts({ contactChangedAt: changed, contactChangedBy: OTHER, approvedBy: OTHER, prizeMoney: 5 });
    expect(refuseCompletion(held, at(1))).toEqual({ reason: 'held', until: '2026-03-04T06:00:00.000Z' });
    expect(refuseCompletion(held, at(72))).toBeNull();
  });

  test('the staff member who changed the account never completes, also after the hold and for a small prize', () => {
    const f = facts({ contactChangedAt: changed, contactChangedBy: STAFF, approvedBy: OTHER, prizeMoney: 100 });
    expect(refuseCompletion(f, now)).toEqual({ reason: 'changed_account' });
    // The player's own change does not stop staff.
    expect(refuseCompletion({ ...f, contactChangedBy: WINNER }, now)).toBeNull();
  });

  test('staff never pay their own prize', () => {
    expect(refuseCompletion(facts({ winnerId: STAFF, approvedBy: OTHER }), now)).toEqual({ reason: 'own_prize' });
  });
});

describe('refuseApproval', () => {
  test('a large prize: any other staff member may approve', () => {
    expect(refuseApproval(facts(), now)).toBeNull();
  });

  test('at most the threshold: nothing to approve', () => {
    expect(refuseApproval(facts({ prizeMoney: 10_000 }), now)).toEqual({ reason: 'approval_not_needed' });
  });

  test('held, own prize, or the one who changed the account: refused', () => {
    expect(refuseApproval(facts({ contactChangedAt: changed }), at(3))).toEqual({ reason: 'held', until: '2026-03-04T06:00:00.000Z' });
    expect(refuseApproval(facts({ winnerId: STAFF }), now)).toEqual({ reason: 'own_prize' });
    expect(refuseApproval(facts({ contactChangedAt: changed, contactChangedBy: STAFF }), now)).toEqual({ reason: 'changed_account' });
  });
});
