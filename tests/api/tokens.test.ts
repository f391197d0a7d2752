/**
 * Token API (docs/rules/accounts-and-codes.md#4-login, #10-sessions): login by phone or e-mail, the access-token payload the
 * client reads, refresh, blacklist (logout), the bearer check, and the login rate limit.
 */
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { ACCOUNT_DELAY, FAILURE_STEPS, LIMITS } from '../../server/http/rate-limit.ts';
import { Tokens } from '../../server/accounts/tokens.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

const SECRET = 'tokens-test-secret-'.padEnd(48, 'y');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SECRET_KEY: SECRET });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const newPhone = uniquePhone;
const INVALID = { detail: 'Invalid credentials', code: 'no_active_account' };

async function login(phone: string, password: string) {
  const res = await to(t, api.login).send({ phone, password });
  expect(res.status).toBe(200);
  return res.body as { access: string; refresh: string };
}

describe('POST /api/token/', () => {
  test('login by phone: access and refresh; the access payload has what clients read', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Salma Khatun' });
    const before = Math.floor(Date.now() / 1000);
    const res = await to(t, api.login).send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access', 'refresh']);
    const claims = decodeJwt(res.body.access);
    expect(claims).toMatchObject({
      user_id: u.id,
      is_staff: false,
      is_active: true,
      name: 'Salma Khatun',
      phone: u.phone,
      token_type: 'access',
    });
    // Default access lifetime: 15 minutes.
    expect(claims.exp).toBeGreaterThanOrEqual(before + 15 * 60);
    expect(claims.exp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 15 * 60);
    const refresh = decodeJwt(res.body.refresh);
    expect(refresh).toMatchObject({ user_id: u.id, token_type: 'refresh' });
    expect(refresh.exp).toBeGreaterThanOrEqual(before + 7 * 24 * 3600);
    // The refresh token is recorded so that logout can revoke it.
    expect(await t.db.one('SELECT user_id, revoked_at FROM refresh_tokens WHERE jti = $1', [refresh.jti])).toEqual({
      user_id: u.id,
      revoked_at: null,
    });
  });

  test('login by phone in another spelling, and by e-mail in any case', async () => {
    const u = await createUser(t, { phone: newPhone(), email: 'login.mail@example.com' });
    expect(decodeJwt((await login(`+88${u.phone}`, u.password)).access).user_id).toBe(u.id);
    expect(decodeJwt((await login('Login.Mail@EXAMPLE.com', u.password)).access).user_id).toBe(u.id);
  });

  test('a hash made with less work than today’s cost is replaced at the next right login, and only then', async () => {
    const u = await createUser(t, { phone: newPhone() });
    // The same password hashed with N = 2^9, below this app's cost (2^10 in tests, 2^17 in production).
    const salt = randomBytes(16);
    const weak = `scrypt$512$8$1$${salt.toString('base64')}$${scryptSync(u.password, salt, 32, { N: 512, r: 8, p: 1 }).toString('base64')}`;
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [u.id, weak]);
    const stored = async () => (await t.db.one<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [u.id]))?.h;
    expect((await to(t, api.login).send({ phone: u.phone, password: 'not-the-password' })).status).toBe(401);
    expect(await stored()).toBe(weak);
    await login(u.phone, u.password);
    const raised = await stored();
    expect(raised).toMatch(/^scrypt\$1024\$8\$1\$/);
    await login(u.phone, u.password);
    expect(await stored()).toBe(raised);
  });

  test('a staff login carries is_staff', async () => {
    const s = await createUser(t, { phone: newPhone(), is_staff: true });
    expect(decodeJwt((await login(s.phone, s.password)).access)).toMatchObject({ user_id: s.id, is_staff: true });
  });

  test('wrong password and unknown identifier: the same 401 Invalid credentials', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const wrong = await to(t, api.login).send({ phone: u.phone, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID);
    const unknown = await to(t, api.login).send({ phone: newPhone(), password: u.password });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(INVALID);
    // Something that is neither a phone number nor an e-mail address is a field error (the login form's rule too).
    const notAnIdentifier = await to(t, api.login).send({ phone: 'nobody', password: u.password });
    expect(notAnIdentifier.status).toBe(400);
    expect(notAnIdentifier.body).toEqual({ phone: ['Enter a valid phone number (01XXXXXXXXX) or email address.'] });
    const bn = await to(t, api.login).set('Accept-Language', 'bn').send({ phone: u.phone, password: 'not-the-password' });
    expect(bn.status).toBe(401);
    expect(bn.body).toEqual({ detail: 'ভুল লগইন তথ্য', code: 'no_active_account' });
  });

  test('a never-verified account: 401 account_not_active with the identifier, only with the right password', async () => {
    const phone = newPhone();
    expect((await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'Not Yet', phone, password: 'pending-pass-1' })).status).toBe(
      201,
    );

    const wrong = await to(t, api.login).send({ phone, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID);

    const res = await to(t, api.login).send({ phone, password: 'pending-pass-1' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'User is not active, please verify OTP', code: 'account_not_active', identifier: phone });
    expect(res.body).not.toHaveProperty('access');
  });

  test('login of a never-verified account sends a fresh code once the resend wait has passed', async () => {
    const phone = newPhone();
    const signup = await to(t, api.signup).send({ date_of_birth: '1990-01-01', name: 'Late Verifier', phone, password: 'pending-pass-1' });
    const first = await t.lastCode(phone, 'account');
    const count = t.sent.length;
    // Within the 120 s wait: no new code.
    expect((await to(t, api.login).send({ phone, password: 'pending-pass-1' })).status).toBe(401);
    expect(t.sent.length).toBe(count);
    await t.db.query(`UPDATE one_time_codes SET created_at = created_at - interval '121 seconds' WHERE user_id = $1`, [
      signup.body.user_id,
    ]);
    expect((await to(t, api.login).send({ phone, password: 'pending-pass-1' })).body.code).toBe('account_not_active');
    expect(t.sent.length).toBe(count + 1);
    const second = await t.lastCode(phone, 'account');
    if (first !== second) expect((await to(t, api.verifyAccount).send({ identifier: phone, otp: first })).status).toBe(400);
    const ok = await to(t, api.verifyAccount).send({ identifier: phone, otp: second });
    expect(ok.status).toBe(200);
    expect(decodeJwt((await login(phone, 'pending-pass-1')).access)).toMatchObject({ is_active: true });
  });

  test('a disabled account (verified once) is told so, with the right password only', async () => {
    const u = await createUser(t, { phone: newPhone(), is_active: false });
    const res = await to(t, api.login).send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'This account has been disabled. Please contact support.', code: 'account_disabled' });
    const wrong = await to(t, api.login).send({ phone: u.phone, password: 'wrong-password' });
    expect(wrong.body).toEqual(INVALID);
  });

  test('missing or wrong-typed fields are field errors', async () => {
    let res = await to(t, api.login).send({});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone: ['This field is required.'], password: ['This field is required.'] });
    res = await to(t, api.login).send({ phone: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone: ['Please enter your email or phone number'], password: ['Please enter your password'] });
    res = await to(t, api.login).send({ phone: 1711111111, password: 'x', remember: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ phone: ['Expected a string.'], remember: ['Unknown field.'] });
  });

  test('failed logins count per address and account: after FAILURE_STEPS[0].max that address waits, even with the right password', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const [step] = FAILURE_STEPS;
    const from = (ip: string) => to(t, api.login).set('X-Forwarded-For', ip);
    for (let i = 0; i < step.max; i++) {
      const res = await from('10.8.0.1').send({ phone: u.phone, password: `guess-${i}-xxxx` });
      expect(res.status).toBe(401);
    }
    const res = await from('10.8.0.1').send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(429);
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(step.windowSec);
    expect(res.body).toEqual({ detail: `Too many attempts. Please try again in ${retry} seconds.`, code: 'throttled', wait: retry });
    // Other accounts from the same address are not held back by it.
    const other = await createUser(t, { phone: newPhone() });
    expect((await from('10.8.0.1').send({ phone: other.phone, password: other.password })).status).toBe(200);
  }, 90_000);

  test('nobody locks a player out: failures against his phone from many addresses leave his device free', async () => {
    const u = await createUser(t, { phone: newPhone() });
    // His device logged in before (docs/decisions/025-limits-for-shared-addresses.md; lockouts.test.ts has the rest).
    const device = (await to(t, api.login).set('X-Forwarded-For', '10.8.2.1').send({ phone: u.phone, password: u.password })).headers[
      'x-device-id'
    ] as string;
    const [step] = FAILURE_STEPS;
    for (let ip = 1; ip <= 4; ip++) {
      for (let i = 0; i < step.max; i++) {
        const res = await to(t, api.login)
          .set('X-Forwarded-For', `10.8.1.${ip}`)
          .send({ phone: u.phone, password: `guess-${i}-xxxx` });
        // 401 until the account's free failures are spent; then its growing delay (ACCOUNT_DELAY) may answer first.
        if ((ip - 1) * step.max + i < ACCOUNT_DELAY.free) expect(res.status).toBe(401);
        else expect([401, 429]).toContain(res.status);
      }
      expect((await to(t, api.login).set('X-Forwarded-For', `10.8.1.${ip}`).send({ phone: u.phone, password: u.password })).status).toBe(
        429,
      );
    }
    const owner = await to(t, api.login)
      .set('X-Forwarded-For', '10.8.2.1')
      .set('X-Device-Id', device)
      .send({ phone: u.phone, password: u.password });
    expect(owner.status).toBe(200);
  }, 120_000);

  test('the wait grows: FAILURE_STEPS[1].max failures wait up to its longer window', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const [, day] = FAILURE_STEPS;
    // The failures of the longer step, as if they had come over the day (each first step's window has passed).
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), $2)`, [
      `login:fail:10.8.3.1:${u.phone}:1`,
      day.max,
    ]);
    const res = await to(t, api.login).set('X-Forwarded-For', '10.8.3.1').send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(FAILURE_STEPS[0].windowSec);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(day.windowSec);
  });

  test('the login flood ceiling per address: the try past LIMITS.loginFloodPerIp from one IP is 429', async () => {
    const row = await t.db.query(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES ('login:ip:127.0.0.1', now(), $1) RETURNING hits`,
      [LIMITS.loginFloodPerIp.max],
    );
    expect(row).toHaveLength(1);
    const u = await createUser(t, { phone: newPhone() });
    const res = await to(t, api.login).send({ phone: u.phone, password: u.password });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('throttled');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('POST /api/token/refresh/', () => {
  test('a valid refresh token gives a new access token for the same user', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Refresh Me' });
    const tokens = await login(u.phone, u.password);
    const res = await to(t, api.refresh).send({ refresh: tokens.refresh });
    expect(res.status).toBe(200);
    expect(res.body.refresh).toBe(tokens.refresh);
    expect(decodeJwt(res.body.access)).toMatchObject({
      user_id: u.id,
      name: 'Refresh Me',
      phone: u.phone,
      is_active: true,
      token_type: 'access',
    });
    const me = await to(t, api.getUser, { params: { id: u.id } }).set('Authorization', `Bearer ${res.body.access}`);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(u.id);
  });

  test('the refreshed access token reflects the user as he is now', async () => {
    const u = await createUser(t, { phone: newPhone(), name: 'Old Name' });
    const tokens = await login(u.phone, u.password);
    await t.db.query(`UPDATE users SET name = 'New Name', is_staff = true WHERE id = $1`, [u.id]);
    const res = await to(t, api.refresh).send({ refresh: tokens.refresh });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.access)).toMatchObject({ name: 'New Name', is_staff: true });
  });

  test('garbage, an access token, a foreign signature or a missing field: 401 token_not_valid or 400', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const tokens = await login(u.phone, u.password);
    const foreign = await new SignJWT({ user_id: u.id, jti: crypto.randomUUID(), token_type: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('someone-else'));
    for (const refresh of ['garbage', tokens.access, foreign, `${tokens.refresh}x`]) {
      const res = await to(t, api.refresh).send({ refresh });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Your session has expired, please sign in again!', code: 'token_not_valid' });
    }
    const missing = await to(t, api.refresh).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ refresh: ['This field is required.'] });
  });

  test('a refresh token of a user who was disabled since: 401', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const tokens = await login(u.phone, u.password);
    await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [u.id]);
    const res = await to(t, api.refresh).send({ refresh: tokens.refresh });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_not_valid');
  });

  test('an expired refresh token (by its database record) is refused', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const tokens = await login(u.phone, u.password);
    await t.db.query(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE jti = $1`, [decodeJwt(tokens.refresh).jti]);
    const res = await to(t, api.refresh).send({ refresh: tokens.refresh });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_not_valid');
  });
});

describe('POST /api/token/blacklist/', () => {
  test('revokes the refresh token: refresh fails afterwards; other sessions of the user live on', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const phoneSession = await login(u.phone, u.password);
    const laptopSession = await login(u.phone, u.password);
    const res = await to(t, api.logout).send({ refresh: phoneSession.refresh });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const row = await t.db.one<{ revoked_at: string | null }>('SELECT revoked_at FROM refresh_tokens WHERE jti = $1', [
      decodeJwt(phoneSession.refresh).jti,
    ]);
    expect(row?.revoked_at).not.toBeNull();

    const refused = await to(t, api.refresh).send({ refresh: phoneSession.refresh });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('token_not_valid');
    expect((await to(t, api.refresh).send({ refresh: laptopSession.refresh })).status).toBe(200);
  });

  test('blacklisting garbage or twice is harmless (204), a missing field is 400', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const s = await login(u.phone, u.password);
    expect((await to(t, api.logout).send({ refresh: s.refresh })).status).toBe(204);
    expect((await to(t, api.logout).send({ refresh: s.refresh })).status).toBe(204);
    expect((await to(t, api.logout).send({ refresh: 'garbage' })).status).toBe(204);
    const missing = await to(t, api.logout).send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ refresh: ['This field is required.'] });
  });
});

describe('the bearer check', () => {
  const tokens = () => new Tokens(SECRET, 900, 3600);

  test('a valid access token is accepted; a tampered, foreign, expired or refresh token is 401 token_not_valid', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const { access, refresh } = await login(u.phone, u.password);
    const me = () => to(t, api.getUser, { params: { id: u.id } });
    expect((await me().set('Authorization', `Bearer ${access}`)).status).toBe(200);

    const [h, p, s] = access.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const staffPayload = Buffer.from(JSON.stringify({ ...payload, is_staff: true })).toString('base64url');
    const tampered = `${h}.${staffPayload}.${s}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${staffPayload}.`;
    const foreign = await new Tokens('another-secret-'.padEnd(48, 'z'), 900, 3600).signAccess(
      {
        id: u.id,
        is_staff: true,
        is_active: true,
        name: 'x',
        phone: u.phone,
      },
      decodeJwt(access).sid as string,
    );
    const expired = await new Tokens(SECRET, -10, 3600).signAccess(
      {
        id: u.id,
        is_staff: false,
        is_active: true,
        name: 'x',
        phone: u.phone,
      },
      decodeJwt(access).sid as string,
    );

    for (const token of [tampered, unsigned, foreign, expired, refresh, 'garbage']) {
      const res = await me().set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Your session has expired, please sign in again!', code: 'token_not_valid' });
    }
  });

  test('a correctly signed token for an inactive user is refused with account_not_active', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const token = await tokens().signAccess({ id: u.id, is_staff: false, is_active: false, name: 'x', phone: u.phone }, randomUUID());
    const res = await to(t, api.getUser, { params: { id: u.id } }).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'User is not active, please verify OTP', code: 'account_not_active' });
  });

  test('an invalid token is refused even on public endpoints (the client must log in again)', async () => {
    const res = await to(t, api.publishedLotteries).set('Authorization', 'Bearer garbage');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_not_valid');
    expect((await to(t, api.publishedLotteries)).status).toBe(200);
  });
});
