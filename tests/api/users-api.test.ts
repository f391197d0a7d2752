/**
 * GET /api/v1/users/{id}/ (docs/rules/security.md#1-the-api-enforces-every-permission): a player reads only his own profile, staff anyone's;
 * the password hash never leaves the server.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { to } from '../helpers/call.ts';
import { account, type Account } from '../helpers/factories.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let player: Account, other: Account, staff: Account;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Player One', email: 'player.one@example.com' });
  other = await account(t, { name: 'Player Two' });
  staff = await account(t, { name: 'Staff Member', is_staff: true });
});
afterAll(async () => {
  await t.close();
});

const get = (id: number | string, who?: Account, lang?: string) => to(t, api.getUser, { params: { id }, as: who, lang });

test('without a token: 401 not_authenticated', async () => {
  const res = await get(player.id);
  expect(res.status).toBe(401);
  expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
});

test('own profile: 200 with the profile fields and no password hash', async () => {
  const res = await get(player.id, player);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    id: player.id,
    user_id: player.id,
    name: 'Player One',
    email: 'player.one@example.com',
    phone: player.phone,
    location: '',
    date_joined: expect.any(String),
    is_staff: false,
    is_active: true,
    picture_url: null,
  });
  expect(Number.isNaN(Date.parse(res.body.date_joined))).toBe(false);
  expect(res.text).not.toMatch(/password|scrypt/);
  expect(res.headers['cache-control']).toBe('no-store');
});

test("another player's profile: 403 permission_denied, in Bengali too", async () => {
  const res = await get(other.id, player);
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.', code: 'permission_denied' });
  expect(res.text).not.toContain('Player Two');
  const bn = await get(other.id, player, 'bn');
  expect(bn.status).toBe(403);
  expect(bn.body).toEqual({ detail: 'এই কাজটি করার অনুমতি আপনার নেই।', code: 'permission_denied' });
  // A staff profile is no exception.
  expect((await get(staff.id, player)).status).toBe(403);
  // Nor is an id that does not exist: a player learns nothing about other ids.
  expect((await get(999999, player)).status).toBe(403);
});

test("staff read anyone's profile; an unknown id is 404 User not found", async () => {
  const res = await get(other.id, staff);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: other.id, name: 'Player Two', phone: other.phone, is_staff: false });
  expect(res.text).not.toMatch(/password|scrypt/);
  expect((await get(staff.id, staff)).body).toMatchObject({ id: staff.id, is_staff: true });
  const missing = await get(999999, staff);
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ detail: 'User not found', code: 'not_found' });
});

test('a non-numeric or out-of-range id is 404, not a database error', async () => {
  for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999', `${player.id}abc`]) {
    const res = await get(id, staff);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  }
});

test('the profile reflects a picture once one is attached', async () => {
  const id = '6f1c7a52-5d0e-4d4a-9d0b-1a2b3c4d5e6f';
  await t.db.query(`INSERT INTO uploads (id, owner_id, kind, content_type, size) VALUES ($1, $2, 'profile', 'image/png', 10)`, [
    id,
    other.id,
  ]);
  await t.db.query('UPDATE users SET picture_id = $1 WHERE id = $2', [id, other.id]);
  const res = await get(other.id, other);
  expect(res.status).toBe(200);
  expect(res.body.picture_url).toBe(`/api/v1/uploads/${id}/`);
});
