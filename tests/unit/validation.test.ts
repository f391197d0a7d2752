import {
  identifierKind,
  isEmail,
  normaliseIdentifier,
  normalisePhone,
  validateActivation,
  validateClaim,
  validateContact,
  validateForgot,
  validateLogin,
  validateProfileUpdate,
  validateRegistration,
  validateReset,
  validateVerifyOtp,
} from '../../shared/validation.ts';

describe('normalisePhone', () => {
  test.each([
    ['01712345678', '01712345678'],
    ['+8801712345678', '01712345678'],
    ['8801712345678', '01712345678'],
    ['008801712345678', '01712345678'],
    ['+880 1712-345678', '01712345678'],
    [' 017 1234 5678 ', '01712345678'],
    ['(017) 12.345.678', '01712345678'],
    ['০১৭১২৩৪৫৬৭৮', '01712345678'],
    ['+৮৮০১৭১২৩৪৫৬৭৮', '01712345678'],
    ['01312345678', '01312345678'],
  ])('%j → %j', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  test.each(['', '0171234567', '017123456789', '02712345678', '1712345678', '+8801712345', '+8901712345678', '017-1234-567a', '+88+01712345678', '01712 345678 9', null, undefined])(
    'rejects %p',
    (input) => {
      expect(normalisePhone(input)).toBeNull();
    },
  );
});

describe('isEmail', () => {
  test.each(['a@b.co', 'rahim.uddin@example.com.bd', 'x+tag@mail.example.org', ' padded@example.com '])('accepts %j', (s) => {
    expect(isEmail(s)).toBe(true);
  });
  test.each(['', 'plain', 'a@b', '@example.com', 'a@.com', 'a@example..com', 'a@example.com.', 'a b@example.com', 'a@@example.com', 'a@exa mple.com', `${'a'.repeat(250)}@b.com`, null])(
    'rejects %p',
    (s) => {
      expect(isEmail(s)).toBe(false);
    },
  );
});

describe('identifierKind and normaliseIdentifier', () => {
  test.each([
    ['01712345678', 'phone', '01712345678'],
    ['+8801712345678', 'phone', '01712345678'],
    ['User@Example.COM', 'email', 'user@example.com'],
    ['  user@example.com ', 'email', 'user@example.com'],
  ])('%j is a %s (%s)', (s, kind, identifier) => {
    expect(identifierKind(s)).toBe(kind);
    expect(normaliseIdentifier(s)).toEqual({ kind, identifier });
  });
  test.each(['', 'user@', '12345', 'someone', '01712345678@'])('%j is neither', (s) => {
    expect(identifierKind(s)).toBeNull();
    expect(normaliseIdentifier(s)).toBeNull();
  });
});

describe('validateRegistration', () => {
  const good = { firstName: ' Rahim ', lastName: 'Uddin', email: 'Rahim@Example.com', phone: '+880 1712-345678', password: 'secret12' };

  test('valid input gives the cleaned payload', () => {
    expect(validateRegistration(good)).toEqual({
      ok: true,
      value: { firstName: 'Rahim', lastName: 'Uddin', name: 'Rahim Uddin', email: 'rahim@example.com', phone: '01712345678', password: 'secret12' },
    });
  });

  test.each([
    ['phone only', { email: '' }, { email: null, phone: '01712345678' }],
    ['e-mail only', { phone: '  ' }, { email: 'rahim@example.com', phone: null }],
    ['null phone', { phone: null }, { email: 'rahim@example.com', phone: null }],
  ])('%s is enough', (_name, over, contact) => {
    const r = validateRegistration({ ...good, ...over });
    expect(r.ok && { email: r.value.email, phone: r.value.phone }).toEqual(contact);
  });

  test.each([
    ['no first name', { firstName: ' ' }, { firstName: 'fillRequired', form: 'fillRequired' }],
    ['no last name', { lastName: '' }, { lastName: 'fillRequired', form: 'fillRequired' }],
    ['no password', { password: '' }, { password: 'fillRequired', form: 'fillRequired' }],
    ['all required missing', { firstName: undefined, lastName: null, password: undefined }, { firstName: 'fillRequired', lastName: 'fillRequired', password: 'fillRequired', form: 'fillRequired' }],
    ['neither phone nor e-mail', { phone: '', email: ' ' }, { phone: 'phoneOrEmail', email: 'phoneOrEmail', form: 'phoneOrEmail' }],
    ['nothing at all', { firstName: '', lastName: '', password: '', phone: '', email: '' }, { firstName: 'fillRequired', lastName: 'fillRequired', password: 'fillRequired', phone: 'phoneOrEmail', email: 'phoneOrEmail', form: 'fillRequired' }],
    ['short phone', { phone: '0171234567' }, { phone: 'phoneInvalid' }],
    ['landline', { phone: '0291234567' }, { phone: 'phoneInvalid' }],
    ['bad e-mail', { email: 'rahim@' }, { email: 'emailInvalid' }],
    ['bad phone, no e-mail', { phone: '123', email: '' }, { phone: 'phoneInvalid' }],
    ['7-character password', { password: 'secret1' }, { password: 'passwordMin' }],
    ['everything wrong', { phone: 'x', email: 'y', password: 'short' }, { phone: 'phoneInvalid', email: 'emailInvalid', password: 'passwordMin' }],
  ])('%s', (_name, over, errors) => {
    expect(validateRegistration({ ...good, ...over })).toEqual({ ok: false, errors });
  });

  test('password boundary: 8 characters pass, spaces count, Bengali letters count as characters', () => {
    expect(validateRegistration({ ...good, password: '12345678' }).ok).toBe(true);
    expect(validateRegistration({ ...good, password: '       x' }).ok).toBe(true);
    expect(validateRegistration({ ...good, password: 'ভাগ্যবানভাগ্য' }).ok).toBe(true);
  });
});

describe('validateLogin', () => {
  test('phone or e-mail with any password', () => {
    expect(validateLogin({ identifier: '+8801712345678', password: 'x' })).toEqual({ ok: true, value: { kind: 'phone', identifier: '01712345678', password: 'x' } });
    expect(validateLogin({ identifier: 'A@B.com', password: 'pw' })).toEqual({ ok: true, value: { kind: 'email', identifier: 'a@b.com', password: 'pw' } });
  });
  test.each([
    [{ identifier: '', password: '' }, { identifier: 'identifierRequired', password: 'passwordRequired' }],
    [{ identifier: '  ', password: 'x' }, { identifier: 'identifierRequired' }],
    [{ identifier: 'nobody', password: 'x' }, { identifier: 'identifierInvalid' }],
    [{ identifier: '01712345678', password: undefined }, { password: 'passwordRequired' }],
  ])('%j → %j', (input, errors) => {
    expect(validateLogin(input)).toEqual({ ok: false, errors });
  });
});

describe('validateVerifyOtp', () => {
  test.each([
    ['12345', '12345'],
    [' 00001 ', '00001'],
    ['১২৩৪৫', '12345'],
  ])('accepts %j as %j', (otp, clean) => {
    expect(validateVerifyOtp({ identifier: '01712345678', otp })).toEqual({ ok: true, value: { kind: 'phone', identifier: '01712345678', otp: clean } });
  });
  test.each(['', '1234', '123456', '12a45', '12 45'])('rejects %j with otpFiveDigits', (otp) => {
    expect(validateVerifyOtp({ identifier: 'a@b.com', otp })).toEqual({ ok: false, errors: { otp: 'otpFiveDigits' } });
  });
  test('without an identifier', () => {
    expect(validateVerifyOtp({ identifier: null, otp: '12345' })).toEqual({ ok: false, errors: { identifier: 'identifierRequired' } });
  });
});

describe('validateForgot', () => {
  test('normalises the identifier', () => {
    expect(validateForgot({ identifier: ' 017 1234 5678 ' })).toEqual({ ok: true, value: { kind: 'phone', identifier: '01712345678' } });
  });
  test.each([
    ['', 'identifierRequired'],
    ['   ', 'identifierRequired'],
    [undefined, 'identifierRequired'],
    ['someone', 'identifierInvalid'],
  ])('%p → %s', (identifier, key) => {
    expect(validateForgot({ identifier })).toEqual({ ok: false, errors: { identifier: key } });
  });
});

describe('validateReset', () => {
  const good = { otp: '123456', newPassword: 'newpass12', confirmPassword: 'newpass12' };
  test('valid input', () => {
    expect(validateReset(good)).toEqual({ ok: true, value: { identifier: null, otp: '123456', newPassword: 'newpass12' } });
    expect(validateReset({ ...good, identifier: 'a@b.com' })).toEqual({ ok: true, value: { identifier: { kind: 'email', identifier: 'a@b.com' }, otp: '123456', newPassword: 'newpass12' } });
  });
  test.each([
    ['no code', { otp: '' }, { otp: 'otpRequired' }],
    ['blank code', { otp: '   ' }, { otp: 'otpRequired' }],
    ['7-character code', { otp: '1234567' }, { otp: 'otpMax' }],
    ['7-character password', { newPassword: 'short12', confirmPassword: 'short12' }, { newPassword: 'passwordMin' }],
    ['mismatch', { confirmPassword: 'newpass13' }, { confirmPassword: 'passwordsMismatch' }],
    ['all wrong', { otp: '', newPassword: 'a', confirmPassword: 'b' }, { otp: 'otpRequired', newPassword: 'passwordMin', confirmPassword: 'passwordsMismatch' }],
    ['identifier given but empty', { identifier: '' }, { identifier: 'identifierRequired' }],
  ])('%s', (_name, over, errors) => {
    expect(validateReset({ ...good, ...over })).toEqual({ ok: false, errors });
  });
  test('6-character code and 8-character password are the boundaries', () => {
    expect(validateReset({ otp: '000000', newPassword: '12345678', confirmPassword: '12345678' }).ok).toBe(true);
  });
});

describe('validateActivation', () => {
  test('normalises ticket and secret', () => {
    expect(validateActivation({ ticketNumber: '45-5-34-12-23-7', secretNumber: '1234 5678-1234 5678' })).toEqual({
      ok: true,
      value: { ticketNumber: '05-12-23-34-45-07', secretNumber: '1234567812345678' },
    });
  });
  test.each([
    [{ ticketNumber: '', secretNumber: '1234567812345678' }, { ticketNumber: 'ticketNumberRequired' }],
    [{ ticketNumber: '5-12-23-34-45-16', secretNumber: '1234567812345678' }, { ticketNumber: 'ticketNumberInvalid' }],
    [{ ticketNumber: '05-12-23-34-45-07', secretNumber: '123456781234567' }, { secretNumber: 'secretNumberRequired' }],
    [{ ticketNumber: null, secretNumber: null }, { ticketNumber: 'ticketNumberRequired', secretNumber: 'secretNumberRequired' }],
  ])('%j → %j', (input, errors) => {
    expect(validateActivation(input)).toEqual({ ok: false, errors });
  });
});

describe('validateClaim', () => {
  const wallet = { paymentMethod: 'bkash', accountNumber: ' 01712345678 ', accountHolderName: 'Rahim Uddin' };
  test('mobile wallet before the code was sent', () => {
    expect(validateClaim(wallet)).toEqual({
      ok: true,
      value: { paymentMethod: 'bkash', accountNumber: '01712345678', accountHolderName: 'Rahim Uddin', bankName: null, branchName: null, otp: null },
    });
  });
  test('bank needs bank and branch names', () => {
    expect(validateClaim({ ...wallet, paymentMethod: 'bank' })).toEqual({ ok: false, errors: { bankName: 'fieldRequired', branchName: 'fieldRequired' } });
    const r = validateClaim({ ...wallet, paymentMethod: 'BANK', bankName: 'Sonali Bank', branchName: 'Motijheel', otp: '123456' });
    expect(r).toEqual({
      ok: true,
      value: { paymentMethod: 'bank', accountNumber: '01712345678', accountHolderName: 'Rahim Uddin', bankName: 'Sonali Bank', branchName: 'Motijheel', otp: '123456' },
    });
  });
  test.each([
    [{ paymentMethod: 'paypal' }, { paymentMethod: 'fieldRequired' }],
    [{ accountNumber: '', accountHolderName: ' ' }, { accountNumber: 'fieldRequired', accountHolderName: 'fieldRequired' }],
    [{ otp: '' }, { otp: 'otpRequired' }],
    [{ otp: '1234567' }, { otp: 'otpMax' }],
  ])('%j → %j', (over, errors) => {
    expect(validateClaim({ ...wallet, ...over })).toEqual({ ok: false, errors });
  });
});

describe('validateProfileUpdate', () => {
  const current = { name: 'Rahim Uddin', email: 'rahim@example.com', phone: '01712345678' };
  const same = { name: 'Rahim Uddin', email: 'rahim@example.com', phone: '01712345678', currentPassword: 'pw' };

  test('only changed fields are sent, with the current password', () => {
    expect(validateProfileUpdate({ ...same, phone: '+8801812345678' }, current)).toEqual({ ok: true, value: { password: 'pw', phone: '01812345678' } });
    expect(validateProfileUpdate({ ...same, name: 'Karim' }, current)).toEqual({ ok: true, value: { password: 'pw', name: 'Karim' } });
    expect(validateProfileUpdate({ ...same, email: '' }, current)).toEqual({ ok: true, value: { password: 'pw', email: null } });
  });
  test.each([
    ['nothing changed', {}, { form: 'profileOneField' }],
    ['same values written differently', { email: 'RAHIM@example.com', phone: '+880 1712 345678' }, { form: 'profileOneField' }],
    ['bad phone', { phone: '0171234567' }, { phone: 'phoneInvalid' }],
    ['bad e-mail', { email: 'rahim@' }, { email: 'emailInvalid' }],
    ['both contacts removed', { email: '', phone: '' }, { form: 'phoneOrEmail' }],
    ['no current password', { name: 'Karim', currentPassword: '' }, { currentPassword: 'currentPasswordRequired' }],
  ])('%s', (_name, over, errors) => {
    expect(validateProfileUpdate({ ...same, ...over }, current)).toEqual({ ok: false, errors });
  });
});

describe('validateContact', () => {
  test('valid', () => {
    expect(validateContact({ name: ' Rahim ', email: 'R@Example.com', message: ' Hello ' })).toEqual({ ok: true, value: { name: 'Rahim', email: 'r@example.com', message: 'Hello' } });
  });
  test.each([
    [{ name: '', email: '', message: '' }, { name: 'fieldRequired', email: 'fieldRequired', message: 'fieldRequired' }],
    [{ name: 'R', email: 'nope', message: 'Hi' }, { email: 'emailInvalid' }],
  ])('%j → %j', (input, errors) => {
    expect(validateContact(input)).toEqual({ ok: false, errors });
  });
});
