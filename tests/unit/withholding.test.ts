/**
 * Who may take each step of withholding a prize, and which claims still allow it (shared/draws/withholding.ts;
 * docs/rules/lotteries-and-sales.md#9-the-draw).
 */
import { rejectionState, withholdableClaim, withholdingRefusal } from '../../shared/draws/withholding.ts';

test('only a superuser proposes; anyone on staff may reject', () => {
  expect(withholdingRefusal('propose', { actor: 1, superuser: false })).toBe('superuser_only');
  expect(withholdingRefusal('propose', { actor: 1, superuser: true })).toBeNull();
  expect(withholdingRefusal('reject', { actor: 1, superuser: false, proposer: 2 })).toBeNull();
  expect(withholdingRefusal('reject', { actor: 2, superuser: false, proposer: 2 })).toBeNull();
});

test('the approval is a different person’s from the proposal, superusers included', () => {
  expect(withholdingRefusal('approve', { actor: 2, superuser: true, proposer: 2 })).toBe('same_person');
  expect(withholdingRefusal('approve', { actor: 3, superuser: false, proposer: 2 })).toBeNull();
});

test("the author's rejection withdraws the proposal; another's rejects it", () => {
  expect(rejectionState(2, 2)).toBe('withdrawn');
  expect(rejectionState(3, 2)).toBe('rejected');
});

test('withheld only while the winner is not being paid', () => {
  expect(withholdableClaim(null)).toBeNull();
  expect(withholdableClaim('pending')).toBeNull();
  expect(withholdableClaim('payment_info_submitted')).toBe('claim_in_progress');
  expect(withholdableClaim('transfer_failed')).toBe('claim_in_progress');
  expect(withholdableClaim('transfer_completed')).toBe('prize_paid');
});
