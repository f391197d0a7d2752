/**
 * Staff managing users (docs/rules/accounts-and-codes.md#12-staff-and-superusers): GET/POST /api/v1/admin-users/,
 * GET/PATCH /api/v1/admin-users/{id}/. Who may (anonymous 401, a player 403, staff, a superuser for staff accounts),
 * every validation message, duplicates, the audit rows (never a password hash), search, filters and paging; the
 * prize money of published results. On PGlite and PostgreSQL.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

let t: TestApp;
let player: Player, staff: Player, superuser: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin', email: 'rahim@example.com' });
  staff = await account(t, { name: 'Desk Officer', is_staff: true });
  superuser = await account(t, { name: 'Head Office', is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM audit_log');
  await t.db.query('DELETE FROM rate_limits');
  await t.db.query('DELETE FROM users WHERE id NOT IN ($1, $2, $3)', [player.id, staff.id, superuser.id]);
});

const list = (p: Player | null, query: Record<string, unknown> = {}) => to(t, api.staffUsers, { as: p, query });
const one = (p: Player | null, id: number | string) => to(t, api.staffUser, { params: { id }, as: p });
const create = (p: Player | null, body: unknown) => to(t, api.createUser, { as: p }).send(body as object);
const patch = (p: Player | null, id: number | string, body: unknown) =>
  to(t, api.updateUser, { params: { id }, as: p }).send(body as object);
const audit = () =>
  t.db.query<{ actor_id: number; action: string; entity: string; entity_id: string; before: unknown; after: unknown }>(
    'SELECT actor_id, action, entity, entity_id, before, after FROM audit_log ORDER BY id',
  );
const stored = (id: number) =>
  t.db.one<{
    name: string;
    email: string | null;
    phone: string | null;
    is_active: boolean;
    is_staff: boolean;
    is_superuser: boolean;
    password_hash: string;
  }>('SELECT * FROM users WHERE id = $1', [id]);
const NEW = { name: 'Karim Mia', phone: '01712345670', password: 'new-secret-1' };

describe('who may', () => {
  test('anonymous 401, a player 403, staff 200 on every endpoint', async () => {
    for (const r of [await list(null), await create(null, NEW), await patch(null, player.id, { name: 'X' }), await one(null, player.id)]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('not_authenticated');
    }
    for (const r of [
      await list(player),
      await create(player, NEW),
      await patch(player, player.id, { name: 'X' }),
      await one(player, player.id),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('permission_denied');
    }
    expect((await list(staff)).status).toBe(200);
    expect((await one(staff, player.id)).status).toBe(200);
    expect((await stored(player.id))?.name).toBe('Rahim Uddin');
    expect(await audit()).toEqual([]);
  });

  test('staff who lost the right are refused at once, though their token has not expired', async () => {
    const s = await account(t, { name: 'Former Staff', is_staff: true });
    await t.db.query('UPDATE users SET is_staff = false WHERE id = $1', [s.id]);
    expect((await list(s)).status).toBe(403);
    expect((await create(s, NEW)).status).toBe(403);
  });
});

describe('GET /api/v1/admin-users/', () => {
  test('the fields staff see, never a password hash; prize money of published results only', async () => {
    const published = await insertLottery(t, { results: true });
    const open = await insertLottery(t);
    const tx = async (lottery: number, ticket: string) =>
      (
        await t.db.one<{ id: number }>(
          `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, payment_number, status) VALUES ($1, $2, $3, 100, 'bkash', '', 'success') RETURNING id`,
          [player.id, lottery, ticket],
        )
      )?.id;
    await t.db.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 5000)', [
      published,
      await tx(published, '01-02-03-04-05-06'),
      '01-02-03-04-05-06',
    ]);
    await t.db.query('INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 7000)', [
      open,
      await tx(open, '01-02-03-04-05-07'),
      '01-02-03-04-05-07',
    ]);
    // His date of birth, given at sign-up, is for support to see (docs/rules/accounts-and-codes.md#2-sign-up).
    await t.db.query(`UPDATE users SET date_of_birth = '1990-06-15' WHERE id = $1`, [player.id]);
    try {
      const r = await one(staff, player.id);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        id: player.id,
        name: 'Rahim Uddin',
        email: 'rahim@example.com',
        phone: player.phone,
        phone_confirmed: true,
        email_confirmed: false,
        is_active: true,
        is_staff: false,
        is_superuser: false,
        date_joined: expect.any(String),
        date_of_birth: '1990-06-15',
        prize_money: 5000,
      });
      const all = await list(staff, { search: 'rahim' });
      expect(all.body).toEqual([r.body]);
      expect(JSON.stringify(all.body)).not.toContain('scrypt');
    } finally {
      await t.db.query('DELETE FROM prizes');
      await t.db.query('DELETE FROM transactions');
      await t.db.query('DELETE FROM lotteries');
      await t.db.query('UPDATE users SET date_of_birth = NULL WHERE id = $1', [player.id]);
    }
  });

  test('search by name, e-mail or phone (any case; % and _ are letters; a phone in another form), five filters, paging', async () => {
    const a = (await create(superuser, { name: 'Nasrin 100%_Akter', email: 'Nasrin@Example.com', password: 'long-enough-1' })).body
      .id as number;
    const b = (await create(superuser, { name: 'Jamal Staff', phone: '01812345678', password: 'long-enough-1', is_staff: true })).body
      .id as number;
    const c = (await create(superuser, { name: 'Sultana Off', phone: '01912345678', password: 'long-enough-1', is_active: false })).body
      .id as number;
    const ids = async (q: Record<string, unknown>) => (await list(staff, q)).body.map((u: { id: number }) => u.id);
    expect(await ids({ search: 'NASRIN' })).toEqual([a]);
    expect(await ids({ search: 'N@EXAMPLE.COM' })).toEqual([a]);
    expect(await ids({ search: '100%_' })).toEqual([a]);
    expect(await ids({ search: '%' })).toEqual([a]);
    expect(await ids({ search: '_' })).toEqual([a]);
    expect(await ids({ search: '0181234' })).toEqual([b]);
    expect(await ids({ search: '+8801812345678' })).toEqual([b]);
    expect(await ids({ search: 'nobody' })).toEqual([]);
    expect(await ids({ filter: 'inactive' })).toEqual([c]);
    expect(await ids({ filter: 'staff' })).toEqual([b, superuser.id, staff.id]);
    expect(await ids({ filter: 'superuser' })).toEqual([superuser.id]);
    expect(await ids({ filter: 'active' })).toEqual([b, a, superuser.id, staff.id, player.id]);
    expect(await ids({ filter: 'active', search: 'staff' })).toEqual([b]);
    const all = await list(staff, { filter: 'all' });
    expect(all.headers['x-total-count']).toBe('6');
    const page = await list(staff, { limit: 2, offset: 2 });
    expect(page.headers['x-total-count']).toBe('6');
    expect(page.body.map((u: { id: number }) => u.id)).toEqual(all.body.slice(2, 4).map((u: { id: number }) => u.id));
    for (const [q, field] of [
      [{ filter: 'boss' }, 'filter'],
      [{ limit: 0 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ search: '\u0001' }, 'search'],
    ] as const) {
      const r = await list(staff, q);
      expect(r.status).toBe(400);
      expect(Object.keys(r.body)).toEqual([field]);
    }
    expect((await one(staff, 999999)).status).toBe(404);
    expect((await one(staff, 'abc')).status).toBe(404);
  });
});

describe('POST /api/v1/admin-users/', () => {
  test('staff create a player: values trimmed, active by default, the password hashed; audited without the hash', async () => {
    const r = await create(staff, {
      name: '  Karim Mia ',
      email: ' Karim@Example.com ',
      phone: ' +880 1712-345670 ',
      password: 'new-secret-1',
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Karim Mia',
      email: 'karim@example.com',
      phone: '01712345670',
      is_active: true,
      is_staff: false,
      is_superuser: false,
      // Staff need not give a date of birth: the account has none.
      date_of_birth: null,
      prize_money: 0,
    });
    const row = await stored(r.body.id);
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    const login = await to(t, api.login).send({ phone: '01712345670', password: 'new-secret-1' });
    expect(login.status).toBe(200);
    const rows = await audit();
    expect(rows).toEqual([
      {
        actor_id: staff.id,
        action: 'user.create',
        entity: 'user',
        entity_id: String(r.body.id),
        before: null,
        after: {
          name: 'Karim Mia',
          email: 'karim@example.com',
          phone: '01712345670',
          is_active: true,
          is_staff: false,
          is_superuser: false,
        },
      },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/scrypt|new-secret/);
  });

  test('each validation message', async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{ phone: '01712345670', password: 'new-secret-1' }, { name: ['Name is required'] }],
      [{ name: '   ', phone: '01712345670', password: 'new-secret-1' }, { name: ['Name is required'] }],
      [{ name: 'A', password: 'new-secret-1' }, { non_field_errors: ['Either email or phone is required'] }],
      [{ name: 'A', email: ' ', phone: '', password: 'new-secret-1' }, { non_field_errors: ['Either email or phone is required'] }],
      [{ name: 'A', phone: '01712345670' }, { password: ['Password is required for new users'] }],
      [{ name: 'A', phone: '01712345670', password: '' }, { password: ['Password is required for new users'] }],
      [{ name: 'A', phone: '01712345670', password: 'short' }, { password: ['Password must be at least 8 characters'] }],
      [{ name: 'A', phone: '12345', password: 'new-secret-1' }, { phone: ['Phone number must be 11 digits (e.g., 01712345678)'] }],
      [{ name: 'A', email: 'not-mail', password: 'new-secret-1' }, { email: ['Please enter a valid email address'] }],
      [{ name: 'A', phone: '01712345670', password: 'new-secret-1', is_active: 'yes' }, { is_active: ['Expected a boolean.'] }],
      [{ name: 'A', phone: '01712345670', password: 'new-secret-1', role: 'admin' }, { role: ['Unknown field.'] }],
    ];
    for (const [body, errors] of cases) {
      const r = await create(staff, body);
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    expect(await audit()).toEqual([]);
  });

  test('an e-mail or phone another account holds is refused with sign-up’s messages', async () => {
    const r = await create(staff, { name: 'Twin', email: 'RAHIM@example.com', phone: player.phone, password: 'new-secret-1' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      email: ['This email address is already in use by another account.'],
      phone: ['This phone number is already in use by another account.'],
      code: 'email_taken',
    });
    expect(await audit()).toEqual([]);
  });

  test('only a superuser creates staff or superusers (a superuser is staff too)', async () => {
    for (const flags of [{ is_staff: true }, { is_superuser: true }, { is_staff: true, is_superuser: true }]) {
      const r = await create(staff, { ...NEW, ...flags });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ detail: 'Only a superuser may create staff or superusers.', code: 'permission_denied' });
    }
    expect((await list(staff, { search: 'Karim' })).body).toEqual([]);
    const s = await create(superuser, { ...NEW, is_staff: true });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ is_staff: true, is_superuser: false });
    const su = await create(superuser, { name: 'Second Head', email: 'head2@example.com', password: 'new-secret-1', is_superuser: true });
    expect(su.status).toBe(201);
    expect(su.body).toMatchObject({ is_staff: true, is_superuser: true });
    // The right is read from the database: a superuser demoted since his token was issued is refused.
    await t.db.query('UPDATE users SET is_superuser = false WHERE id = $1', [superuser.id]);
    try {
      expect(
        (await create(superuser, { name: 'Third', email: 'third@example.com', password: 'new-secret-1', is_staff: true })).status,
      ).toBe(403);
    } finally {
      await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [superuser.id]);
    }
  });
});

describe('PATCH /api/v1/admin-users/{id}/', () => {
  test('name, e-mail, phone, active flag and password change (a superuser); audited with what differed, never a hash', async () => {
    const id = (await create(staff, NEW)).body.id as number;
    await t.db.query('UPDATE users SET phone_confirmed = true WHERE id = $1', [id]);
    await t.db.query('DELETE FROM audit_log');
    const hashBefore = (await stored(id))?.password_hash;
    // Phone, e-mail and password are a superuser's to change (tests/api/insiders.test.ts has the other staff's 403).
    const r = await patch(superuser, id, {
      name: ' Karim Uddin ',
      email: 'karim@example.com',
      phone: '01712345671',
      is_active: false,
      password: 'another-pass-2',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'Karim Uddin',
      email: 'karim@example.com',
      phone: '01712345671',
      phone_confirmed: false,
      is_active: false,
    });
    const row = await stored(id);
    expect(row?.password_hash).not.toBe(hashBefore);
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    const rows = await audit();
    expect(rows).toEqual([
      {
        actor_id: superuser.id,
        action: 'user.update',
        entity: 'user',
        entity_id: String(id),
        before: { name: 'Karim Mia', email: null, phone: '01712345670', is_active: true },
        after: {
          name: 'Karim Uddin',
          email: 'karim@example.com',
          phone: '01712345671',
          is_active: false,
          password_changed: true,
          held_until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/scrypt|another-pass/);

    // A blank password keeps the current one; the same values again change nothing and record nothing.
    const same = await patch(staff, id, { name: 'Karim Uddin', password: '', is_active: false });
    expect(same.status).toBe(200);
    expect((await stored(id))?.password_hash).toBe(row?.password_hash);
    expect(await audit()).toHaveLength(1);
    // Activated again, he logs in with the new password.
    expect((await patch(staff, id, { is_active: true })).status).toBe(200);
    expect((await to(t, api.login).send({ phone: '01712345671', password: 'another-pass-2' })).status).toBe(200);
  });

  test('is_staff and is_superuser are not editable; validation messages; duplicates; unknown user 404', async () => {
    const id = (await create(staff, NEW)).body.id as number;
    for (const [body, errors] of [
      [{ is_staff: true }, { is_staff: ['Unknown field.'] }],
      [{ is_superuser: true }, { is_superuser: ['Unknown field.'] }],
      [{ name: '' }, { name: ['Name is required'] }],
      [{ name: null }, { name: ['Name is required'] }],
      [{ email: null, phone: null }, { non_field_errors: ['Either email or phone is required'] }],
      [{ password: 'short' }, { password: ['Password must be at least 8 characters'] }],
      [{ phone: '123' }, { phone: ['Phone number must be 11 digits (e.g., 01712345678)'] }],
    ] as [unknown, Record<string, string[]>][]) {
      const r = await patch(superuser, id, body);
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    // Removing the only identifier he has left.
    const r = await patch(superuser, id, { phone: '' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ non_field_errors: ['Either email or phone is required'], code: 'phone_or_email_needed' });
    const dup = await patch(superuser, id, { email: 'rahim@example.com', phone: player.phone });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      email: ['This email address is already in use by another account.'],
      phone: ['This phone number is already in use by another account.'],
      code: 'email_taken',
    });
    expect((await patch(staff, 999999, { name: 'Nobody' })).status).toBe(404);
    expect((await stored(id))?.is_staff).toBe(false);
    expect(await audit()).toHaveLength(1);
  });

  test('staff cannot deactivate themselves; another staff account is a superuser’s to change', async () => {
    const self = await patch(staff, staff.id, { is_active: false });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ is_active: ['You cannot deactivate your own account.'], code: 'cannot_deactivate_self' });
    expect((await patch(staff, staff.id, { name: 'Desk Officer' })).status).toBe(200);
    const other = await patch(staff, superuser.id, { password: 'taken-over-1' });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe('Only a superuser may change another staff account.');
    const colleague = (
      await create(superuser, { name: 'Colleague', email: 'colleague@example.com', password: 'new-secret-1', is_staff: true })
    ).body.id as number;
    expect((await patch(staff, colleague, { is_active: false })).status).toBe(403);
    expect((await patch(superuser, colleague, { is_active: false })).status).toBe(200);
  });

  test('a deactivated player is refused on his next request; his sessions end', async () => {
    const id = (await create(staff, NEW)).body.id as number;
    const login = await to(t, api.login).send({ phone: NEW.phone, password: NEW.password });
    const him = { auth: ['Authorization', `Bearer ${login.body.access as string}`] as [string, string] };
    expect((await patch(staff, id, { is_active: false })).status).toBe(200);
    const next = await to(t, api.contact, { as: him }).send({ name: 'A', email: 'a@b.co', message: 'hello' });
    expect(next.status).toBe(401);
    expect(next.body.code).toBe('account_disabled');
    expect((await to(t, api.refresh).send({ refresh: login.body.refresh })).status).toBe(401);
  });
});
