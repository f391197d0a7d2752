/**
 * Every rate limit of server/http/rate-limit.ts (LIMITS) reached by real requests: the request that passes the
 * limit is 429 with Retry-After and a clear message, the one just before it was not limited, and the window is
 * the one it claims to be (per address, or per identifier).
 *
 * Already covered elsewhere, and not repeated here: login per identifier (tokens.test.ts) and code verification
 * per identifier through verify-otp (accounts.test.ts).
 *
 * Each test sends from a client address of its own: the app trusts X-Forwarded-For from loopback (`trust proxy`),
 * so tests do not share a per-address window.
 *
 * Many players share one address (carrier-grade NAT, docs/rules/limits.md#1-rate-limits): per address only failures
 * are limited (failed logins and code checks only ask a question), and everything else only by a flood ceiling; a ceiling of thousands is reached by filling its window
 * in the database (`fill`), not by thousands of requests. Lock-outs (activation, a botnet against one account) are in
 * lockouts.test.ts.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loadResources } from '../../server/i18n.ts';
import { FAILURE_STEPS, LIMITS, type Limit } from '../../server/http/rate-limit.ts';
import { CODE_RULES, MAX_CODE_ATTEMPTS } from '../../shared/one-time-codes.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import type { Endpoint } from '../../shared/api/endpoint.ts';

type Res = request.Response;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 0;
/** A client address no other test uses (TEST-NET-3). */
const newIp = () => `203.0.113.${++ipSeq}`;
/** A phone number no other test of this file uses (and no account has, unless a test creates one). */
const newPhone = uniquePhone;
/** A request to endpoint `e` from the client address `ip`. */
const from = (ip: string, e: Endpoint) => to(t, e).set('X-Forwarded-For', ip);

/** Fills a fixed window (server/http/rate-limit.ts `hit`) as if `hits` requests had been counted in it just now. */
const fill = (key: string, hits: number) =>
  t.db.query(
    `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), $2)
     ON CONFLICT (key) DO UPDATE SET window_start = now(), hits = $2`,
    [key, hits],
  );

const TOO_MANY = (loadResources() as Record<'en', { api: { tooManyRequests: string } }>).en.api.tooManyRequests;
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** 429, a Retry-After within the window, and the message that tells how long to wait. */
function expectLimited(res: Res, limit: Limit) {
  expect(res.status).toBe(429);
  const retry = Number(res.headers['retry-after']);
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(limit.windowSec);
  expect(res.body).toMatchObject({ code: 'throttled', detail: TOO_MANY.replace('{{seconds}}', String(retry)) });
  return retry;
}

/**
 * Sends `limit.max` requests, each of which must get `allowed` (not limited), then one more that must be limited.
 * `send(i)` makes the i-th request.
 */
async function reachLimit(limit: Limit, allowed: number, send: (i: number) => Promise<Res>): Promise<{ lastAllowed: Res; limited: Res }> {
  expect(limit.max).toBeGreaterThan(0);
  let lastAllowed: Res | undefined;
  for (let i = 0; i < limit.max; i++) {
    lastAllowed = await send(i);
    if (lastAllowed.status !== allowed)
      throw new Error(`request ${i + 1} of ${limit.max}: ${lastAllowed.status} ${lastAllowed.text.slice(0, 200)}`);
  }
  const limited = await send(limit.max);
  expectLimited(limited, limit);
  return { lastAllowed: lastAllowed as Res, limited };
}

