/**
 * Editing the profile (docs/rules/accounts-and-codes.md#11-profile): PATCH /api/v1/update-profile/ with the current
 * password and the fields that change. Every rule with its message, the duplicates (also when two accounts race for
 * one phone), the confirmed flags of a changed e-mail or phone, and wrong passwords limited like failed logins.
 * On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { Accounts } from '../../server/accounts/service.ts';
import type { Codes } from '../../server/accounts/codes.ts';
import type { Challenges } from '../../server/accounts/challenge.ts';
import type { Tokens } from '../../server/accounts/tokens.ts';
import type { Db } from '../../server/db/index.ts';
import type { Texts } from '../../server/i18n.ts';
import { Refusal } from '../../shared/api/refusal.ts';
import { FAILURE_STEPS } from '../../server/http/rate-limit.ts';
import type { Notifier } from '../../server/notify/index.ts';
import { account, type Account as Player, uniquePhone } from '../helpers/factories.ts';
import { to, type Caller } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

let seq = 0;
const newPhone = uniquePhone;

const patch = (p: Player | null, body: unknown, lang = 'en') => {
  return to(t, api.updateProfile, { as: p, lang }).send(body as object);
};
const stored = (id: number) =>
  t.db.one<{ name: string; email: string | null; phone: string | null; phone_confirmed: boolean; email_confirmed: boolean }>(
    'SELECT name, email, phone, phone_confirmed, email_confirmed FROM users WHERE id = $1',
    [id],
  );

describe('PATCH /api/v1/update-profile/', () => {
  test('name, e-mail and phone change: 200 with the new profile and a confirmation; the typed forms are normalised', async () => {
    const p = await account(t, { name: 'Rahim Uddin' });
    const phone = newPhone();
    const res = await patch(p, {
      password: p.password,
      name: '  Rahim Ahmed ',
      email: ' Rahim@Example.COM ',
      phone: `+880 ${phone.slice(1, 5)}-${phone.slice(5)}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: p.id,
      user_id: p.id,
      name: 'Rahim Ahmed',
      email: 'rahim@example.com',
      phone,
      detail: 'Your profile has been updated.',
    });
    expect(res.body).not.toHaveProperty('password_hash');
    expect(await stored(p.id)).toEqual({
      name: 'Rahim Ahmed',
      email: 'rahim@example.com',
      phone,
      // A changed phone (or e-mail) has not been proved by a code: it is no longer confirmed.
      phone_confirmed: false,
      email_confirmed: false,
    });
    // The profile read afterwards says the same, and the new phone logs in.
    const again = await request(t.url)
      .get(`/api/v1/users/${p.id}/`)
      .set(...p.auth);
    expect(again.body).toMatchObject({ name: 'Rahim Ahmed', email: 'rahim@example.com', phone });
    expect((await request(t.url).post('/api/token/').send({ phone, password: p.password })).status).toBe(200);
    expect((await request(t.url).post('/api/token/').send({ phone: p.phone, password: p.password })).status).toBe(401);
  });

  test('only the name changes: the phone stays confirmed; the answer is in Bengali when asked', async () => {
    const p = await account(t);
    const res = await patch(p, { password: p.password, name: 'নুসরাত জাহান', phone: p.phone }, 'bn');
    expect(res.status).toBe(200);
    expect(res.body.detail).toBe('আপনার প্রোফাইল আপডেট হয়েছে।');
    expect(await stored(p.id)).toMatchObject({ name: 'নুসরাত জাহান', phone: p.phone, phone_confirmed: true });
  });

  test('the e-mail can be removed while the phone stays; the phone cannot be removed when it is the only one', async () => {
    const p = await account(t, { email: `keep${++seq}@example.com` });
    const noEmail = await patch(p, { password: p.password, email: '' });
    expect(noEmail.status).toBe(200);
    expect(noEmail.body.email).toBeNull();
    const noPhone = await patch(p, { password: p.password, phone: null });
    expect(noPhone.status).toBe(400);
    expect(noPhone.body).toEqual({ non_field_errors: ['Either phone or email must be provided'], code: 'profile_phone_or_email_kept' });
    expect((await stored(p.id))?.phone).toBe(p.phone);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['nothing to change', {}, { non_field_errors: ['At least one field (name, email, or phone) must be provided'] }],
    ['phone and e-mail both removed', { phone: '', email: null }, { non_field_errors: ['Either phone or email must be provided'] }],
    ['a phone of 10 digits', { phone: '0171234567' }, { phone: ['Phone number must be 11 digits (e.g., 01712345678)'] }],
    ['a phone with letters', { phone: '0171234567a' }, { phone: ['Phone number must be 11 digits (e.g., 01712345678)'] }],
    ['a phone that is not mobile', { phone: '02123456789' }, { phone: ['Phone number must be 11 digits (e.g., 01712345678)'] }],
    ['an e-mail without a domain', { email: 'rahim@' }, { email: ['Please enter a valid email address'] }],
    ['an e-mail with a space', { email: 'ra him@example.com' }, { email: ['Please enter a valid email address'] }],
    ['a blank name', { name: '   ' }, { name: ['This field is required'] }],
    ['a name of 101 characters', { name: 'a'.repeat(101) }, { name: ['Ensure this value has at most 100 characters or digits.'] }],
    ['a picture that is not an upload id', { picture: 'me.png' }, { picture: ['Invalid value.'] }],
    ['an unknown field', { name: 'X', is_staff: true }, { is_staff: ['Unknown field.'] }],
    ['a name as a number', { name: 5 }, { name: ['Expected a string.'] }],
    ['a NUL in the name', { name: 'Ra\u0000him' }, { name: ['This field contains characters that are not allowed.'] }],
    [
      'a control character in the e-mail',
      { email: 'a\u0007@example.com' },
      { email: ['This field contains characters that are not allowed.'] },
    ],
  ])('%s: 400 with its message, nothing changed', async (_name, change, errors) => {
    const p = await account(t, { name: 'Before' });
    const res = await patch(p, { password: p.password, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await stored(p.id)).toMatchObject({ name: 'Before', phone: p.phone });
  });

  test('the current password is required, whatever else is wrong', async () => {
    const p = await account(t);
    for (const body of [{ name: 'New' }, { password: '', name: 'New' }]) {
      const res = await patch(p, body);
      expect(res.status).toBe(400);
      expect(res.body.password).toEqual([body.password === '' ? 'Current Password is required' : 'This field is required.']);
    }
    const bn = await patch(p, { password: '', name: 'New' }, 'bn');
    expect(bn.body).toEqual({ password: ['বর্তমান পাসওয়ার্ড দিতে হবে'] });
  });

  test('the same values as stored are no change', async () => {
    const p = await account(t, { name: 'Same Name' });
    const res = await patch(p, { password: p.password, name: 'Same Name', phone: p.phone });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      non_field_errors: ['At least one field (name, email, or phone) must be provided'],
      code: 'profile_nothing_changed',
    });
  });

  test('a wrong current password: 400 on the password field, nothing changed', async () => {
    const p = await account(t, { name: 'Before' });
    const res = await patch(p, { password: 'not-my-password', name: 'After' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ password: ['Invalid password. Please enter your current password.'], code: 'profile_password_wrong' });
    const bn = await patch(p, { password: 'not-my-password', name: 'After' }, 'bn');
    expect(bn.body).toEqual({ password: ['পাসওয়ার্ড সঠিক নয়। অনুগ্রহ করে আপনার বর্তমান পাসওয়ার্ড দিন।'], code: 'profile_password_wrong' });
    expect((await stored(p.id))?.name).toBe('Before');
  });

  test('wrong passwords are limited like failed logins: after the fifth, even the right one waits (429)', async () => {
    const p = await account(t, { name: 'Before' });
    const first = FAILURE_STEPS[0];
    for (let i = 0; i < first.max; i++) expect((await patch(p, { password: `wrong-${i}`, name: 'After' })).status).toBe(400);
    const limited = await patch(p, { password: p.password, name: 'After' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'throttled', wait: expect.any(Number) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(first.windowSec);
    expect((await stored(p.id))?.name).toBe('Before');
    // Counted per account: another player is not held up.
    const other = await account(t);
    expect((await patch(other, { password: other.password, name: 'Free' })).status).toBe(200);
  });

  test('an e-mail or phone of another account is refused with its message', async () => {
    const owner = await account(t, { email: `taken${++seq}@example.com` });
    const p = await account(t);
    const res = await patch(p, { password: p.password, email: (await stored(owner.id))?.email?.toUpperCase(), phone: owner.phone });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      email: ['This email address is already in use by another account.'],
      phone: ['This phone number is already in use by another account.'],
      code: 'email_taken',
    });
    expect((await stored(p.id))?.phone).toBe(p.phone);
  });

  test('two players taking one new phone at the same moment: one gets it, the other the "in use" message', async () => {
    const a = await account(t);
    const b = await account(t);
    const phone = newPhone();
    const [ra, rb] = await Promise.all([patch(a, { password: a.password, phone }), patch(b, { password: b.password, phone })]);
    expect([ra.status, rb.status].sort()).toEqual([200, 400]);
    const loser = ra.status === 400 ? ra : rb;
    expect(loser.body).toEqual({ phone: ['This phone number is already in use by another account.'], code: 'phone_taken' });
    const holders = await t.db.query('SELECT id FROM users WHERE phone = $1', [phone]);
    expect(holders).toHaveLength(1);
  });

  test('the UNIQUE violation itself is mapped (a phone taken between the check and the update)', async () => {
    const a = await account(t);
    const b = await account(t, { email: `race${++seq}@example.com` });
    // The accounts' check sees nobody holding the phone or e-mail (as when the other account took it a moment later):
    // the database's UNIQUE constraint refuses the update, and that is the same message.
    const blind: Db = {
      ...t.db,
      query: (sql, params) => (sql.startsWith('SELECT * FROM users WHERE (email') ? Promise.resolve([]) : t.db.query(sql, params)),
      one: (sql, params) => t.db.one(sql, params),
      tx: (fn) => t.db.tx(fn),
    };
    const accounts = new Accounts({
      db: blind,
      tokens: {} as Tokens,
      codes: {} as Codes,
      challenges: {} as Challenges,
      notifier: {} as Notifier,
      texts: {} as Texts,
      defer: () => undefined,
    });
    const bEmail = (await stored(b.id))?.email as string;
    for (const [change, refused] of [
      [{ phone: b.phone }, 'phone_taken'],
      [{ email: bEmail }, 'email_taken'],
    ] as const) {
      const err = await accounts.updateProfile({ user_id: a.id }, { password: a.password, ...change }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Refusal);
      expect((err as Refusal).refusal).toBe(refused);
    }
    expect((await stored(a.id))?.phone).toBe(a.phone);
  });

  test('a new picture: an upload of the player himself becomes his picture; someone else’s upload is refused', async () => {
    const p = await account(t);
    const other = await account(t);
    const up = async (who: Player) =>
      (
        await request(t.url)
          .post('/api/v1/upload-image/')
          .set(...who.auth)
          .set('Content-Type', 'image/png')
          .send(PNG)
      ).body.data.id as string;
    const mine = await up(p);
    const res = await patch(p, { password: p.password, picture: mine });
    expect(res.status).toBe(200);
    expect(res.body.picture_url).toBe(`/api/v1/uploads/${mine}/`);
    const theirs = await up(other);
    const refused = await patch(p, { password: p.password, picture: theirs });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ picture: ['This picture could not be used. Please upload it again.'], code: 'picture_invalid' });
  });

  test('anonymous: 401; the request names no account: a user_id is an unknown field, never another player', async () => {
    const res = await patch(null, { password: 'x', name: 'Hacker' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
    // There is no user id in the request: whoever calls changes himself, never another account.
    const p = await account(t, { name: 'Untouched' });
    const other = await account(t);
    const res2 = await patch(other, { password: other.password, name: 'Changed', user_id: p.id });
    expect(res2.status).toBe(400);
    expect((await stored(p.id))?.name).toBe('Untouched');
  });

  test('a body that is not JSON is refused with 4xx, never 500', async () => {
    const p = await account(t);
    const res = await request(t.url)
      .patch('/api/v1/update-profile/')
      .set(...p.auth)
      .set('Content-Type', 'text/plain')
      .send('name=x');
    expect(res.status).toBe(415);
    const bad = await request(t.url)
      .patch('/api/v1/update-profile/')
      .set(...p.auth)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    expect(bad.status).toBe(400);
    const arr = await patch(p, ['name']);
    expect(arr.status).toBe(400);
  });
});

describe('GET /api/v1/my-profile/', () => {
  const mine = (p: Caller, o: { query?: Record<string, unknown>; lang?: string } = {}) => to(t, api.myProfile, { as: p, ...o });
  /** The caller's profile and settings as their own endpoints answer them. */
  const apart = async (p: Player) => ({
    user: (await to(t, api.getUser, { params: { id: p.id }, as: p }).expect(200)).body as unknown,
    messages: (await to(t, api.messageSettings, { as: p }).expect(200)).body as unknown,
  });

  test("the caller's profile and message settings in one answer, as their own endpoints give them", async () => {
    const p = await account(t, { name: 'Shapla Begum', email: 'shapla@example.com' });
    const res = await mine(p).expect(200);
    expect(res.body).toEqual(await apart(p));
    expect(res.body.user).toMatchObject({ id: p.id, user_id: p.id, name: 'Shapla Begum', email: 'shapla@example.com', is_staff: false });
    expect(res.body.user).not.toHaveProperty('password_hash');
    // Never chosen: claim reminders on, new lotteries off.
    expect(res.body.messages).toEqual({ language: 'bn', claim_reminder: true, new_lottery: false });
  });

  test('what he saved is what it answers: settings, then a changed name', async () => {
    const p = await account(t, { name: 'Jasim Uddin' });
    await to(t, api.setMessageSettings, { as: p }).send({ language: 'en', claim_reminder: false, new_lottery: true }).expect(200);
    await patch(p, { password: p.password, name: 'Jasim Ahmed' }).expect(200);
    const res = await mine(p).expect(200);
    expect(res.body.messages).toEqual({ language: 'en', claim_reminder: false, new_lottery: true });
    expect(res.body.user.name).toBe('Jasim Ahmed');
    expect(res.body).toEqual(await apart(p));
  });

  test('it names no account: an id in the query is ignored, the answer is always the caller his own', async () => {
    const p = await account(t, { name: 'Own Self' });
    const other = await account(t, { name: 'Someone Else' });
    const res = await mine(p, { query: { id: other.id, user_id: other.id } }).expect(200);
    expect(res.body.user).toMatchObject({ id: p.id, name: 'Own Self' });
  });

  test('staff read their own too', async () => {
    const s = await account(t, { name: 'Staff Officer', is_staff: true });
    const res = await mine(s).expect(200);
    expect(res.body.user).toMatchObject({ id: s.id, is_staff: true });
    expect(res.body).toEqual(await apart(s));
  });

  test("anonymous, or a token that is not one: 401 in the caller's language, nothing read", async () => {
    const anon = await mine(null).expect(401);
    expect(anon.body).toMatchObject({ code: 'not_authenticated', detail: 'Authentication credentials were not provided.' });
    const bn = await mine(null, { lang: 'bn' }).expect(401);
    expect(bn.body).toMatchObject({ code: 'not_authenticated', detail: 'লগইন তথ্য দেওয়া হয়নি।' });
    const forged = await mine({ auth: ['Authorization', 'Bearer not-a-token'] }).expect(401);
    expect(forged.body.code).toBe('token_not_valid');
  });

  test('a deactivated account: 401, not his profile', async () => {
    const p = await account(t, { name: 'Gone Away' });
    await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [p.id]);
    const res = await mine(p);
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain('Gone Away');
  });
});
