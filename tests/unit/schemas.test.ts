import type { z } from 'zod';
import { IdentifierBody, LoginBody, RegisterForm, ResetBody, SignupBody, VerifyOtpBody } from '../../shared/accounts/schemas.ts';
import { ContactBody } from '../../shared/contact/schemas.ts';
import { formQuantity, GenerateBody, GenerateForm } from '../../shared/generated-tickets/schemas.ts';
import { problemsByField, v, VALIDATION_KEYS } from '../../shared/fields.ts';
import { IdParams, Paging } from '../../shared/lotteries/schemas.ts';
import { isPictureFile, PICTURE_MAX_BYTES } from '../../shared/uploads/schemas.ts';
import { readFileSync } from 'node:fs';

const en = JSON.parse(readFileSync(new URL('../../locales/en/validation.json', import.meta.url), 'utf8')) as Record<string, string>;

/** `{field: first message key}` of a failed parse, or the parsed value. */
function check(schema: z.ZodType, input: unknown): { ok: true; data: unknown } | { ok: false; errors: Record<string, string> } {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) return { ok: true, data: r.data };
  return { ok: false, errors: Object.fromEntries(Object.entries(problemsByField(r.error)).map(([f, p]) => [f, p[0]?.key ?? ''])) };
}
const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = check(schema, input);
  if (r.ok) throw new Error(`expected errors, parsed ${JSON.stringify(r.data)}`);
  return r.errors;
};

describe('validation messages', () => {
  test('every key a schema can name has an English text', () => {
    for (const k of VALIDATION_KEYS) expect(typeof en[k]).toBe('string');
  });
});

describe('LoginBody', () => {
  test('phone or e-mail, stored form, any non-empty password', () => {
    expect(check(LoginBody, { phone: ' +880 1712-345678 ', password: 'x' })).toEqual({
      ok: true,
      data: { phone: '01712345678', password: 'x' },
    });
    expect(check(LoginBody, { phone: 'Rahim@Example.COM', password: 'x' })).toEqual({
      ok: true,
      data: { phone: 'rahim@example.com', password: 'x' },
    });
  });
  test.each([
    [{ phone: '', password: 'x' }, { phone: v('identifierRequired') }],
    [{ phone: 'someone', password: 'x' }, { phone: v('identifierInvalid') }],
    [{ phone: '01712345678', password: '' }, { password: v('passwordRequired') }],
    [{ phone: '01712345678' }, { password: v('required') }],
    [{ phone: 7, password: 'x' }, { phone: v('wrongType') }],
    [{ phone: '01712345678', password: 'x', extra: 1 }, { extra: v('unknownField') }],
    [{ phone: '01712345678\u0000', password: 'x' }, { phone: v('controlCharacters') }],
  ])('%j → %j', (input, errors) => {
    expect(errorsOf(LoginBody, input)).toEqual(errors);
  });
});

describe('RegisterForm', () => {
  const ok = {
    firstName: ' Rahim ',
    lastName: 'Uddin',
    phone: '01712345678',
    email: '',
    password: 'secret-88',
    date_of_birth: '1990-01-01',
    location: 'Dhaka',
  };
  test('valid input is cleaned: trimmed, blank e-mail is null', () => {
    expect(check(RegisterForm, ok)).toEqual({ ok: true, data: { ...ok, firstName: 'Rahim', email: null } });
  });
  test.each([
    [{ firstName: '' }, { firstName: v('fillRequired') }],
    [{ password: '' }, { password: v('fillRequired') }],
    [
      { phone: '', email: '' },
      { phone: v('phoneOrEmail'), email: v('phoneOrEmail'), non_field_errors: v('phoneOrEmail') },
    ],
    [{ phone: '0171234567' }, { phone: v('phoneInvalid') }],
    [{ email: 'a@b' }, { email: v('emailInvalid') }],
    [{ password: 'short' }, { password: v('passwordMin') }],
  ])('%j → %j', (change, errors) => {
    expect(errorsOf(RegisterForm, { ...ok, ...change })).toEqual(errors);
  });
  test('password length counts characters: 8 Bengali letters pass, 7 do not', () => {
    expect(check(RegisterForm, { ...ok, password: 'ভাগ্যভাগ্যভা' }).ok).toBe(true);
    expect(errorsOf(RegisterForm, { ...ok, password: '1234567' })).toEqual({ password: v('passwordMin') });
  });
});

