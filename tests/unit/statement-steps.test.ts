/**
 * Who may take which step on an uploaded statement and its rows (docs/rules/payments.md#84-confirming-or-discarding-an-upload,
 * docs/rules/payments.md#86-resolving-a-row): never the uploader confirming his upload, never the proposer confirming
 * his proposal, and only an upload that waits is confirmed or discarded.
 */
import { approveStep, confirmRefusal, discardRefusal, rowsRefusal } from '../../server/payments/statement-steps.ts';

const UPLOADER = 7;
const OTHER = 8;

describe('confirming an upload', () => {
  test('another staff member confirms an upload awaiting confirmation', () => {
    expect(confirmRefusal({ uploaded_by: UPLOADER, status: 'awaiting_confirmation' }, OTHER)).toBeNull();
  });
  test('its uploader never does, whatever its state', () => {
    for (const status of ['awaiting_confirmation', 'confirmed', 'discarded'] as const)
      expect(confirmRefusal({ uploaded_by: UPLOADER, status }, UPLOADER)).toBe('own_upload');
  });
  test('an upload confirmed or discarded is not confirmed again', () => {
    expect(confirmRefusal({ uploaded_by: UPLOADER, status: 'confirmed' }, OTHER)).toBe('not_awaiting');
    expect(confirmRefusal({ uploaded_by: UPLOADER, status: 'discarded' }, OTHER)).toBe('not_awaiting');
  });
});

describe('discarding an upload', () => {
  test('only while it waits', () => {
    expect(discardRefusal({ status: 'awaiting_confirmation' })).toBeNull();
    expect(discardRefusal({ status: 'confirmed' })).toBe('not_awaiting');
    expect(discardRefusal({ status: 'discarded' })).toBe('not_awaiting');
  });
});

describe('deciding the rows of an upload', () => {
  test('only a confirmed upload’s rows are decided', () => {
    expect(rowsRefusal('confirmed')).toBeNull();
    expect(rowsRefusal('awaiting_confirmation')).toBe('awaiting_confirmation');
    expect(rowsRefusal('discarded')).toBe('statement_discarded');
  });
});

describe('approving a review row', () => {
  test('the first approve proposes; another staff member’s confirms; the proposer’s own is refused', () => {
    expect(approveStep(null, UPLOADER)).toBe('propose');
    expect(approveStep(UPLOADER, OTHER)).toBe('confirm');
    expect(approveStep(UPLOADER, UPLOADER)).toBe('own_proposal');
  });
});
