/**
 * Account API (docs/rules/accounts-and-codes.md): signup, account verification by a 6-digit code,
 * resend with its 120 s wait, and password recovery with a 6-digit code and its 60 s wait.
 */
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { toDigits } from '../../shared/dates.ts';
import { FAILURE_STEPS } from '../../server/http/rate-limit.ts';
import { dhakaToday } from '../../shared/accounts/age.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
// Every test starts with fresh rate-limit windows (all requests come from 127.0.0.1); the rate-limit tests fill them on purpose.
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

/** A phone number no other test of this file uses. */
const newPhone = uniquePhone;
const PASSWORD = 'correct-horse-1';

/** A code of the same length that is surely not the right one. */
const wrongCode = (code: string) => String((Number(code[0]) + 1) % 10) + code.slice(1);

type UserDb = {
  id: number;
  name: string;
  phone: string | null;
  email: string | null;
  is_active: boolean;
  phone_confirmed: boolean;
  email_confirmed: boolean;
  password_hash: string;
};
const userByPhone = (phone: string) => t.db.one<UserDb>('SELECT * FROM users WHERE phone = $1', [phone]);
const usersWithPhone = async (phone: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE phone = $1', [phone]))[0]?.n;

async function signedUp(phone = newPhone()) {
  const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'Rahim Uddin', phone, email: null, password: PASSWORD });
  expect(res.status).toBe(201);
  return { phone, userId: res.body.user_id as number, code: await t.lastCode(phone, 'account') };
}

/** Moves the last codes and the resend wait of an account back in time, as if `seconds` had passed. */
async function moveCodesBack(userId: number, purpose: string, seconds: number) {
  await t.db.query(`UPDATE one_time_codes SET created_at = created_at - make_interval(secs => $3) WHERE user_id = $1 AND purpose = $2`, [
    userId,
    purpose,
    seconds,
  ]);
  await t.db.query(`UPDATE rate_limits SET window_start = window_start - make_interval(secs => $2) WHERE key LIKE $1`, [
    `${purpose}-wait:%`,
    seconds,
  ]);
}