/** A date of birth of an adult. */
const DOB = '1990-01-01';

describe('SignupBody', () => {
  test('e-mail lower-cased, phone normalised, both optional but not both missing', () => {
    const r = check(SignupBody, { name: 'A B', email: 'A@B.CO', phone: null, password: 'secret-88', date_of_birth: '05/06/1990' });
    expect(r).toEqual({
      ok: true,
      data: { name: 'A B', email: 'a@b.co', phone: null, password: 'secret-88', date_of_birth: '1990-06-05' },
    });
    expect(errorsOf(SignupBody, { name: 'A B', password: 'secret-88', date_of_birth: DOB })).toMatchObject({
      non_field_errors: v('phoneOrEmail'),
    });
  });
  test.each([
    [{ name: '' }, { name: v('fieldRequired') }],
    [{ name: 'x'.repeat(101) }, { name: v('tooBig') }],
    [{ picture: 'not-a-uuid' }, { picture: v('invalid') }],
    [{ date_of_birth: undefined }, { date_of_birth: v('required') }],
    [{ date_of_birth: '' }, { date_of_birth: v('dateOfBirthRequired') }],
    [{ date_of_birth: '1990-02-30' }, { date_of_birth: v('dateOfBirthInvalid') }],
    [{ date_of_birth: `${new Date().getUTCFullYear() - 5}-01-01` }, { date_of_birth: v('underAge') }],
  ])('%j → %j', (change, errors) => {
    expect(errorsOf(SignupBody, { name: 'A B', phone: '01712345678', password: 'secret-88', date_of_birth: DOB, ...change })).toEqual(
      errors,
    );
  });
});

describe('bidirectional controls', () => {
  // docs/rules/security.md#10-invisible-characters: the embedding, override and isolate controls are refused as invisible characters.
  const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
  test.each(BIDI)('%j in a name, a location or a contact message → invisibleCharacters', (c) => {
    expect(errorsOf(SignupBody, { name: `Rahim ${c}৳0001`, phone: '01712345678', password: 'secret-88', date_of_birth: DOB })).toEqual({
      name: v('invisibleCharacters'),
    });
    expect(
      errorsOf(RegisterForm, {
        firstName: 'Rahim',
        lastName: `${c}Uddin`,
        phone: '01712345678',
        password: 'secret-88',
        date_of_birth: DOB,
        location: `Dhaka${c}`,
      }),
    ).toEqual({
      lastName: v('invisibleCharacters'),
      location: v('invisibleCharacters'),
    });
    expect(errorsOf(ContactBody, { name: 'N', email: 'n@x.org', message: `hello ${c}dlrow` })).toEqual({
      message: v('invisibleCharacters'),
    });
  });
  test('the left-to-right and right-to-left marks (U+200E, U+200F) are refused too', () => {
    expect(
      errorsOf(SignupBody, { name: 'রহিম\u200e Uddin\u200f', phone: '01712345678', password: 'secret-88', date_of_birth: DOB }),
    ).toEqual({
      name: v('invisibleCharacters'),
    });
  });
});

describe('codes', () => {
  test('the account code is 6 digits; Bengali digits are read', () => {
    expect(check(VerifyOtpBody, { identifier: '01712345678', otp: '০১২৩৪৫' })).toEqual({
      ok: true,
      data: { identifier: '01712345678', otp: '012345' },
    });
  });
  // One length for every code (docs/rules/accounts-and-codes.md#7-one-time-codes): a 5-digit account code is refused.
  test.each(['12345', '12a456', '12 456'])('account code %j → otpSixDigits', (otp) => {
    expect(errorsOf(VerifyOtpBody, { identifier: '01712345678', otp })).toEqual({ otp: v('otpSixDigits') });
  });
  test('an account code longer than 6 digits → otpMax', () => {
    expect(errorsOf(VerifyOtpBody, { identifier: '01712345678', otp: '1234567' })).toEqual({ otp: v('otpMax') });
  });
  test('a missing code is otpRequired', () => {
    expect(errorsOf(VerifyOtpBody, { identifier: '01712345678', otp: ' ' })).toEqual({ otp: v('otpRequired') });
  });

  const reset = { identifier: 'a@b.co', otp: '123456', new_password: 'secret-88', confirm_password: 'secret-88' };
  test('reset: 6 digits, 8-character password, the confirmation equal', () => {
    expect(check(ResetBody, reset).ok).toBe(true);
    expect(errorsOf(ResetBody, { ...reset, otp: '1234567' })).toEqual({ otp: v('otpMax') });
    expect(errorsOf(ResetBody, { ...reset, otp: '12345' })).toEqual({ otp: v('otpSixDigits') });
    expect(errorsOf(ResetBody, { ...reset, new_password: 'short', confirm_password: 'short' })).toEqual({ new_password: v('passwordMin') });
    expect(errorsOf(ResetBody, { ...reset, confirm_password: 'other-pass' })).toEqual({ confirm_password: v('passwordsMismatch') });
  });

  test('forgot: the identifier is required and must be a phone or an e-mail', () => {
    expect(errorsOf(IdentifierBody, { identifier: '' })).toEqual({ identifier: v('identifierRequired') });
    expect(errorsOf(IdentifierBody, { identifier: '12345' })).toEqual({ identifier: v('identifierInvalid') });
  });
});

