/**
 * Rights are read from the database, not from a token that may be older (docs/rules/security.md): a deactivated
 * or deleted user, or staff who lost the right, loses it on the next request (reads too) and the next staff page.
 */
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to, type Caller } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A real 1×1 PNG (uploads are decoded and re-encoded: the bytes must be a picture). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Logs in through the API: the caller with his access token. */
async function tokenOf(u: { phone: string; password: string }): Promise<NonNullable<Caller>> {
  const r = await to(t, api.login).send({ phone: u.phone, password: u.password }).expect(200);
  return { auth: ['Authorization', `Bearer ${r.body.access as string}`] };
}
const contact = (token: Caller) => to(t, api.contact, { as: token }).send({ name: 'A', email: 'a@b.co', message: 'hello' });

describe('a deactivated player', () => {
  test('is refused on the next unsafe request, though his token has not expired', async () => {
    const u = await createUser(t);
    const token = await tokenOf(u);
    expect((await contact(token)).status).toBe(201);
    await t.db.query('UPDATE users SET is_active = false WHERE id = $1', [u.id]);
    const r = await contact(token);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('account_disabled');
    const up = await to(t, api.uploadImage, { as: token }).type('image/png').send(PNG);
    expect(up.status).toBe(401);
    expect((await to(t, api.me, { as: token })).status).toBe(401);
  });
});

describe('a deleted user', () => {
  test('his token gets 401 on every request, reads too (a stored row would point at nobody), never a 500', async () => {
    const u = await createUser(t);
    const token = await tokenOf(u);
    await t.db.query('DELETE FROM refresh_tokens WHERE user_id = $1', [u.id]);
    await t.db.query('DELETE FROM users WHERE id = $1', [u.id]);
    for (const r of [
      await contact(token),
      await to(t, api.uploadImage, { as: token }).type('image/png').send(PNG),
      await to(t, api.me, { as: token }),
    ]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('token_not_valid');
    }
    // His session is gone with him (docs/rules/accounts-and-codes.md#10-sessions): a read is refused as well.
    const read = await to(t, api.getUser, { params: { id: u.id }, as: token });
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('token_not_valid');
  });
});

describe('staff who lost the right', () => {
  test('no longer opens the back office, though the session cookie still says staff', async () => {
    const s = await createUser(t, { is_staff: true });
    const agent = await loginAs(t.url, s.phone, s.password);
    expect((await agent.get('/admin/create-lottery').set('Cookie', 'lang=en')).status).toBe(200);
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [s.id]);
    const r = await agent.get('/admin/create-lottery');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/login?from=%2Fadmin%2Fcreate-lottery');
  });

  test('no longer reads an unpublished lottery with his old token', async () => {
    const s = await createUser(t, { is_staff: true });
    const token = await tokenOf(s);
    const l = await t.db.one<{ id: number }>(
      `INSERT INTO lotteries (name, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published)
       VALUES ('Draft', now(), now() + interval '7 days', 100, 10, 1, 1000, false) RETURNING id`,
    );
    const get = () => to(t, api.getLottery, { params: { id: l?.id }, as: token });
    expect((await get()).status).toBe(200);
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [s.id]);
    expect((await get()).status).toBe(404);
  });

  test('GET /api/v1/me/ tells the rights and name of now', async () => {
    const s = await createUser(t, { is_staff: true, name: 'Old Name' });
    const token = await tokenOf(s);
    await t.db.query(`UPDATE users SET is_staff = false, name = 'New Name' WHERE id = $1`, [s.id]);
    const r = await to(t, api.me, { as: token }).expect(200);
    expect(r.body).toEqual({ user_id: s.id, name: 'New Name', phone: s.phone, is_staff: false });
  });
});