describe('POST /api/v1/signup/', () => {
  test('with a phone: 201 with user_id and identifier, an inactive user, a 6-digit code by SMS, the password hashed', async () => {
    const phone = newPhone();
    const before = t.sent.length;
    const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'Rahim Uddin', email: null, phone, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user_id: expect.any(Number),
      identifier: phone,
      detail: 'Registration successful. Please check your email or phone for an OTP to activate your account.',
    });
    const user = await userByPhone(phone);
    expect(user).toMatchObject({ id: res.body.user_id, name: 'Rahim Uddin', email: null, is_active: false, phone_confirmed: false });
    expect(user?.password_hash).toMatch(/^scrypt\$/);
    expect(user?.password_hash).not.toContain(PASSWORD);

    await t.settled();
    expect(t.sent.length).toBe(before + 1);
    const msg = t.sent.at(-1);
    expect(msg).toMatchObject({ channel: 'sms', to: phone, purpose: 'account' });
    expect(msg?.code).toMatch(/^\d{6}$/);
    expect(msg?.text).toContain(msg?.code);
    // Stored hashed, never as the code itself.
    const codes = await t.db.query<{ code_hash: string; expires_at: string; created_at: string }>(
      'SELECT * FROM one_time_codes WHERE user_id = $1',
      [res.body.user_id],
    );
    expect(codes).toHaveLength(1);
    expect(codes[0]?.code_hash).not.toContain(msg?.code);
    // Ten minutes to live.
    const ttl = Date.parse(codes[0]!.expires_at) - Date.parse(codes[0]!.created_at);
    expect(ttl).toBe(600_000);
  });

  test('with an e-mail only: the code goes by e-mail to the lower-cased address, which is the identifier', async () => {
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Karim Ali',
      email: ' Karim.Ali@Example.COM ',
      phone: null,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body.identifier).toBe('karim.ali@example.com');
    await t.settled();
    expect(t.sent.at(-1)).toMatchObject({ channel: 'email', to: 'karim.ali@example.com', purpose: 'account' });
    expect(await t.lastCode('karim.ali@example.com', 'account')).toMatch(/^\d{6}$/);
    const row = await t.db.one('SELECT email, phone FROM users WHERE id = $1', [res.body.user_id]);
    expect(row).toEqual({ email: 'karim.ali@example.com', phone: null });
  });

  test('a phone in international or spaced form is stored as 01XXXXXXXXX', async () => {
    const phone = newPhone();
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Nasima Begum',
      phone: `+88 ${phone.slice(0, 5)}-${phone.slice(5)}`,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body.identifier).toBe(phone);
    expect(await usersWithPhone(phone)).toBe(1);
  });

  test('missing name or password: 400 field errors and no user', async () => {
    const phone = newPhone();
    let res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', phone, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ['This field is required.'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: '   ', phone, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ['This field is required'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ password: ['This field is required.'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone, password: 'short7!' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ password: ['Password must be at least 8 characters'] });

    expect(await usersWithPhone(phone)).toBe(0);
  });

  test('neither phone nor e-mail: non_field_errors with the product text', async () => {
    for (const body of [{}, { phone: null, email: null }, { phone: '', email: '  ' }]) {
      const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'No Contact', password: PASSWORD, ...body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ non_field_errors: ['Please provide either a phone number or an email address'] });
    }
  });

  test('bad phone and bad e-mail formats: field errors for each', async () => {
    const before = t.sent.length;
    let res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone: '12345', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone: ['Phone number must be 11 digits (e.g., 01712345678)'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone: '0171234567890', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone: ['Phone number must be 11 digits (e.g., 01712345678)'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', email: 'not-an-email', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: ['Please enter a valid email address'] });

    res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', email: 'a@b', phone: 'abc', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      email: ['Please enter a valid email address'],
      phone: ['Phone number must be 11 digits (e.g., 01712345678)'],
    });
    await t.settled();
    expect(t.sent.length).toBe(before);
  });

  test('phone or e-mail of an account: answered as a new sign-up, nothing made, its owner told in his language instead', async () => {
    const owner = await createUser(t, { phone: newPhone(), email: 'taken@example.com' });
    await t.db.query(`UPDATE users SET language = 'bn' WHERE id = $1`, [owner.id]);
    const fresh = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone: newPhone(), password: PASSWORD });
    const sentBefore = t.sent.length;
    const messagesBefore = t.messages.length;
    const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone: owner.phone, password: PASSWORD });
    // The same status and body as a new sign-up: the next user id, the identifier typed, the same words.
    expect(res.status).toBe(fresh.status);
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(res.body).toEqual({ user_id: expect.any(Number), identifier: owner.phone, detail: fresh.body.detail });
    expect(res.body.user_id).toBeGreaterThan(fresh.body.user_id);
    expect(await t.db.one('SELECT id FROM users WHERE id = $1', [res.body.user_id])).toBeUndefined();
    await t.settled();
    // No code; the owner gets the notice on the phone that was typed, in his language (Bengali).
    expect(t.sent.length).toBe(sentBefore);
    const told = t.messages.slice(messagesBefore);
    expect(told).toEqual([expect.objectContaining({ channel: 'sms', to: owner.phone, purpose: 'signup_attempt' })]);
    expect(told[0]?.text).toMatch(/^ভাগ্য: কেউ আপনার ফোন নম্বর দিয়ে নতুন অ্যাকাউন্ট খোলার চেষ্টা করেছে।.*লগইন করুন/);

    // Again at once, in any spelling: the same answer, and no second notice the same day (nobody can flood his phone).
    const again = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'A B',
      phone: `+88${owner.phone}`,
      password: PASSWORD,
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ identifier: owner.phone, detail: fresh.body.detail });
    await t.settled();
    expect(t.messages.length).toBe(messagesBefore + 1);
    // The owner is untouched, and his password still his.
    expect(await t.db.one('SELECT name, is_active FROM users WHERE id = $1', [owner.id])).toEqual({ name: 'Test Player', is_active: true });
    expect(await usersWithPhone(owner.phone)).toBe(1);
  });

  test('the e-mail of an account: answered as new; the owner told by e-mail in English when that is his language', async () => {
    const owner = await createUser(t, { phone: newPhone(), email: 'held@example.com' });
    await t.db.query(`UPDATE users SET language = 'en' WHERE id = $1`, [owner.id]);
    const phone = newPhone();
    const messagesBefore = t.messages.length;
    const res = await to(t, api.signup, { lang: 'bn' }).send({
      date_of_birth: '1990-01-01',
      name: 'A B',
      email: 'Held@Example.com',
      phone,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ user_id: expect.any(Number), identifier: phone, detail: expect.any(String) });
    expect(await usersWithPhone(phone)).toBe(0);
    await t.settled();
    const told = t.messages.slice(messagesBefore);
    expect(told).toEqual([expect.objectContaining({ channel: 'email', to: 'held@example.com', purpose: 'signup_attempt' })]);
    expect(told[0]?.subject).toBe('Bhagya: someone tried to register with your email address');
    expect(told[0]?.text).toContain('log in, or reset your password');
  });

  test('an account that was verified once and is now disabled still holds its phone, silently', async () => {
    const disabled = await createUser(t, { phone: newPhone(), is_active: false });
    await t.db.query('UPDATE users SET phone_confirmed = true WHERE id = $1', [disabled.id]);
    const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'A B', phone: disabled.phone, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(await usersWithPhone(disabled.phone)).toBe(1);
    expect(await t.db.one('SELECT name FROM users WHERE phone = $1', [disabled.phone])).toEqual({ name: 'Test Player' });
  });

  test('a never-verified sign-up holds its phone while its code is valid: a stranger cannot replace it', async () => {
    const first = await signedUp();
    const sentBefore = t.sent.length;
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Stranger',
      phone: first.phone,
      password: 'stranger-pass-1',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      phone: [
        'A sign-up with this phone number is waiting for its code. Enter the code we sent, or try again when it has expired (10 minutes).',
      ],
      code: 'phone_pending',
    });
    expect(await userByPhone(first.phone)).toMatchObject({ id: first.userId, name: 'Rahim Uddin' });
    await t.settled();
    expect(t.sent.length).toBe(sentBefore);
    // The owner's code still works, and the account is his (his password).
    expect((await to(t, api.verifyAccount).send({ identifier: first.phone, otp: first.code })).status).toBe(200);
    expect((await to(t, api.login).send({ phone: first.phone, password: PASSWORD })).status).toBe(200);
    expect((await to(t, api.login).send({ phone: first.phone, password: 'stranger-pass-1' })).status).toBe(401);
  });

  test('a never-verified sign-up whose code expired holds nothing: signing up again replaces it; only the new code works', async () => {
    const first = await signedUp();
    await t.db.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [first.userId]);
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Second Try',
      phone: first.phone,
      password: 'another-pass-2',
    });
    expect(res.status).toBe(201);
    expect(res.body.user_id).not.toBe(first.userId);
    expect(await usersWithPhone(first.phone)).toBe(1);
    expect(await userByPhone(first.phone)).toMatchObject({ id: res.body.user_id, name: 'Second Try', is_active: false });
    expect(await t.db.one('SELECT id FROM users WHERE id = $1', [first.userId])).toBeUndefined();

    const code = await t.lastCode(first.phone, 'account');
    const ok = await to(t, api.verifyAccount).send({ identifier: first.phone, otp: code });
    expect(ok.status).toBe(200);
    expect((await userByPhone(first.phone))?.is_active).toBe(true);
  });

  test('unknown fields are refused with a field error (no is_staff by the back door)', async () => {
    const phone = newPhone();
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'A B',
      phone,
      password: PASSWORD,
      is_staff: true,
      is_active: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ is_staff: ['Unknown field.'], is_active: ['Unknown field.'] });
    expect(await usersWithPhone(phone)).toBe(0);
  });

  test('wrong types are field errors', async () => {
    const res = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 42, phone: 1712345678, password: ['x'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ name: ['Expected a string.'], phone: ['Expected a string.'], password: ['Expected a string.'] });
  });

  test('Accept-Language: bn answers in Bengali, and the SMS is in Bengali', async () => {
    let res = await to(t, api.signup, { lang: 'bn' }).send({ date_of_birth: '1990-01-01', name: 'A B', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ['অনুগ্রহ করে একটি ফোন নম্বর অথবা ইমেইল ঠিকানা দিন'] });

    const owner = await createUser(t, { phone: newPhone() });
    // A known phone answers as a new one, in Bengali too.
    res = await to(t, api.signup, { lang: 'bn' }).send({
      date_of_birth: '1990-01-01',
      name: 'A B',
      phone: owner.phone,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body.detail).toBe('নিবন্ধন সফল হয়েছে। অ্যাকাউন্ট সক্রিয় করতে আপনার ইমেইল বা ফোনে পাঠানো কোডটি দেখুন।');

    res = await to(t, api.signup, { lang: 'bn' }).send({ date_of_birth: '1990-01-01', name: 'A B', phone: owner.phone, password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ password: ['পাসওয়ার্ড কমপক্ষে ৮ অক্ষরের হতে হবে'] });

    // A Bangladeshi browser sends a regional tag first.
    const phone = newPhone();
    res = await to(t, api.signup, { lang: 'bn-BD,bn;q=0.9,en-US;q=0.8' }).send({
      date_of_birth: '1990-01-01',
      name: 'A B',
      phone,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body.detail).toBe('নিবন্ধন সফল হয়েছে। অ্যাকাউন্ট সক্রিয় করতে আপনার ইমেইল বা ফোনে পাঠানো কোডটি দেখুন।');
    const msg = t.sent.at(-1);
    expect(msg?.to).toBe(phone);
    // The code in ASCII digits (what phones offer to fill in, and what the outbox blanks out), the minutes in Bengali ones.
    expect(msg?.text).toBe(`ভাগ্য যাচাই কোড: ${msg?.code}। মেয়াদ ১০ মিনিট। কাউকে জানাবেন না।`);
  });
});