describe('per address: failures, and ceilings against floods', () => {
  test('sign-up: more than the old 20 an hour from one address, each a new phone; LIMITS.signupFloodPerIp stops a flood', async () => {
    const ip = newIp();
    for (let i = 0; i < 22; i++) {
      const res = await from(ip, api.signup).send({
        date_of_birth: '1990-01-01',
        name: `Player ${i}`,
        phone: newPhone(),
        password: 'pass-word-123',
      });
      if (res.status !== 201) throw new Error(`sign-up ${i + 1}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    await fill(`signup:ip:${ip}`, LIMITS.signupFloodPerIp.max);
    const phone = newPhone();
    expectLimited(
      await from(ip, api.signup).send({ date_of_birth: '1990-01-01', name: 'Flood', phone, password: 'pass-word-123' }),
      LIMITS.signupFloodPerIp,
    );
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', [phone])).toHaveLength(0);
    expect(
      (await from(newIp(), api.signup).send({ date_of_birth: '1990-01-01', name: 'Human', phone, password: 'pass-word-123' })).status,
    ).toBe(201);
  }, 120_000);

  test('sending codes (resend-otp, forgot-password, resend-password-reset-otp): more than the old 60 from one address; LIMITS.codeFloodPerIp stops a flood', async () => {
    const ip = newIp();
    const senders = [api.resendAccountCode, api.forgotPassword, api.resendResetCode];
    // A new identifier each time (the same answer with or without an account), so only the address counts.
    for (let i = 0; i < 70; i++) expect((await from(ip, senders[i % 3]!).send({ identifier: newPhone() })).status).toBe(200);
    await fill(`send:ip:${ip}`, LIMITS.codeFloodPerIp.max);
    for (const e of senders) expectLimited(await from(ip, e).send({ identifier: newPhone() }), LIMITS.codeFloodPerIp);
    expect((await from(newIp(), api.forgotPassword).send({ identifier: newPhone() })).status).toBe(200);
  }, 60_000);

  test('failed code checks (verify-otp and reset-password share one window): LIMITS.codeCheckFailuresPerIp, then a question (428), never 429', async () => {
    const ip = newIp();
    const wrongOtp = { otp: ['The code is not correct. Please check it and try again.'], code: 'otp_wrong' };
    const verify = (extra: object = {}) => from(ip, api.verifyAccount).send({ identifier: newPhone(), otp: '123456', ...extra });
    const reset = (identifier: string, otp: string, extra: object = {}) =>
      from(ip, api.resetPassword).send({ identifier, otp, new_password: 'new-pass-123', confirm_password: 'new-pass-123', ...extra });
    for (let i = 0; i < LIMITS.codeCheckFailuresPerIp.max; i++) {
      const res = i % 2 ? await reset(newPhone(), '123456') : await verify();
      if (res.status !== 400) throw new Error(`check ${i + 1}: ${res.status} ${res.text.slice(0, 200)}`);
      expect(res.body).toEqual(wrongOtp);
    }
    const asked = await verify();
    expect([asked.status, asked.body.code]).toEqual([428, 'challenge_required']);
    const answer = (res: Res) => {
      const [, a, b] = /^What is (\d+) plus (\d+)\?$/.exec(res.body.challenge.question) ?? [];
      return { challenge_token: res.body.challenge.token as string, challenge_answer: String(Number(a) + Number(b)) };
    };
    // Answered, a wrong code is still a wrong code (and counts); a wrong answer is refused before the code is checked.
    const checked = await verify(answer(asked));
    expect([checked.status, checked.body]).toEqual([400, wrongOtp]);
    const u = await createUser(t, { phone: newPhone() });
    expect((await from(newIp(), api.forgotPassword).send({ identifier: u.phone })).status).toBe(200);
    const code = await t.lastCode(u.phone, 'reset');
    const first = await reset(u.phone, code);
    expect([first.status, first.body.code]).toEqual([428, 'challenge_required']);
    const wrongAnswer = await reset(u.phone, code, {
      ...answer(first),
      challenge_answer: String(Number(answer(first).challenge_answer) + 1),
    });
    expect([wrongAnswer.status, wrongAnswer.body.code]).toEqual([428, 'challenge_wrong']);
    expect((await reset(u.phone, code, answer(wrongAnswer))).status).toBe(200);
    // Another address is asked nothing.
    const other = await from(newIp(), api.verifyAccount).send({ identifier: newPhone(), otp: '123456' });
    expect([other.status, other.body]).toEqual([400, wrongOtp]);
  }, 60_000);

  test('successful code checks count nowhere per address: more verifications from one address than its failures allow', async () => {
    const ip = newIp();
    await fill(`code:fail:ip:${ip}:0`, LIMITS.codeCheckFailuresPerIp.max - 1);
    for (let i = 0; i < 3; i++) {
      const phone = newPhone();
      expect(
        (await from(newIp(), api.signup).send({ date_of_birth: '1990-01-01', name: 'Player', phone, password: 'pass-word-123' })).status,
      ).toBe(201);
      const ok = await from(ip, api.verifyAccount).send({ identifier: phone, otp: await t.lastCode(phone, 'account') });
      expect(ok.status).toBe(200);
    }
  }, 60_000);

  test('successful logins of different accounts from one address: more than the old 50 in 15 minutes, all 200', async () => {
    const ip = newIp();
    const users = [];
    for (let i = 0; i < 60; i++) users.push(await createUser(t, { phone: newPhone() }));
    for (const [i, u] of users.entries()) {
      const res = await from(ip, api.login).send({ phone: u.phone, password: u.password });
      if (res.status !== 200) throw new Error(`login ${i + 1}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  }, 240_000);

  test('failed logins: LIMITS.loginFailuresPerIp from one address, then a question (428) even with the right password, never 429; answered, 200', async () => {
    const ip = newIp();
    const u = await createUser(t, { phone: newPhone() });
    // Wrong passwords for different (unknown) identifiers: only the address's failures fill; the last ones for real.
    await fill(`login:fail:ip:${ip}:0`, LIMITS.loginFailuresPerIp.max - 3);
    for (let i = 0; i < 3; i++) expect((await from(ip, api.login).send({ phone: newPhone(), password: 'wrong-pass-1' })).status).toBe(401);
    const right = await from(ip, api.login).send({ phone: u.phone, password: u.password });
    expect([right.status, right.body.code]).toEqual([428, 'challenge_required']);
    expect(right.body.access).toBeUndefined();
    // Many more failures from the address still never refuse: the question is asked, never a wait.
    await fill(`login:fail:ip:${ip}:0`, LIMITS.loginFailuresPerIp.max * 50);
    const again = await from(ip, api.login).send({ phone: u.phone, password: u.password });
    expect([again.status, again.body.code]).toEqual([428, 'challenge_required']);
    const [, a, b] = /^What is (\d+) plus (\d+)\?$/.exec(again.body.challenge.question) ?? [];
    const answered = await from(ip, api.login).send({
      phone: u.phone,
      password: u.password,
      challenge_token: again.body.challenge.token,
      challenge_answer: String(Number(a) + Number(b)),
    });
    expect(answered.status).toBe(200);
    expect((await from(newIp(), api.login).send({ phone: u.phone, password: u.password })).status).toBe(200);
  }, 60_000);

  test('every login attempt from one address: LIMITS.loginFloodPerIp stops a flood, another address logs in', async () => {
    const ip = newIp();
    const u = await createUser(t, { phone: newPhone() });
    await fill(`login:ip:${ip}`, LIMITS.loginFloodPerIp.max);
    expectLimited(await from(ip, api.login).send({ phone: u.phone, password: u.password }), LIMITS.loginFloodPerIp);
    expect((await from(newIp(), api.login).send({ phone: u.phone, password: u.password })).status).toBe(200);
  });

  test('contact: LIMITS.contactPerIp messages, then 429; the limited one is not stored; another address may write', async () => {
    const ip = newIp();
    const count = async () => Number((await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM contact_messages'))?.n);
    await reachLimit(LIMITS.contactPerIp, 201, (i) => from(ip, api.contact).send({ name: 'A', email: 'a@b.co', message: `m${i}` }));
    const stored = await count();
    expectLimited(await from(ip, api.contact).send({ name: 'A', email: 'a@b.co', message: 'one more' }), LIMITS.contactPerIp);
    expect(await count()).toBe(stored);
    expect((await from(newIp(), api.contact).send({ name: 'B', email: 'b@b.co', message: 'hello' })).status).toBe(201);
  });

  test('upload by a player: LIMITS.uploadPerUser pictures, then 429; the limited one is not stored; another player on the same address uploads', async () => {
    const ip = newIp();
    const count = async () => Number((await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))?.n);
    const tokenOf = async () => {
      const u = await createUser(t, { phone: newPhone() });
      return (await from(newIp(), api.login).send({ phone: u.phone, password: u.password })).body.access as string;
    };
    const [a, b] = [await tokenOf(), await tokenOf()];
    const upload = (token: string) =>
      from(ip, api.uploadImage).set('Authorization', `Bearer ${token}`).set('Content-Type', 'image/png').send(PNG);
    await reachLimit(LIMITS.uploadPerUser, 201, () => upload(a));
    const stored = await count();
    expectLimited(await upload(a), LIMITS.uploadPerUser);
    expect(await count()).toBe(stored);
    expect((await upload(b)).status).toBe(201);
  }, 60_000);

  test('upload without a login (the sign-up picture): more than the old 30 from one address; LIMITS.anonymousUploadPerIp stops a flood', async () => {
    const ip = newIp();
    const upload = (address: string) => from(address, api.uploadImage).set('Content-Type', 'image/png').send(PNG);
    for (let i = 0; i < 32; i++) expect((await upload(ip)).status).toBe(201);
    await fill(`upload:ip:${ip}`, LIMITS.anonymousUploadPerIp.max);
    expectLimited(await upload(ip), LIMITS.anonymousUploadPerIp);
    expect((await upload(newIp())).status).toBe(201);
  }, 60_000);
});

describe('per identifier', () => {
  test('sending codes: LIMITS.codePerIdentifier for one identifier in any spelling, then 429 on every sending endpoint, from any address', async () => {
    const phone = newPhone();
    // Each request from another address; the resend waits (per identifier) are moved out of the way each time, so
    // only this window fills: it protects a phone from being flooded with codes.
    const clearWaits = () => t.db.query(`DELETE FROM rate_limits WHERE key LIKE '%-wait:%'`);
    const { lastAllowed } = await reachLimit(LIMITS.codePerIdentifier, 200, async (i) => {
      await clearWaits();
      return from(newIp(), api.resendAccountCode).send({ identifier: i % 2 ? `+88${phone}` : phone });
    });
    expect(lastAllowed.body).toMatchObject({ wait: CODE_RULES.account.resendAfterSec });
    await clearWaits();
    // The window is the identifier's, not the address's, and the reset endpoints share it.
    for (const e of [api.forgotPassword, api.resendResetCode, api.resendAccountCode]) {
      expectLimited(await from(newIp(), e).send({ identifier: phone }), LIMITS.codePerIdentifier);
    }
    // Another identifier from the same address is not limited by it.
    expect((await from(newIp(), api.forgotPassword).send({ identifier: newPhone() })).status).toBe(200);
  });

  test('wrong reset codes: FAILURE_STEPS[0].max from one address, then that address waits even with the right code; the owner elsewhere is not locked out', async () => {
    const u = await createUser(t, { phone: newPhone() });
    expect((await from(newIp(), api.forgotPassword).send({ identifier: u.phone })).status).toBe(200);
    const code = await t.lastCode(u.phone, 'reset');
    const wrong = String((Number(code[0]) + 1) % 10) + code.slice(1);
    const body = (otp: string) => ({ identifier: u.phone, otp, new_password: 'new-pass-123', confirm_password: 'new-pass-123' });
    const stranger = newIp();
    // Fewer wrong tries than a code allows: the code stays good, only the stranger's address waits.
    const [step] = FAILURE_STEPS;
    const tries = Math.min(step.max, MAX_CODE_ATTEMPTS - 1);
    for (let i = 0; i < tries; i++) expect((await from(stranger, api.resetPassword).send(body(wrong))).status).toBe(400);
    if (tries < step.max)
      await t.db.query(`UPDATE rate_limits SET hits = $2 WHERE key = $1`, [`code:fail:${stranger}:${u.phone}:0`, step.max]);
    expectLimited(await from(stranger, api.resetPassword).send(body(code)), step);
    // The owner, from his own address, resets with the same code.
    expect((await from(newIp(), api.resetPassword).send(body(code))).status).toBe(200);
  });
});
