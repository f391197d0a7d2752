/**
 * Who may take a step of an approval by hand (docs/rules/payments.md#1-who-may-do-what) and who may play
 * (docs/rules/accounts-and-codes.md#12-staff-and-superusers): plain rules.
 */
import { approvalRefusal } from '../../shared/purchases/approvals.ts';
import { mayPlay } from '../../server/play-safe/staff.ts';

describe('approvalRefusal', () => {
  test('nobody takes any step on his own purchase', () => {
    for (const step of ['propose', 'approve', 'reject'] as const)
      expect(approvalRefusal(step, { actor: 7, owner: 7, proposer: 3 })).toBe('own_purchase');
  });
  test('the approval is a second person’s: the proposer may not approve, and may withdraw (reject)', () => {
    expect(approvalRefusal('approve', { actor: 3, owner: 9, proposer: 3 })).toBe('same_person');
    expect(approvalRefusal('reject', { actor: 3, owner: 9, proposer: 3 })).toBeNull();
    expect(approvalRefusal('approve', { actor: 4, owner: 9, proposer: 3 })).toBeNull();
    expect(approvalRefusal('propose', { actor: 3, owner: 9 })).toBeNull();
  });
});

test('mayPlay: players only, staff (superusers are staff) never', () => {
  expect(mayPlay({ is_staff: false })).toBe(true);
  expect(mayPlay({ is_staff: true })).toBe(false);
});
