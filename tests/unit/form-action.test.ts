/**
 * The one way from a form post to the API and back (views/components/action.ts): how an API's refusal becomes the
 * form's messages, the page's status, and the ids of addresses and posted fields.
 */
import { idOf, pageStatus, refusal } from '../../views/components/action.ts';
import { key } from '../../views/components/messages.ts';

describe('pageStatus', () => {
  test.each([
    [400, 400],
    [404, 404],
    [409, 409],
    [429, 429],
    [500, 502],
    [503, 502],
  ])('an API answer %i is a page answer %i', (api, page) => expect(pageStatus(api)).toBe(page));
});

describe('idOf', () => {
  test.each(['1', '42', '9'.repeat(15)])('%j is an id', (raw) => expect(idOf(raw)).toBe(raw));
  test.each([undefined, null, '', '0', '007', '-1', '1.5', 'abc', '9'.repeat(16), 42])('%j is not', (raw) => expect(idOf(raw)).toBeNull());
});

describe('refusal', () => {
  const failed = 'lottery:payment.errors.failed';
  test('field messages under their fields, no form message', () => {
    expect(refusal({ trx_id: ['Used already'] }, { failed })).toEqual({ errors: { trx_id: 'Used already' } });
  });
  test('only the listed fields show under inputs; the rest is the form message', () => {
    expect(refusal({ lottery_id: ['Sales closed'] }, { failed, fields: ['trx_id'] })).toEqual({ formError: 'Sales closed' });
  });
  test('detail, else the fallback key', () => {
    expect(refusal({ detail: 'Not found.', code: 'not_found' }, { failed })).toEqual({ formError: 'Not found.' });
    expect(refusal({}, { failed })).toEqual({ formError: key(failed) });
  });
  test('a whole-form message beside field messages; else the fix text', () => {
    const e = { non_field_errors: ['Nothing changed'], name: ['Too long'] };
    expect(refusal(e, { failed })).toEqual({ errors: { name: 'Too long' }, formError: 'Nothing changed' });
    expect(refusal({ name: ['Too long'] }, { failed, fix: 'k:fix' })).toEqual({ errors: { name: 'Too long' }, formError: 'k:fix' });
  });
  test('both: field messages and the whole text, or a key made from it', () => {
    expect(refusal({ phone: ['Taken'] }, { failed, both: true })).toEqual({ errors: { phone: 'Taken' }, formError: 'Taken' });
    const made = (message: string) => key('admin:users.form.createFailed', { message });
    expect(refusal({ phone: ['Taken'] }, { failed: made, both: true })).toEqual({ errors: { phone: 'Taken' }, formError: made('Taken') });
  });
});