describe('sign-up: the date of birth (docs/rules/accounts-and-codes.md#2-sign-up)', () => {
  /** The date `years` years before today in Dhaka, moved by `days` days. */
  const yearsAgo = (years: number, days = 0) => {
    const [y, m, d] = dhakaToday().split('-').map(Number) as [number, number, number];
    const at = new Date(Date.UTC(y - years, m - 1, d + days));
    return at.toISOString().slice(0, 10);
  };
  const signup = (body: Record<string, unknown>, lng = 'en') =>
    to(t, api.signup, { lang: lng }).send({ name: 'Age Check', password: PASSWORD, ...body });

  test('stored as given; the 18th birthday itself (in Dhaka) is allowed', async () => {
    const phone = newPhone();
    // Not 29 February: that day's 18th birthday is 1 March some years (the unit tests have it).
    const birth = dhakaToday().endsWith('-02-29') ? yearsAgo(18, -1) : yearsAgo(18);
    const res = await signup({ phone, date_of_birth: birth });
    expect(res.status).toBe(201);
    expect(await t.db.one('SELECT date_of_birth FROM users WHERE phone = $1', [phone])).toEqual({ date_of_birth: birth });
  });

  test('typed day first or in Bengali digits: stored as YYYY-MM-DD', async () => {
    const phone = newPhone();
    expect((await signup({ phone, date_of_birth: '05/06/1995' })).status).toBe(201);
    expect(await t.db.one('SELECT date_of_birth FROM users WHERE phone = $1', [phone])).toEqual({ date_of_birth: '1995-06-05' });
    const bn = newPhone();
    expect((await signup({ phone: bn, date_of_birth: '১৯৯৫-০৬-০৫' })).status).toBe(201);
    expect(await t.db.one('SELECT date_of_birth FROM users WHERE phone = $1', [bn])).toEqual({ date_of_birth: '1995-06-05' });
  });

  test('under 18 by one day: refused under the field, in English and Bengali; nothing made, no code sent', async () => {
    const phone = newPhone();
    const sent = t.sent.length;
    const en = await signup({ phone, date_of_birth: yearsAgo(18, 1) });
    expect(en.status).toBe(400);
    expect(en.body).toEqual({ date_of_birth: ['You must be 18 or older to register. Bhagya is for adults only.'] });
    const bn = await signup({ phone, date_of_birth: yearsAgo(10) }, 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ date_of_birth: ['নিবন্ধন করতে আপনার বয়স ১৮ বা তার বেশি হতে হবে। ভাগ্য শুধু প্রাপ্তবয়স্কদের জন্য।'] });
    expect(await usersWithPhone(phone)).toBe(0);
    expect(t.sent.length).toBe(sent);
  });

  test.each<[string, unknown, string]>([
    ['missing', undefined, 'This field is required.'],
    ['blank', '  ', 'Please enter your date of birth.'],
    ['not a date', 'yesterday', 'Please enter a real date of birth: day, month and year.'],
    ['a day that does not exist', '2001-02-29', 'Please enter a real date of birth: day, month and year.'],
    ['31 April', '31/04/1990', 'Please enter a real date of birth: day, month and year.'],
    ['before 1900', '1899-12-31', 'Please enter a real date of birth: day, month and year.'],
    ['after today', '2999-01-01', 'Please enter a real date of birth: day, month and year.'],
    ['an instant, not a day', '1990-01-01T00:00:00Z', 'Ensure this value has at most 10 characters or digits.'],
    ['a number', 19900101, 'Expected a string.'],
  ])('%s: 400 under date_of_birth, nothing made', async (_, date_of_birth, message) => {
    const phone = newPhone();
    const res = await signup({ phone, date_of_birth });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ date_of_birth: [message] });
    expect(await usersWithPhone(phone)).toBe(0);
  });
});

