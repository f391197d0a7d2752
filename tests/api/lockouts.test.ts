/**
 * Nobody can lock a player out (docs/rules/limits.md#1-rate-limits, docs/decisions/025-limits-for-shared-addresses.md):
 * a stranger's wrong secrets never keep a ticket's owner from activating it; a botnet's failed logins against one
 * account grow a delay for that account, which a device that logged in before does not wait for (API clients with
 * `X-Device-Id`, browsers with their own id through the login page). On PGlite and PostgreSQL.
 *
 * Addresses vary through X-Forwarded-For: the app trusts it from loopback (`trust proxy`).
 */
import request from 'supertest';
import { ACCOUNT_DELAY, delayAfter, FAILURE_STEPS, LIMITS } from '../../server/http/rate-limit.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, sessionSetCookie } from '../helpers/session.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';
import { uniquePhone } from '../helpers/factories.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let staff: Player;
beforeAll(async () => {
  t = await startTestApp();
  staff = await account(t, { name: 'Ticket Officer', is_staff: true });
});
afterAll(async () => {
  await t.close();
});

let ipSeq = 0;
/** A client address no other request of this file uses (TEST-NET-2). */
const newIp = () => `198.51.100.${++ipSeq}`;
const newPhone = uniquePhone;

const INVALID = { detail: 'Invalid ticket number or secret number', code: 'activation_invalid' };

describe('activation: a stranger cannot keep the owner out', () => {
  const activate = (p: Player, ip: string, body: { ticket_number: string; secret_number: string }) =>
    to(t, api.activateTicket, { as: p }).set('X-Forwarded-For', ip).send(body);
  const generated = async (quantity: number) => {
    const lottery = await insertLottery(t);
    const res = await to(t, api.generateTickets, { as: staff }).send({ lottery_id: lottery, quantity });
    expect(res.status).toBe(201);
    return res.body as { ticket_number: string; secret_number: string }[];
  };
  const wrong = (s: string, i: number) => `${s.slice(0, 12)}${String((Number(s.slice(12)) + 1 + i) % 10_000).padStart(4, '0')}`;

  test.each([
    ['the same address', true],
    ['another address', false],
  ])('after more wrong secrets than a player may send, from %s, the owner activates with the right one', async (_, shared) => {
    const [g, h] = await generated(2);
    const stranger = await account(t);
    const owner = await account(t);
    const strangerIp = newIp();
    const tries = FAILURE_STEPS[0].max;
    for (let i = 0; i < tries; i++) {
      const res = await activate(stranger, strangerIp, { ticket_number: g!.ticket_number, secret_number: wrong(g!.secret_number, i) });
      expect([res.status, res.body]).toEqual([400, INVALID]);
    }
    // The stranger is still limited: from his address and from any other, whatever he sends, the right pair too.
    for (const [ip, pair] of [
      [strangerIp, { ticket_number: g!.ticket_number, secret_number: wrong(g!.secret_number, tries) }],
      [newIp(), { ticket_number: g!.ticket_number, secret_number: wrong(g!.secret_number, tries + 1) }],
      [newIp(), { ticket_number: h!.ticket_number, secret_number: h!.secret_number }],
    ] as const) {
      const res = await activate(stranger, ip, pair);
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('throttled');
    }
    const mine = await activate(owner, shared ? strangerIp : newIp(), { ticket_number: g!.ticket_number, secret_number: g!.secret_number });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: 'success', ticket: g!.ticket_number });
    const row = await t.db.one<{ activated_by: number }>('SELECT activated_by FROM generated_tickets WHERE ticket_number = $1', [
      g!.ticket_number,
    ]);
    expect(row?.activated_by).toBe(owner.id);
  });
});

