/**
 * /admin/users, /admin/users/new and /admin/users/{id}/edit as a browser without JavaScript uses them
 * (docs/rules/pages.md#4-without-javascript, #9-back-office; docs/rules/accounts-and-codes.md#12-staff-and-superusers):
 * the table with its search and filters, creating and editing a user through the plain forms, the API's refusals
 * shown as "Failed to … user: …", the player's identity details on his edit page, and a post without its CSRF token
 * changing nothing.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs, type Agent } from '../helpers/session.ts';
import { account, type Player } from './purchase-fixtures.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let staffAgent: Agent;
let staffId: number;
let player: Player;

beforeAll(async () => {
  t = await startTestApp();
  player = await account(t, { name: 'Rahim Uddin', email: 'rahim@example.com' });
  const u = await createUser(t, { name: 'Desk Staff', phone: '01955500021', is_staff: true });
  staffId = u.id;
  staffAgent = request.agent(t.url);
  staffAgent.set('Cookie', 'lang=en');
  await loginAs(staffAgent, u.phone, u.password);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM audit_log');
  await t.db.query('DELETE FROM rate_limits');
});

const byPhone = (phone: string) =>
  t.db.one<{ id: number; name: string; email: string | null; is_active: boolean; is_staff: boolean }>(
    'SELECT * FROM users WHERE phone = $1',
    [phone],
  );

describe('the users table', () => {
  test('name with its id, e-mail, phone with Confirmed, badges, prize money, date joined, Edit; search and filters on the server', async () => {
    const page = await staffAgent.get('/admin/users').expect(200);
    expect(page.text).toContain('Create New User');
    expect(page.text).toContain('Rahim Uddin');
    expect(page.text).toContain(`#${player.id}<`);
    expect(page.text).toContain('rahim@example.com');
    expect(page.text).toContain('Confirmed');
    expect(page.text).toContain('TK. 0');
    expect(page.text).toContain(`href="/admin/users/${player.id}/edit"`);
    expect(page.text).toMatch(/class="badge badge--gold">Staff</);
    const found = await staffAgent.get('/admin/users?search=RAHIM').expect(200);
    expect(found.text).toContain('Rahim Uddin');
    expect(found.text).not.toContain('admin-users__name">Desk Staff<');
    expect(found.text).toContain('1 user<');
    const staffOnly = await staffAgent.get('/admin/users?filter=staff').expect(200);
    expect(staffOnly.text).toContain('admin-users__name">Desk Staff<');
    expect(staffOnly.text).not.toContain('Rahim Uddin');
    const none = await staffAgent.get('/admin/users?filter=superuser&search=rahim').expect(200);
    expect(none.text).toContain('No users found matching your criteria');
    const bad = await staffAgent.get('/admin/users?search=%01').expect(200);
    expect(bad.text).toContain('Please try again later or contact support if the problem persists.');
  });
});

describe('creating a user without JavaScript', () => {
  test('a refused form keeps its values (never the password); created → the list says so; only a superuser makes staff', async () => {
    const form = await staffAgent.get('/admin/users/new').expect(200);
    expect(form.text).toContain('Create New User');
    const _csrf = csrfFrom(form.text);
    const bad = await staffAgent
      .post('/admin/users/new')
      .type('form')
      .send({ _csrf, name: '', email: '', phone: '', password: 'secret-pass-9', is_active: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Name is required');
    expect(bad.text).toContain('Either email or phone is required');
    expect(bad.text).not.toContain('secret-pass-9');

    const dup = await staffAgent
      .post('/admin/users/new')
      .type('form')
      .send({ _csrf, name: 'Twin', phone: player.phone, password: 'secret-pass-9', is_active: 'on' });
    expect(dup.status).toBe(400);
    expect(dup.text).toContain('Failed to create user: This phone number is already in use by another account.');

    const staffy = await staffAgent
      .post('/admin/users/new')
      .type('form')
      .send({ _csrf, name: 'Would Be Staff', phone: '01712340001', password: 'secret-pass-9', is_active: 'on', is_staff: 'on' });
    expect(staffy.status).toBe(403);
    expect(staffy.text).toContain('Failed to create user: Only a superuser may create staff or superusers.');
    expect(await byPhone('01712340001')).toBeUndefined();

    const ok = await staffAgent
      .post('/admin/users/new')
      .type('form')
      .send({ _csrf, name: ' Karim Mia ', email: '', phone: '01712340002', password: 'secret-pass-9' });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/admin/users?notice=created');
    // An unticked "Active" box says "no".
    expect(await byPhone('01712340002')).toMatchObject({ name: 'Karim Mia', email: null, is_active: false, is_staff: false });
    const list = await staffAgent.get('/admin/users?notice=created').expect(200);
    expect(list.text).toContain('User created successfully!');
    const audit = await t.db.query<{ action: string; actor_id: number }>('SELECT action, actor_id FROM audit_log');
    expect(audit).toEqual([{ action: 'user.create', actor_id: staffId }]);
  });
});

describe('editing a user without JavaScript', () => {
  test('the stored values; name, e-mail, phone, active flag and password change; refusals under the fields and as "Failed to update user"', async () => {
    const u = await createUser(t, { name: 'Sultana Akter', phone: '01712340003', password: 'old-pass-123' });
    const edit = await staffAgent.get(`/admin/users/${u.id}/edit`).expect(200);
    expect(edit.text).toContain('value="Sultana Akter"');
    expect(edit.text).toContain('value="01712340003"');
    expect(edit.text).toContain('Leave blank to keep current password.');
    expect(edit.text).not.toContain('name="is_staff"');
    expect(edit.text).toContain('This user has not given identity details yet.');
    // An account without a date of birth (made before sign-up asked it, or by staff) says so.
    expect(edit.text).toContain('Not given (the account was made before sign-up asked for it, or by staff)');
    // Ordinary staff see the phone, e-mail and password disabled, with why; the name and the active flag are theirs.
    const input = (html: string, name: string) => html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? '';
    for (const name of ['email', 'phone', 'password']) expect(input(edit.text, name)).toContain('disabled=""');
    expect(input(edit.text, 'name')).not.toContain('disabled');
    expect(edit.text).toContain('Only a superuser may change the phone number, email address or password');
    const _csrf = csrfFrom(edit.text);
    const renamed = await staffAgent.post(`/admin/users/${u.id}/edit`).type('form').send({ _csrf, name: 'Sultana A.', is_active: 'on' });
    expect(renamed.status).toBe(303);
    expect(await byPhone('01712340003')).toMatchObject({ name: 'Sultana A.', is_active: true });
    // A forged post with a new phone is refused by the API.
    const forged = await staffAgent
      .post(`/admin/users/${u.id}/edit`)
      .type('form')
      .send({ _csrf, name: 'Sultana A.', phone: '01712349999', is_active: 'on' });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain(
      'Failed to update user: Only a superuser may change a user&#x27;s phone number, email address or password.',
    );
    expect(await byPhone('01712349999')).toBeUndefined();

    // A superuser edits them all, and is told what a change of them does.
    await t.db.query("UPDATE users SET is_superuser = true WHERE phone = '01955500021'");
    const full = await staffAgent.get(`/admin/users/${u.id}/edit`).expect(200);
    for (const name of ['email', 'phone', 'password']) expect(input(full.text, name)).not.toContain('disabled');
    expect(full.text).toContain('holds this account&#x27;s prize claims and payouts for 72 hours');

    const bad = await staffAgent
      .post(`/admin/users/${u.id}/edit`)
      .type('form')
      .send({ _csrf, name: 'Sultana', email: 'rahim@example.com', phone: '01712340003', password: '', is_active: 'on' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Failed to update user: This email address is already in use by another account.');

    const ok = await staffAgent
      .post(`/admin/users/${u.id}/edit`)
      .type('form')
      .send({ _csrf, name: 'Sultana Begum', email: 'sultana@example.com', phone: '01712340003', password: 'new-pass-456' });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/admin/users?notice=updated');
    expect(await byPhone('01712340003')).toMatchObject({ name: 'Sultana Begum', email: 'sultana@example.com', is_active: false });
    const list = await staffAgent.get('/admin/users?notice=updated').expect(200);
    expect(list.text).toContain('User updated successfully!');
    await t.db.query('UPDATE users SET is_active = true WHERE id = $1', [u.id]);
    expect((await request(t.url).post('/api/token/').send({ phone: '01712340003', password: 'new-pass-456' })).status).toBe(200);
    await t.db.query("UPDATE users SET is_superuser = false WHERE phone = '01955500021'");

    // Staff cannot deactivate themselves: the message under the box.
    const self = await staffAgent.get(`/admin/users/${staffId}/edit`).expect(200);
    const refused = await staffAgent
      .post(`/admin/users/${staffId}/edit`)
      .type('form')
      .send({ _csrf: csrfFrom(self.text), name: 'Desk Staff', phone: '01955500021', email: '', password: '' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('You cannot deactivate your own account.');
    expect(await byPhone('01955500021')).toMatchObject({ is_active: true });

    expect((await staffAgent.get('/admin/users/999999/edit')).status).toBe(404);
    expect((await staffAgent.get('/admin/users/abc/edit')).status).toBe(404);
  });

  test("the player's identity details: NID number, phone and both photos, served to staff through /bff", async () => {
    const photo = async () => {
      const res = await request(t.url)
        .post('/api/v1/upload-nid/')
        .set(...player.auth)
        .set('Content-Type', 'image/png')
        .send(PNG);
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const front = await photo();
    const back = await photo();
    await request(t.url)
      .put('/api/v1/my-identity/')
      .set(...player.auth)
      .send({ nid: '1234567890', nid_front: front, nid_back: back, phone: '01812345678' })
      .expect(200);
    await t.db.query(`UPDATE users SET date_of_birth = '1994-03-07' WHERE id = $1`, [player.id]);
    const edit = await staffAgent.get(`/admin/users/${player.id}/edit`).expect(200);
    // The date of birth he gave at sign-up, for support (docs/rules/accounts-and-codes.md#2-sign-up).
    expect(edit.text).toContain('<dt>Date of birth</dt><dd>7 Mar 1994</dd>');
    expect(edit.text).toContain('1234567890');
    expect(edit.text).toContain('01812345678');
    expect(edit.text).toContain(`src="/bff/api/v1/uploads/${front}/"`);
    expect(edit.text).toContain(`src="/bff/api/v1/uploads/${back}/"`);
    const img = await staffAgent.get(`/bff/api/v1/uploads/${front}/`);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
  });
});

describe('who may', () => {
  test('a post without its CSRF token changes nothing; players and visitors never get in', async () => {
    const res = await staffAgent
      .post('/admin/users/new')
      .type('form')
      .send({ name: 'No Token', phone: '01712340009', password: 'secret-pass-9', is_active: 'on' });
    expect(res.status).toBe(403);
    expect(await byPhone('01712340009')).toBeUndefined();
    const edit = await staffAgent
      .post(`/admin/users/${player.id}/edit`)
      .type('form')
      .send({ name: 'Hacked', phone: player.phone, password: '' });
    expect(edit.status).toBe(403);

    const u = await createUser(t, { name: 'Curious Player', phone: '01955500022' });
    const agent = request.agent(t.url);
    await loginAs(agent, u.phone, u.password);
    const profile = await agent.get('/profile').expect(200);
    for (const path of ['/admin/users', '/admin/users/new', `/admin/users/${player.id}/edit`]) {
      expect((await agent.get(path)).headers.location).toBe(`/login?from=${encodeURIComponent(path)}`);
      expect((await request(t.url).get(path)).headers.location).toBe(`/login?from=${encodeURIComponent(path)}`);
    }
    const post = await agent
      .post(`/admin/users/${player.id}/edit`)
      .type('form')
      .send({ _csrf: csrfFrom(profile.text), name: 'Hacked', phone: player.phone, password: '', is_active: 'on' });
    expect(post.status).toBe(303);
    expect((await byPhone(player.phone))?.name).toBe('Rahim Uddin');
  });
});