describe('POST /api/v1/verify-otp/', () => {
  test('the right code activates the account, confirms the phone and signs in as a login does', async () => {
    const u = await signedUp();
    const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: 'Your account is verified. You are logged in.',
      access: expect.any(String),
      refresh: expect.any(String),
    });
    expect(await userByPhone(u.phone)).toMatchObject({ is_active: true, phone_confirmed: true, email_confirmed: false });
    // A session of his: the access token works, the refresh token is stored, the device is remembered as at login.
    const me = await to(t, api.me).set('Authorization', `Bearer ${res.body.access}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user_id: u.userId, name: 'Rahim Uddin', phone: u.phone, is_staff: false });
    const refreshed = await to(t, api.refresh).send({ refresh: res.body.refresh });
    expect(refreshed.status).toBe(200);
    expect(res.headers['x-device-id']).toMatch(/^[A-Za-z0-9_-]{22,128}$/);
    expect(await t.db.query('SELECT 1 FROM known_devices WHERE user_id = $1', [u.userId])).toHaveLength(1);
    // The code is used up: the same code again is a wrong one, and no second session opens.
    const again = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
    expect(again.status).toBe(400);
    expect(again.body.access).toBeUndefined();
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE user_id = $1', [u.userId])).toHaveLength(1);
    const login = await to(t, api.login).send({ phone: u.phone, password: PASSWORD });
    expect(login.status).toBe(200);
  });

  test('a device id sent with the code is the one remembered and answered, as at login', async () => {
    const u = await signedUp();
    const device = 'dev_ABCDEFGHIJKLMNOPQRSTUV';
    const res = await to(t, api.verifyAccount).set('X-Device-Id', device).send({ identifier: u.phone, otp: u.code });
    expect(res.status).toBe(200);
    expect(res.headers['x-device-id']).toBe(device);
  });

  test('20 checks of the right code at once: exactly one signs in, the others are refused', async () => {
    const u = await signedUp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code })),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    // A used code is a wrong one; wrong ones soon make this address wait (docs/rules/limits.md#1-rate-limits).
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect([400, 429]).toContain(r.status);
      expect(r.body.access).toBeUndefined();
    }
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE user_id = $1', [u.userId])).toHaveLength(1);
  });

  test('a wrong code signs nobody in', async () => {
    const u = await signedUp();
    const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: wrongCode(u.code) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    expect(res.headers['x-device-id']).toBeUndefined();
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE user_id = $1', [u.userId])).toHaveLength(0);
  });

  test('verifying an e-mail signup confirms the e-mail', async () => {
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Mail User',
      email: 'verify.mail@example.com',
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    const ok = await to(t, api.verifyAccount).send({
      identifier: 'Verify.Mail@example.com',
      otp: await t.lastCode('verify.mail@example.com', 'account'),
    });
    expect(ok.status).toBe(200);
    expect(await t.db.one('SELECT is_active, email_confirmed, phone_confirmed FROM users WHERE id = $1', [res.body.user_id])).toEqual({
      is_active: true,
      email_confirmed: true,
      phone_confirmed: false,
    });
  });

  test('with phone and e-mail the code goes by SMS: it confirms the phone, not the e-mail, whichever identifier is typed', async () => {
    const phone = newPhone();
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'Both Ways',
      phone,
      email: 'both.ways@example.com',
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body.identifier).toBe(phone);
    await t.settled();
    expect(t.sent.at(-1)).toMatchObject({ channel: 'sms', to: phone });
    const ok = await to(t, api.verifyAccount).send({ identifier: 'both.ways@example.com', otp: await t.lastCode(phone, 'account') });
    expect(ok.status).toBe(200);
    expect(await t.db.one('SELECT is_active, phone_confirmed, email_confirmed FROM users WHERE id = $1', [res.body.user_id])).toEqual({
      is_active: true,
      phone_confirmed: true,
      email_confirmed: false,
    });
  });

  test('a wrong code is refused, counted, and the account stays inactive', async () => {
    const u = await signedUp();
    const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: wrongCode(u.code) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    expect((await userByPhone(u.phone))?.is_active).toBe(false);
    expect(await t.db.one('SELECT attempts FROM one_time_codes WHERE user_id = $1', [u.userId])).toEqual({ attempts: 1 });
  });

  test('a code that is not exactly 6 digits: its message, and no try is used up', async () => {
    const u = await signedUp();
    for (const otp of ['12345', '12a456', '١٢٣٤٥٦']) {
      const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ otp: ['Please enter the 6-digit code.'] });
    }
    const long = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: '1234567' });
    expect(long.body).toEqual({ otp: ['OTP must be at most 6 digits'] });
    expect(await t.db.one('SELECT attempts FROM one_time_codes WHERE user_id = $1', [u.userId])).toEqual({ attempts: 0 });
    const ok = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
    expect(ok.status).toBe(200);
  });

  test('missing otp or identifier: field errors', async () => {
    let res = await to(t, api.verifyAccount).send({ identifier: newPhone() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['This field is required.'] });
    res = await to(t, api.verifyAccount).send({ identifier: '', otp: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['Please enter your email or phone number'], otp: ['Please enter OTP'] });
  });

  test('an unknown identifier gets the same answer as a wrong code', async () => {
    const res = await to(t, api.verifyAccount).send({ identifier: newPhone(), otp: '123456' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
  });

  test('an expired code is refused even when right', async () => {
    const u = await signedUp();
    await t.db.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [u.userId]);
    const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['This code has expired. Please ask for a new one.'], code: 'otp_expired' });
    expect((await userByPhone(u.phone))?.is_active).toBe(false);
  });

  test('five wrong tries exhaust the code: even the right code then fails', async () => {
    const u = await signedUp();
    const wrong = wrongCode(u.code);
    for (let i = 1; i <= 4; i++) {
      const res = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: wrong });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    }
    const fifth = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: wrong });
    expect(fifth.status).toBe(400);
    expect(fifth.body).toEqual({ otp: ['Too many wrong tries for this code. Please ask for a new one.'], code: 'otp_exhausted' });
    // From another address (this one now waits): the code itself is spent.
    const right = await to(t, api.verifyAccount).set('X-Forwarded-For', '10.9.1.2').send({ identifier: u.phone, otp: u.code });
    expect(right.status).toBe(400);
    expect(right.body).toEqual({ otp: ['Too many wrong tries for this code. Please ask for a new one.'], code: 'otp_exhausted' });
    expect((await userByPhone(u.phone))?.is_active).toBe(false);
    expect(await t.db.one('SELECT attempts FROM one_time_codes WHERE user_id = $1', [u.userId])).toEqual({ attempts: 5 });
  });

  test('a used code cannot be used again', async () => {
    const u = await signedUp();
    expect((await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code })).status).toBe(200);
    // An active account answers as a wrong code does (nothing tells which accounts exist).
    const again = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    const row = await t.db.one<{ consumed_at: string | null }>('SELECT consumed_at FROM one_time_codes WHERE user_id = $1', [u.userId]);
    expect(row?.consumed_at).not.toBeNull();
  });

  test('failures per address and account: after FAILURE_STEPS[0].max wrong tries that address waits, in any spelling; others do not', async () => {
    const u = await signedUp();
    const wrong = wrongCode(u.code);
    const [step] = FAILURE_STEPS;
    const from = (ip: string) => to(t, api.verifyAccount).set('X-Forwarded-For', ip);
    for (let i = 1; i <= step.max; i++) {
      // Alternate spellings of the same phone count against the same account.
      const res = await from('10.9.0.1').send({ identifier: i % 2 ? u.phone : `+88${u.phone}`, otp: wrong });
      expect(res.status).toBe(400);
    }
    const limited = await from('10.9.0.1').send({ identifier: u.phone, otp: u.code });
    expect(limited.status).toBe(429);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(step.windowSec);
    expect(limited.body).toEqual({ detail: `Too many attempts. Please try again in ${retry} seconds.`, code: 'throttled', wait: retry });
    expect((await userByPhone(u.phone))?.is_active).toBe(false);

    const bn = await from('10.9.0.1').set('Accept-Language', 'bn').send({ identifier: u.phone, otp: u.code });
    expect(bn.status).toBe(429);
    expect(bn.body.detail).toBe(`অনেকবার চেষ্টা করা হয়েছে। ${toDigits(String(bn.body.wait), 'bn')} সেকেন্ড পর আবার চেষ্টা করুন।`);

    // The owner's own address is not held back by a stranger's failures: he gets a new code and verifies.
    await moveCodesBack(u.userId, 'account', 121);
    expect((await to(t, api.resendAccountCode).set('X-Forwarded-For', '10.9.0.2').send({ identifier: u.phone })).status).toBe(200);
    const fresh = await t.lastCode(u.phone, 'account');
    expect((await from('10.9.0.2').send({ identifier: u.phone, otp: fresh })).status).toBe(200);
  });
});

describe('POST /api/v1/resend-otp/', () => {
  test('right after sign-up: the answer of a phone without an account (nothing tells of the sign-up), and no second code', async () => {
    const u = await signedUp();
    const unknown = newPhone();
    const before = t.sent.length;
    const res = await to(t, api.resendAccountCode).send({ identifier: u.phone });
    const other = await to(t, api.resendAccountCode).send({ identifier: unknown });
    expect(res.status).toBe(200);
    expect({ status: res.status, body: res.body }).toEqual({ status: other.status, body: other.body });
    await t.settled();
    // The code of the sign-up is less than 120 s old: no second SMS.
    expect(t.sent.length).toBe(before);

    // The resend wait now runs for both alike: 429 with the seconds left, and still nothing is sent.
    for (const identifier of [u.phone, unknown]) {
      const again = await to(t, api.resendAccountCode).send({ identifier });
      expect(again.status).toBe(429);
      const retry = Number(again.headers['retry-after']);
      expect(retry).toBeGreaterThan(100);
      expect(retry).toBeLessThanOrEqual(120);
      expect(again.body).toMatchObject({ code: 'throttled', wait: retry });
    }
    await t.settled();
    expect(t.sent.length).toBe(before);

    await moveCodesBack(u.userId, 'account', 100);
    const still = await to(t, api.resendAccountCode).send({ identifier: u.phone });
    expect(still.status).toBe(429);
    expect(Number(still.headers['retry-after'])).toBeLessThanOrEqual(20);
  });

  test('after the wait a new code is sent and the old one stops working', async () => {
    const u = await signedUp();
    await moveCodesBack(u.userId, 'account', 121);
    const res = await to(t, api.resendAccountCode).send({ identifier: u.phone });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'If this account is waiting for verification, a new code is on its way.', wait: 120 });
    const fresh = await t.lastCode(u.phone, 'account');
    expect(fresh).toMatch(/^\d{6}$/);
    expect(await t.db.query('SELECT id FROM one_time_codes WHERE user_id = $1 AND consumed_at IS NULL', [u.userId])).toHaveLength(1);

    if (fresh !== u.code) {
      const old = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: u.code });
      expect(old.status).toBe(400);
      expect(old.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    }
    const ok = await to(t, api.verifyAccount).send({ identifier: u.phone, otp: fresh });
    expect(ok.status).toBe(200);
  });

  test('unknown, waiting and active accounts get the same answer; only the waiting one gets a code', async () => {
    const active = await createUser(t, { phone: newPhone() });
    const waiting = await signedUp();
    await moveCodesBack(waiting.userId, 'account', 121);
    const unknown = newPhone();
    const before = t.sent.length;
    const answers = [];
    for (const identifier of [active.phone, waiting.phone, unknown]) {
      const res = await to(t, api.resendAccountCode).send({ identifier });
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers[0]).toEqual({
      status: 200,
      body: { detail: 'If this account is waiting for verification, a new code is on its way.', wait: 120 },
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    await t.settled();
    expect(t.sent.slice(before).map((m) => m.to)).toEqual([waiting.phone]);
    // The resend wait is kept per identifier, for unknown ones too: a 429 does not tell that an account is there.
    for (const identifier of [active.phone, unknown]) expect((await to(t, api.resendAccountCode).send({ identifier })).status).toBe(429);
  });

  test('a malformed identifier is a field error', async () => {
    let res = await to(t, api.resendAccountCode).send({ identifier: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['Enter a valid phone number (01XXXXXXXXX) or email address.'] });
    res = await to(t, api.resendAccountCode).send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['This field is required.'] });
  });
});

describe('password recovery', () => {
  const RESET_SENT = 'If an account exists for this phone number or email, a code has been sent to it.';

  test('forgot-password sends a 6-digit reset code to an active account', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const before = t.sent.length;
    const res = await to(t, api.forgotPassword).send({ identifier: u.phone });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: RESET_SENT, wait: 60 });
    await t.settled();
    expect(t.sent.length).toBe(before + 1);
    await t.settled();
    expect(t.sent.at(-1)).toMatchObject({ channel: 'sms', to: u.phone, purpose: 'reset' });
    expect(await t.lastCode(u.phone, 'reset')).toMatch(/^\d{6}$/);
    await t.settled();
    expect(t.sent.at(-1)?.text).toContain('password reset code');
  });

  test('unknown and never-verified accounts get the same answer, and nothing is sent', async () => {
    const pending = await signedUp();
    const before = t.sent.length;
    const unknown = await to(t, api.forgotPassword).send({ identifier: newPhone() });
    const unknownMail = await to(t, api.forgotPassword).send({ identifier: 'nobody@example.com' });
    const notVerified = await to(t, api.forgotPassword).send({ identifier: pending.phone });
    for (const res of [unknown, unknownMail, notVerified]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ detail: RESET_SENT, wait: 60 });
    }
    await t.settled();
    expect(t.sent.length).toBe(before);
  });

  test('the 60 s wait answers alike for existing and unknown accounts (a 429 does not reveal an account)', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const unknown = newPhone();
    for (const identifier of [u.phone, unknown]) {
      const first = await to(t, api.forgotPassword).send({ identifier });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ detail: RESET_SENT, wait: 60 });
      const again = await to(t, api.resendResetCode).send({ identifier });
      expect(again.status).toBe(429);
      expect(again.body).toMatchObject({ code: 'throttled' });
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(40);
    }
    await t.settled();
    expect(t.sent.filter((m) => m.to === unknown)).toEqual([]);
  });

  test('forgot-password: empty or malformed identifier is a field error', async () => {
    let res = await to(t, api.forgotPassword).send({ identifier: '  ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['Please enter your email or phone number'] });
    res = await to(t, api.forgotPassword, { lang: 'bn' }).send({ identifier: '  ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['অনুগ্রহ করে আপনার ইমেইল বা ফোন নম্বর দিন'] });
    res = await to(t, api.forgotPassword).send({ identifier: '0123' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ identifier: ['Enter a valid phone number (01XXXXXXXXX) or email address.'] });
  });

  test('resend-password-reset-otp waits 60 s, then sends a new code and the old one stops working', async () => {
    const u = await createUser(t, { phone: newPhone() });
    expect((await to(t, api.forgotPassword).send({ identifier: u.phone })).status).toBe(200);
    const first = await t.lastCode(u.phone, 'reset');
    const count = t.sent.length;

    const early = await to(t, api.resendResetCode).send({ identifier: u.phone });
    expect(early.status).toBe(429);
    const retry = Number(early.headers['retry-after']);
    expect(retry).toBeGreaterThan(40);
    expect(retry).toBeLessThanOrEqual(60);
    expect(early.body).toMatchObject({ code: 'throttled', wait: retry });
    await t.settled();
    expect(t.sent.length).toBe(count);

    await moveCodesBack(u.id, 'reset', 61);
    await t.db.query(`UPDATE rate_limits SET window_start = window_start - interval '61 seconds' WHERE key = $1`, [
      `reset-wait:${u.phone}`,
    ]);
    const res = await to(t, api.resendResetCode).send({ identifier: u.phone });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: RESET_SENT, wait: 60 });
    await t.settled();
    expect(t.sent.length).toBe(count + 1);
    const second = await t.lastCode(u.phone, 'reset');

    if (second !== first) {
      const old = await to(t, api.resetPassword).send({
        identifier: u.phone,
        otp: first,
        new_password: 'brand-new-pass',
        confirm_password: 'brand-new-pass',
      });
      expect(old.status).toBe(400);
      expect(old.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });
    }
    const ok = await to(t, api.resetPassword).send({
      identifier: u.phone,
      otp: second,
      new_password: 'brand-new-pass',
      confirm_password: 'brand-new-pass',
    });
    expect(ok.status).toBe(200);
  });

  test('reset-password: mismatch, short password, malformed and missing code are refused without using a try', async () => {
    const u = await createUser(t, { phone: newPhone() });
    await to(t, api.forgotPassword).send({ identifier: u.phone });
    const code = await t.lastCode(u.phone, 'reset');
    const send = (b: Record<string, unknown>) => to(t, api.resetPassword).send({ identifier: u.phone, otp: code, ...b });

    let res = await send({ new_password: 'brand-new-pass', confirm_password: 'brand-new-pasS' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ confirm_password: ['Passwords do not match'] });

    res = await send({ new_password: 'short', confirm_password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ new_password: ['Password must be at least 8 characters'] });

    res = await send({ otp: '1234567', new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['OTP must be at most 6 digits'] });

    res = await send({ otp: '', new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['Please enter OTP'] });

    res = await send({ confirm_password: undefined, new_password: undefined });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ new_password: ['This field is required.'], confirm_password: ['This field is required.'] });

    // A 5-digit code is no code at all.
    res = await send({ otp: '12345', new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['Please enter the 6-digit code.'] });

    expect(await t.db.one(`SELECT attempts FROM one_time_codes WHERE user_id = $1 AND purpose = 'reset'`, [u.id])).toEqual({ attempts: 0 });
    // The password did not change.
    expect((await to(t, api.login).send({ phone: u.phone, password: u.password })).status).toBe(200);
  });

  test('reset-password: a wrong code and an expired code are refused', async () => {
    const u = await createUser(t, { phone: newPhone() });
    await to(t, api.forgotPassword).send({ identifier: u.phone });
    const code = await t.lastCode(u.phone, 'reset');
    const body = { identifier: u.phone, new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' };

    let res = await to(t, api.resetPassword).send({ ...body, otp: wrongCode(code) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });

    await t.db.query(`UPDATE one_time_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'reset'`, [u.id]);
    res = await to(t, api.resetPassword).send({ ...body, otp: code });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['This code has expired. Please ask for a new one.'], code: 'otp_expired' });

    res = await to(t, api.resetPassword).send({ ...body, identifier: newPhone(), otp: code });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' });

    expect((await to(t, api.login).send({ phone: u.phone, password: 'brand-new-pass' })).status).toBe(401);
  });

  test('a successful reset changes the password, revokes every refresh token, and the code works once', async () => {
    const u = await createUser(t, { phone: newPhone(), email: 'resetter@example.com' });
    const login = await to(t, api.login).send({ phone: u.phone, password: u.password });
    expect(login.status).toBe(200);
    const oldRefresh = login.body.refresh as string;

    // Recovery by e-mail identifier; the code goes to the account's phone.
    expect((await to(t, api.forgotPassword).send({ identifier: 'Resetter@Example.com' })).status).toBe(200);
    const code = await t.lastCode(u.phone, 'reset');
    const body = { identifier: 'resetter@example.com', otp: code, new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' };
    const res = await to(t, api.resetPassword).send(body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'Your password has been changed. Please log in with the new password.' });

    const oldLogin = await to(t, api.login).send({ phone: u.phone, password: u.password });
    expect(oldLogin.status).toBe(401);
    expect(oldLogin.body).toEqual({ detail: 'Invalid credentials', code: 'no_active_account' });
    expect((await to(t, api.login).send({ phone: u.phone, password: 'brand-new-pass' })).status).toBe(200);

    const refresh = await to(t, api.refresh).send({ refresh: oldRefresh });
    expect(refresh.status).toBe(401);
    expect(refresh.body).toMatchObject({ code: 'token_not_valid' });
    const live = await t.db.query(`SELECT jti FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL`, [u.id]);
    expect(live).toHaveLength(1); // only the login made after the reset

    const reuse = await to(t, api.resetPassword).send({ ...body, new_password: 'third-pass-33', confirm_password: 'third-pass-33' });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ otp: ['There is no valid code for this account. Please ask for a new one.'], code: 'otp_none' });
  });

  test('reset codes exhaust after five wrong tries', async () => {
    const u = await createUser(t, { phone: newPhone() });
    await to(t, api.forgotPassword).send({ identifier: u.phone });
    const code = await t.lastCode(u.phone, 'reset');
    const body = { identifier: u.phone, new_password: 'brand-new-pass', confirm_password: 'brand-new-pass' };
    for (let i = 0; i < 5; i++) expect((await to(t, api.resetPassword).send({ ...body, otp: wrongCode(code) })).status).toBe(400);
    // From another address (this one now waits): the code itself is spent.
    const res = await to(t, api.resetPassword)
      .set('X-Forwarded-For', '10.9.1.1')
      .send({ ...body, otp: code });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ otp: ['Too many wrong tries for this code. Please ask for a new one.'], code: 'otp_exhausted' });
    expect((await to(t, api.login).send({ phone: u.phone, password: u.password })).status).toBe(200);
  });
});