describe('login: a botnet against one account', () => {
  const login = (ip: string, { phone, password }: { phone: string; password: string }, deviceId?: string) => {
    const r = to(t, api.login).set('X-Forwarded-For', ip);
    return (deviceId ? r.set('X-Device-Id', deviceId) : r).send({ phone, password });
  };
  /** Failures counted for the account from anywhere, as if `n` had been counted, the last one just now. */
  const setFailures = (phone: string, n: number) =>
    t.db.query(`UPDATE rate_limits SET hits = $2 WHERE key = $1`, [`login:account:${phone}:n`, n]);

  test('the delay grows with failures from many addresses; the owner logs in from a device that logged in before', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const first = await login(newIp(), u);
    expect(first.status).toBe(200);
    const device = first.headers['x-device-id'] as string;
    expect(device).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Only the hash is kept.
    const stored = await t.db.query<{ device_hash: string }>('SELECT device_hash FROM known_devices WHERE user_id = $1', [u.id]);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.device_hash).not.toContain(device);

    // The free failures, each from another address: no address reaches a limit of its own.
    const bad = { phone: u.phone, password: 'wrong-pass-1' };
    for (let i = 0; i < ACCOUNT_DELAY.free; i++) expect((await login(newIp(), bad)).status).toBe(401);
    const held = await login(newIp(), bad);
    expect(held.status).toBe(429);
    expect(held.body.code).toBe('throttled');
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(delayAfter(ACCOUNT_DELAY.free));
    // The right password from a device never seen (or an id it made up) waits as well: it could be the botnet.
    expect((await login(newIp(), u)).status).toBe(429);
    expect((await login(newIp(), u, 'made-up-device-id-0000000')).status).toBe(429);
    // The owner's device logs in, from any address.
    const own = await login(newIp(), u, device);
    expect(own.status).toBe(200);
    expect(own.headers['x-device-id']).toBe(device);

    // More failures, longer waits, up to the cap.
    await setFailures(u.phone, ACCOUNT_DELAY.free + 5);
    const longer = Number((await login(newIp(), bad)).headers['retry-after']);
    expect(longer).toBeGreaterThan(delayAfter(ACCOUNT_DELAY.free + 4));
    expect(longer).toBeLessThanOrEqual(delayAfter(ACCOUNT_DELAY.free + 5));
    await setFailures(u.phone, 200);
    const capped = Number((await login(newIp(), u)).headers['retry-after']);
    expect(capped).toBeGreaterThan(ACCOUNT_DELAY.capSec - 60);
    expect(capped).toBeLessThanOrEqual(ACCOUNT_DELAY.capSec);
    expect((await login(newIp(), u, device)).status).toBe(200);
  });

  test('once a wait is over, of attempts sent at the same moment only one is tried', async () => {
    const u = await createUser(t, { phone: newPhone() });
    for (let i = 0; i < ACCOUNT_DELAY.free + 1; i++) await login(newIp(), { phone: u.phone, password: 'wrong-pass-1' });
    await t.db.query(`UPDATE rate_limits SET window_start = window_start - interval '1 hour' WHERE key = $1`, [
      `login:account:${u.phone}:last`,
    ]);
    const answers = await Promise.all(Array.from({ length: 5 }, () => login(newIp(), { phone: u.phone, password: 'wrong-pass-1' })));
    expect(answers.map((r) => r.status).sort()).toEqual([401, 429, 429, 429, 429]);
  });

  test('a known device is held back by its own failures (a stolen device id cannot guess the password)', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const device = (await login(newIp(), u)).headers['x-device-id'] as string;
    for (let i = 0; i < FAILURE_STEPS[0].max; i++)
      expect((await login(newIp(), { phone: u.phone, password: 'wrong-pass-1' }, device)).status).toBe(401);
    const limited = await login(newIp(), u, device);
    expect(limited.status).toBe(429);
    // Another device of the owner is not held back by that one's failures (5 < the free ones of the account).
    expect((await login(newIp(), u)).status).toBe(200);
  });

  test('through the login page: the browser that logged in before logs in again while the account is held back; another browser waits', async () => {
    const u = await createUser(t, { phone: newPhone() });
    const agent = await loginAs(t.url, u.phone, u.password);
    const csrf = csrfFrom((await agent.get('/profile').expect(200)).text);
    expect((await agent.post('/logout').type('form').send({ _csrf: csrf })).status).toBe(303);

    for (let i = 0; i < ACCOUNT_DELAY.free; i++) await login(newIp(), { phone: u.phone, password: 'wrong-pass-1' });
    await setFailures(u.phone, ACCOUNT_DELAY.free + 8);
    await expect(loginAs(t.url, u.phone, u.password)).rejects.toThrow(/login as .* failed/);
    await loginAs(agent, u.phone, u.password);
    expect((await agent.get('/profile').expect(200)).text).toContain('Test Player');
  });
});

