/**
 * The SMS gateways' answers as the notifier reads them (docs/rules/messages.md#7-sms-gateways): accepted with the
 * gateway's reference, refused for good, not taken for now (transient: the fallback may send it), or unknown (it may
 * have gone out: no other gateway may send it).
 */
import { alphaOutcome, alphaReport } from '../../server/notify/gateways/alphasms.ts';
import { sslOutcome, SSL_CODES } from '../../server/notify/gateways/sslwireless.ts';
import { byHttpStatus, msisdn } from '../../server/notify/gateways/types.ts';

const info = (o: Record<string, string>) => ({
  sms_status: 'SUCCESS',
  status_message: 'Success',
  msisdn: '8801711111111',
  sms_type: 'EN',
  sms_body: 'x',
  csms_id: 'bh1',
  reference_id: '5da2f0b5ba3a2248110',
  ...o,
});

describe('SSL Wireless', () => {
  test('200 with SUCCESS in smsinfo is accepted with its reference_id', () => {
    expect(sslOutcome({ status: 'SUCCESS', status_code: 200, error_message: '', smsinfo: [info({})] }, 'bh1')).toEqual({
      kind: 'accepted',
      ref: '5da2f0b5ba3a2248110',
    });
  });

  test('a duplicate csms_id means an earlier try was taken: accepted, top-level 4023 or in smsinfo', () => {
    expect(sslOutcome({ status: 'FAILED', status_code: 4023, error_message: 'Duplicate CSMS ID', smsinfo: [] }, 'bh1')).toEqual({
      kind: 'accepted',
      ref: null,
    });
    const dup = info({ sms_status: 'DUPLICATE', status_message: 'Duplicate CSMS ID' });
    expect(sslOutcome({ status: 'SUCCESS', status_code: 200, smsinfo: [dup] }, 'bh1')).toEqual({ kind: 'accepted', ref: null });
  });

  test.each([
    [4001, 'refused'],
    [4002, 'refused'],
    [4003, 'refused'],
    [4025, 'refused'],
    [4026, 'refused'],
    [4027, 'refused'],
    [4029, 'transient'],
    [4031, 'transient'],
    [5000, 'unknown'],
    [4999, 'refused'],
  ] as const)('status_code %i is %s', (code, kind) => {
    const o = sslOutcome({ status: 'FAILED', status_code: code, error_message: 'x', smsinfo: [] }, 'bh1');
    expect(o.kind).toBe(kind);
    if (o.kind !== 'accepted') expect(o.reason).toMatch(new RegExp(`^${code} `));
  });

  test('a number refused inside a processed request is a refusal', () => {
    const bad = info({ sms_status: 'INVALID', status_message: 'Invalid MSISDN' });
    expect(sslOutcome({ status: 'SUCCESS', status_code: 200, smsinfo: [bad] }, 'bh1')).toEqual({
      kind: 'refused',
      reason: 'sms_status INVALID',
    });
  });

  test('every documented code has its words', () => {
    expect(Object.keys(SSL_CODES)).toEqual(expect.arrayContaining(['200', '4001', '4023', '4025', '4029', '5000']));
  });
});

describe('Alpha SMS', () => {
  test('error 0 is accepted with its request_id', () => {
    expect(alphaOutcome({ error: 0, msg: 'Request successfully submitted', data: { request_id: 1234 } })).toEqual({
      kind: 'accepted',
      ref: '1234',
    });
  });

  test.each([400, 403, 405, 410, 413, 414, 415, 416, 417, 420, 421])('documented error %i is a refusal', (error) => {
    expect(alphaOutcome({ error, msg: 'x', data: null }).kind).toBe('refused');
  });

  test('an undocumented error was not taken: transient', () => {
    expect(alphaOutcome({ error: 999, msg: 'x', data: null })).toEqual({ kind: 'transient', reason: '999 undocumented code' });
  });

  test.each([
    ['Delivered', 'delivered'],
    ['Failed', 'failed'],
    ['Undelivered', 'failed'],
    ['Sent', null],
    ['Pending', null],
  ] as const)("a report's recipient status %s is %s", (status, state) => {
    expect(alphaReport({ request_status: 'Complete', recipients: [{ number: '8801711111111', status }] })).toBe(state);
  });
});

describe('HTTP and numbers', () => {
  test.each([
    [200, null],
    [429, 'transient'],
    [503, 'transient'],
    [500, 'unknown'],
    [502, 'unknown'],
    [401, 'refused'],
    [404, 'refused'],
  ] as const)('HTTP %i alone is %s', (status, kind) => {
    expect(byHttpStatus(status)?.kind ?? null).toBe(kind);
  });

  test('a stored phone goes as 8801XXXXXXXXX', () => {
    expect(msisdn('01711111111')).toBe('8801711111111');
    expect(msisdn('+8801711111111')).toBe('+8801711111111');
  });
});