describe('ContactBody', () => {
  test('each field required; the e-mail checked and lower-cased', () => {
    expect(check(ContactBody, { name: 'N', email: 'N@X.ORG', message: 'hi' })).toEqual({
      ok: true,
      data: { name: 'N', email: 'n@x.org', message: 'hi' },
    });
    expect(errorsOf(ContactBody, { name: ' ', email: '', message: '' })).toEqual({
      name: v('fieldRequired'),
      email: v('fieldRequired'),
      message: v('fieldRequired'),
    });
    expect(errorsOf(ContactBody, { name: 'N', email: 'nope', message: 'hi' })).toEqual({ email: v('emailInvalid') });
  });
});

describe('lists, ids and pictures', () => {
  test('paging defaults and bounds', () => {
    expect(check(Paging, {})).toEqual({ ok: true, data: { limit: 50, offset: 0 } });
    expect(check(Paging, { limit: '100', offset: '5' })).toEqual({ ok: true, data: { limit: 100, offset: 5 } });
    expect(errorsOf(Paging, { limit: '101' })).toEqual({ limit: v('tooBig') });
    expect(errorsOf(Paging, { limit: '0' })).toEqual({ limit: v('tooSmall') });
  });
  test.each(['0', '-1', '1.5', 'abc', '01', '1'.repeat(17)])('id %j is refused', (id) => {
    expect(check(IdParams, { id }).ok).toBe(false);
  });
  test('ids are positive integers', () => {
    expect(check(IdParams, { id: '42' })).toEqual({ ok: true, data: { id: 42 } });
  });
  test('a picture is a JPEG, PNG or WebP of at most 2 MiB', () => {
    expect(isPictureFile({ type: 'image/png', size: PICTURE_MAX_BYTES })).toBe(true);
    expect(isPictureFile({ type: 'image/png', size: PICTURE_MAX_BYTES + 1 })).toBe(false);
    expect(isPictureFile({ type: 'image/gif', size: 10 })).toBe(false);
    expect(isPictureFile({ type: 'image/webp', size: 0 })).toBe(false);
  });
});

describe("the back office's Generate form", () => {
  test.each([
    ['3', 3],
    [' 42 ', 42],
    ['abc', 1],
    ['', 1],
    [undefined, 1],
    ['1.5', 1],
    ['-2', 1],
    ['12345', 1],
  ])('quantity box %j is %j (anything that is not a number counts as 1)', (raw, n) => {
    expect(formQuantity(raw)).toBe(n);
  });
  test('0 and 101 are passed on as typed: the API refuses them with its own message', () => {
    expect(formQuantity('0')).toBe(0);
    expect(formQuantity('101')).toBe(101);
    expect(errorsOf(GenerateBody, { lottery_id: 5, quantity: formQuantity('101') })).toEqual({ quantity: v('quantityRange') });
  });
  test('a lottery must be chosen; what it parses is the API request', () => {
    expect(errorsOf(GenerateForm, { lottery_id: '', quantity: '3' })).toEqual({ lottery_id: v('lotteryRequired') });
    expect(errorsOf(GenerateForm, { quantity: '3' })).toEqual({ lottery_id: v('lotteryRequired') });
    const r = check(GenerateForm, { lottery_id: ' 7 ', quantity: 'abc' });
    expect(r).toEqual({ ok: true, data: { lottery_id: '7', quantity: 1 } });
    expect(check(GenerateBody, r.ok ? r.data : null)).toEqual({ ok: true, data: { lottery_id: 7, quantity: 1 } });
  });
});