describe('login: a carrier address with many failures slows new devices down behind a question, never refuses them', () => {
  /** Bangladesh's carriers put thousands of players behind one address (carrier-grade NAT, 100.64.0.0/10). */
  const CARRIER = '100.64.1.1';
  type Sent = { phone: string; password: string; challenge_token?: string; challenge_answer?: string };
  const login = (ip: string, { phone, password, challenge_token, challenge_answer }: Sent, o: { deviceId?: string; lng?: string } = {}) => {
    let r = to(t, api.login, { lang: o.lng }).set('X-Forwarded-For', ip);
    if (o.deviceId) r = r.set('X-Device-Id', o.deviceId);
    return r.send({ phone, password, challenge_token, challenge_answer });
  };
  /** The English question's answer, with its token. */
  const solve = (res: request.Response, plus = 0) => {
    const m = /^What is (\d+) plus (\d+)\?$/.exec(String(res.body.challenge?.question));
    if (!m) throw new Error(`no question: ${res.status} ${res.text.slice(0, 200)}`);
    return { challenge_token: res.body.challenge.token as string, challenge_answer: String(Number(m[1]) + Number(m[2]) + plus) };
  };
  const challenged = (res: request.Response, code: string) => {
    expect([res.status, res.body.code]).toEqual([428, code]);
    expect(res.body.access).toBeUndefined();
    expect(res.headers['retry-after']).toBeUndefined();
  };
  const accountFailures = async (phone: string) =>
    (await t.db.one<{ hits: number }>('SELECT hits FROM rate_limits WHERE key = $1', [`login:account:${phone}:n`]))?.hits ?? 0;

  let u: Awaited<ReturnType<typeof createUser>>;
  let ownDevice: string;
  beforeAll(async () => {
    u = await createUser(t, { phone: newPhone() });
    // The player's phone logged in before, from elsewhere.
    const first = await login(newIp(), u);
    expect(first.status).toBe(200);
    ownDevice = first.headers['x-device-id'] as string;
    // 100 strangers behind the carrier's address, each failing once at an account of his own.
    for (let i = 0; i < LIMITS.loginFailuresPerIp.max; i++) {
      const res = await login(CARRIER, { phone: newPhone(), password: 'wrong-pass-1' });
      if (res.status !== 401) throw new Error(`failure ${i + 1}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  }, 120_000);

  test('a new device is asked the question, in its language, not refused; with the right answer and password it logs in at once', async () => {
    const asked = await login(CARRIER, u);
    challenged(asked, 'challenge_required');
    expect(asked.body.detail).toBe('Many failed attempts have come from your network lately. To go on, please answer the question.');
    expect(typeof asked.body.challenge.token).toBe('string');
    const bn = await login(CARRIER, u, { lng: 'bn' });
    challenged(bn, 'challenge_required');
    expect(bn.body.challenge.question).toMatch(/^[০-৯]{2} যোগ [০-৯] সমান কত\?$/);
    expect(bn.body.detail).toContain('প্রশ্নটির উত্তর দিন');
    // Asking counted nothing against the account.
    expect(await accountFailures(u.phone)).toBe(0);

    const ok = await login(CARRIER, { ...u, ...solve(asked) });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.access).toBe('string');
    // Now a device the account knows: straight through.
    expect((await login(CARRIER, u, { deviceId: ok.headers['x-device-id'] as string })).status).toBe(200);
  });

  test('the answer in Bengali digits is read as typed', async () => {
    const asked = await login(CARRIER, u, { lng: 'bn' });
    const [a, b] = (/^([০-৯]+) যোগ ([০-৯]+)/.exec(asked.body.challenge.question) ?? [])
      .slice(1)
      .map((d) => Number(d.replace(/[০-৯]/g, (c) => String('০১২৩৪৫৬৭৮৯'.indexOf(c)))));
    const bnDigits = String(a! + b!).replace(/\d/g, (d) => '০১২৩৪৫৬৭৮৯'[Number(d)]!);
    expect((await login(CARRIER, { ...u, challenge_token: asked.body.challenge.token, challenge_answer: bnDigits })).status).toBe(200);
  });

  test('a wrong answer is refused with a new question, and the password is not tried; the token then is spent', async () => {
    const asked = await login(CARRIER, u);
    const wrong = await login(CARRIER, { ...u, ...solve(asked, 1) });
    challenged(wrong, 'challenge_wrong');
    expect(wrong.body.detail).toBe('That answer is not right. Please answer the new question.');
    expect(wrong.body.challenge.token).not.toBe(asked.body.challenge.token);
    // Wrong answers with a wrong password count no failure: the password was never checked.
    const before = await accountFailures(u.phone);
    challenged(await login(CARRIER, { ...u, password: 'wrong-pass-1', ...solve(wrong, 2) }), 'challenge_wrong');
    expect(await accountFailures(u.phone)).toBe(before);
    // The first question, answered right after a wrong answer, is spent.
    challenged(await login(CARRIER, { ...u, ...solve(asked) }), 'challenge_expired');
    // A token made up, or one without an answer.
    challenged(await login(CARRIER, { ...u, challenge_token: 'a.b.c.d', challenge_answer: '20' }), 'challenge_expired');
    challenged(await login(CARRIER, { ...u, challenge_token: asked.body.challenge.token as string }), 'challenge_required');
  });

  test('a token used once is refused the second time; of 20 sent at once with the right answer, exactly one logs in', async () => {
    const asked = await login(CARRIER, u);
    const answer = solve(asked);
    expect((await login(CARRIER, { ...u, ...answer })).status).toBe(200);
    const again = await login(CARRIER, { ...u, ...answer });
    challenged(again, 'challenge_expired');
    expect(again.body.detail).toBe('That question has expired or was already answered. Please answer the new one.');

    const race = solve(await login(CARRIER, u));
    const answers = await Promise.all(Array.from({ length: 20 }, () => login(CARRIER, { ...u, ...race })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) challenged(r, 'challenge_expired');
  }, 60_000);

  test('a device that logged in to the account before goes straight through, from the carrier address', async () => {
    const res = await login(CARRIER, u, { deviceId: ownDevice });
    expect(res.status).toBe(200);
    expect(res.headers['x-device-id']).toBe(ownDevice);
  });

  test('the account is still limited: after 5 wrong passwords (each with the right answer), 429 even with the right password and answer', async () => {
    const v = await createUser(t, { phone: newPhone() });
    for (let i = 0; i < FAILURE_STEPS[0].max; i++) {
      const res = await login(CARRIER, { phone: v.phone, password: 'wrong-pass-1', ...solve(await login(CARRIER, v)) });
      expect([res.status, res.body.code]).toEqual([401, 'no_active_account']);
    }
    const held = await login(CARRIER, v);
    expect([held.status, held.body.code]).toEqual([429, 'throttled']);
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    // Counted for this account from this address: from another address the owner logs in.
    expect((await login(newIp(), v)).status).toBe(200);
  });

  test('a device is still limited: after 5 failures at any accounts, from any addresses, 429 even for the right password', async () => {
    const device = 'a-new-phone-of-a-guesser-0001';
    for (let i = 0; i < FAILURE_STEPS[0].max; i++)
      expect((await login(newIp(), { phone: newPhone(), password: 'wrong-pass-1' }, { deviceId: device })).status).toBe(401);
    const w = await createUser(t, { phone: newPhone() });
    const held = await login(newIp(), w, { deviceId: device });
    expect([held.status, held.body.code]).toEqual([429, 'throttled']);
    expect(held.body.wait).toBeGreaterThan(0);
    expect((await login(newIp(), w, { deviceId: 'another-phone-of-a-player-01' })).status).toBe(200);
  });

  test('the login page without JavaScript: the question in the form, in English and Bengali; a wrong answer asks again; the right one logs in', async () => {
    const browser = request.agent(t.url);
    const page = async (lng: string) => {
      // The language chosen (kept in its cookie), then the form.
      expect((await browser.get(`/login?lng=${lng}`).set('X-Forwarded-For', CARRIER)).status).toBe(303);
      const form = await browser.get('/login').set('X-Forwarded-For', CARRIER).expect(200);
      expect(form.text).not.toContain('name="challenge_answer"');
      return csrfFrom(form.text);
    };
    const post = (fields: Record<string, string>) =>
      browser
        .post('/login')
        .set('X-Forwarded-For', CARRIER)
        .type('form')
        .send({ phone: u.phone, password: u.password, ...fields });
    const questionIn = (html: string) => ({
      label: /<label for="[^"]+">([^<]+)<\/label><div class="field__control"><input [^>]*name="challenge_answer"/.exec(html)?.[1],
      token: /<input type="hidden" name="challenge_token" value="([^"]+)"/.exec(html)?.[1],
    });

    const bn = await post({ _csrf: await page('bn') });
    expect(bn.status).toBe(400);
    const asked = questionIn(bn.text);
    expect(asked.label).toMatch(/^[০-৯]{2} যোগ [০-৯] সমান কত\?$/);
    expect(asked.token).toBeDefined();
    expect(bn.text).toContain('প্রশ্নটির উত্তর দিন');
    expect(bn.text).toContain('উত্তরটি অঙ্কে লিখুন');
    // The phone is kept in the form; the password is typed again.
    expect(bn.text).toContain(`value="${u.phone}"`);

    const en = await post({ _csrf: await page('en') });
    const q = questionIn(en.text);
    const [, a, b] = /^What is (\d+) plus (\d+)\?$/.exec(q.label ?? '') ?? [];
    expect(a).toBeDefined();
    const wrong = await post({
      _csrf: csrfFrom(en.text),
      challenge_token: q.token!,
      challenge_answer: String(Number(a) + Number(b) + 1),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That answer is not right. Please answer the new question.');
    const next = questionIn(wrong.text);
    expect(next.token).toBeDefined();
    expect(next.token).not.toBe(q.token);
    // The spent question's answer is not shown back in the form.
    expect(wrong.text).not.toContain(`value="${Number(a) + Number(b) + 1}"`);

    const [, c, d] = /^What is (\d+) plus (\d+)\?$/.exec(next.label ?? '') ?? [];
    const ok = await post({
      _csrf: csrfFrom(wrong.text),
      challenge_token: next.token!,
      challenge_answer: String(Number(c) + Number(d)),
    });
    expect(ok.status).toBe(303);
    expect(sessionSetCookie(ok)).toBeDefined();
    // The browser is now known to the account: behind the carrier's address it logs in without a question.
    const csrf = csrfFrom((await browser.get('/profile').expect(200)).text);
    expect((await browser.post('/logout').type('form').send({ _csrf: csrf })).status).toBe(303);
    expect((await post({ _csrf: await page('en') })).status).toBe(303);
  });

  test("code entry pages without JavaScript: past the address's failed code checks, the question in the form; answered, the reset goes through", async () => {
    // As if the carrier's players had mistyped this many codes lately.
    await t.db.query(
      `INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), $2) ON CONFLICT (key) DO UPDATE SET window_start = now(), hits = $2`,
      [`code:fail:ip:${CARRIER}:0`, LIMITS.codeCheckFailuresPerIp.max],
    );
    const v = await createUser(t, { phone: newPhone() });
    expect((await to(t, api.forgotPassword).send({ identifier: v.phone })).status).toBe(200);
    const code = await t.lastCode(v.phone, 'reset');
    const browser = request.agent(t.url);
    const questionIn = (html: string) => ({
      label: /<label for="[^"]+">([^<]+)<\/label><div class="field__control"><input [^>]*name="challenge_answer"/.exec(html)?.[1],
      token: /<input type="hidden" name="challenge_token" value="([^"]+)"/.exec(html)?.[1],
    });
    const path = `/reset-password?identifier=${v.phone}`;
    const form = await browser.get(path).set('X-Forwarded-For', CARRIER).expect(200);
    expect(form.text).not.toContain('name="challenge_answer"');
    const post = (fields: Record<string, string>) =>
      browser
        .post(path)
        .set('X-Forwarded-For', CARRIER)
        .type('form')
        .send({
          identifier: v.phone,
          otp: code,
          new_password: 'new-pass-456',
          confirm_password: 'new-pass-456',
          intent: 'reset',
          ...fields,
        });
    const asked = await post({ _csrf: csrfFrom(form.text) });
    expect(asked.status).toBe(400);
    expect(asked.text).toContain('Many failed attempts have come from your network lately.');
    const q = questionIn(asked.text);
    const [, a, b] = /^What is (\d+) plus (\d+)\?$/.exec(q.label ?? '') ?? [];
    expect(a).toBeDefined();
    const done = await post({ _csrf: csrfFrom(asked.text), challenge_token: q.token!, challenge_answer: String(Number(a) + Number(b)) });
    expect(done.status).toBe(303);
    expect(done.headers.location).toContain('notice=reset');

    // The verification page asks it too, in Bengali.
    const bn = request.agent(t.url);
    expect((await bn.get(`/verify-otp?identifier=${newPhone()}&lng=bn`).set('X-Forwarded-For', CARRIER)).status).toBe(303);
    const verifyPage = await bn.get(`/verify-otp?identifier=01411999999`).set('X-Forwarded-For', CARRIER).expect(200);
    const verify = await bn
      .post('/verify-otp?identifier=01411999999')
      .set('X-Forwarded-For', CARRIER)
      .type('form')
      .send({ identifier: '01411999999', otp: '123456', intent: 'verify', _csrf: csrfFrom(verifyPage.text) });
    expect(verify.status).toBe(400);
    expect(questionIn(verify.text).label).toMatch(/^[০-৯]{2} যোগ [০-৯] সমান কত\?$/);
  });

  test('the hydrated login (/bff/session) gets the question as the API answers it, and logs in with its answer', async () => {
    const agent = request.agent(t.url);
    const { csrf } = (await agent.get('/bff/session').set('X-Forwarded-For', CARRIER)).body as { csrf: string };
    const send = (body: object) =>
      agent.post('/bff/session').set('X-Forwarded-For', CARRIER).set('x-csrf-token', csrf).set('Sec-Fetch-Site', 'same-origin').send(body);
    const asked = await send({ phone: u.phone, password: u.password });
    challenged(asked, 'challenge_required');
    const ok = await send({ phone: u.phone, password: u.password, ...solve(asked) });
    expect(ok.status).toBe(200);
    expect(ok.body.user.user_id).toBe(u.id);
  });

  test('another address with no failures asks nothing', async () => {
    expect((await login(newIp(), u)).status).toBe(200);
  });
});

describe('sign-up and resend', () => {
  test('resend-otp right after a sign-up answers exactly as for a phone without an account', async () => {
    const phone = newPhone();
    const ip = newIp();
    expect(
      (
        await to(t, api.signup)
          .set('X-Forwarded-For', ip)
          .send({ date_of_birth: '1990-01-01', name: 'New Player', phone, password: 'pass-word-123' })
      ).status,
    ).toBe(201);
    const resend = (identifier: string) => to(t, api.resendAccountCode).set('X-Forwarded-For', ip).send({ identifier });
    const [signedUp, unknown] = [await resend(phone), await resend(newPhone())];
    expect(signedUp.status).toBe(200);
    expect({ status: signedUp.status, body: signedUp.body, retry: signedUp.headers['retry-after'] }).toEqual({
      status: unknown.status,
      body: unknown.body,
      retry: unknown.headers['retry-after'],
    });
  });
});
