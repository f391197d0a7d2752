/**
 * Nobody can lock a player out (docs/rules/limits.md#1-rate-limits, docs/decisions/025-limits-for-shared-addresses.md):
 * a stranger's wrong secrets never keep a ticket's owner from activating it; a botnet's failed logins against one
 * account grow a delay for that account, which a device that logged in before does not wait for (API clients with
 * `X-Device-Id`, browsers with their own id through the login page). On PGlite and PostgreSQL.
 *
 * Addresses vary through X-Forwarded-For: the app trusts it from loopback (`trust proxy`).
 */
import request from 'supertest';
import { ACCOUNT_DELAY, delayAfter, FAILURE_STEPS } from '../../server/http/rate-limit.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';

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
let phoneSeq = 0;
const newPhone = () => `0141${String(1_000_000 + ++phoneSeq).slice(-7)}`;

const INVALID = { detail: 'Invalid ticket number or secret number', code: 'activation_invalid' };

describe('activation: a stranger cannot keep the owner out', () => {
  const activate = (p: Player, ip: string, body: { ticket_number: string; secret_number: string }) =>
    request(t.url)
      .post('/api/v1/activate-generated-ticket/')
      .set('X-Forwarded-For', ip)
      .set(...p.auth)
      .send(body);
  const generated = async (quantity: number) => {
    const lottery = await insertLottery(t);
    const res = await request(t.url)
      .post('/api/v1/generated-tickets/')
      .set(...staff.auth)
      .send({ lottery_id: lottery, quantity });
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
    const r = request(t.url).post('/api/token/').set('X-Forwarded-For', ip);
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

describe('sign-up and resend', () => {
  test('resend-otp right after a sign-up answers exactly as for a phone without an account', async () => {
    const phone = newPhone();
    const ip = newIp();
    expect(
      (
        await request(t.url)
          .post('/api/v1/signup/')
          .set('X-Forwarded-For', ip)
          .send({ name: 'New Player', phone, password: 'pass-word-123' })
      ).status,
    ).toBe(201);
    const resend = (identifier: string) => request(t.url).post('/api/v1/resend-otp/').set('X-Forwarded-For', ip).send({ identifier });
    const [signedUp, unknown] = [await resend(phone), await resend(newPhone())];
    expect(signedUp.status).toBe(200);
    expect({ status: signedUp.status, body: signedUp.body, retry: signedUp.headers['retry-after'] }).toEqual({
      status: unknown.status,
      body: unknown.body,
      retry: unknown.headers['retry-after'],
    });
  });
});
