/**
 * The profile and identity pages as a browser without JavaScript uses them: /profile with its Edit Profile form at
 * /profile/edit (a multipart POST), /payment/system with the NID photos as file parts, and the spec's demo payment
 * routes leading to the real purchase flow. Good and bad posts, and the CSRF token.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, type Agent } from '../helpers/session.ts';
import { pageAccount, uniquePhone } from '../helpers/factories.ts';

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

/** The opening tag of the page's form that posts to `action` (or the first form with this method). */
function formTag(html: string, pick: RegExp): string {
  const tag = (html.match(/<form[^>]*>/g) ?? []).find((f) => pick.test(f));
  if (!tag) throw new Error(`no form matching ${pick}`);
  return tag;
}

const newPhone = uniquePhone;

/** The edit form as a browser sends it: every field, the picture part empty unless given. */
function postEdit(agent: Agent, csrf: string | null, fields: Record<string, string>, picture?: Buffer) {
  let req = agent.post('/profile/edit');
  for (const [k, v] of Object.entries({ ...(csrf === null ? {} : { _csrf: csrf }), ...fields })) req = req.field(k, v);
  return picture
    ? req.attach('picture', picture, { filename: 'me.png', contentType: 'image/png' })
    : req.attach('picture', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
}

describe('/profile and /profile/edit without JavaScript', () => {
  test('the profile has an Edit Profile link; /profile/edit shows the form in a dialog, filled with the profile', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/profile').expect(200);
    expect(page.text).toContain('href="/profile/edit"');
    expect(page.text).toContain('Edit Profile');
    expect(page.text).not.toContain('<dialog');
    const edit = await p.agent.get('/profile/edit').expect(200);
    expect(edit.text).toMatch(/<dialog[^>]*open/);
    expect(edit.text).toContain('aria-labelledby="edit-profile-title"');
    const form = formTag(edit.text, /action="\/profile\/edit"/);
    expect(form).toContain('method="post"');
    expect(form).toMatch(/enctype="multipart\/form-data"/i);
    expect(edit.text).toContain(`value="${p.phone}"`);
    expect(edit.text).toContain('value="Karim Mia"');
    expect(edit.text).toContain('name="password"');
    expect(edit.text).toContain('type="file"');
  });

  test('a good change: 303 to /profile?updated=1, which confirms it and shows the new values', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const csrf = csrfFrom((await p.agent.get('/profile/edit')).text);
    const phone = newPhone();
    const res = await postEdit(p.agent, csrf, { name: 'Karim Hossain', email: 'karim@example.com', phone, password: p.password }, PNG);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/profile?updated=1');
    const after = await p.agent.get(res.headers.location as string).expect(200);
    expect(after.text).toContain('role="status"');
    expect(after.text).toContain('Your profile has been updated.');
    expect(after.text).toContain('Karim Hossain');
    expect(after.text).toContain('karim@example.com');
    expect(after.text).toContain(phone);
    const row = await t.db.one<{ picture_id: string | null }>('SELECT picture_id FROM users WHERE id = $1', [p.id]);
    expect(row?.picture_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('the session follows the change at once: the top bar shows the new name and phone, on every page', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const csrf = csrfFrom((await p.agent.get('/profile/edit')).text);
    const phone = newPhone();
    const res = await postEdit(p.agent, csrf, { name: 'Renamed Player', phone, password: p.password });
    expect(res.status).toBe(303);
    const page = await p.agent.get('/faq').expect(200);
    expect(page.text).toMatch(/class="nav-user__name">Renamed Player</);
    expect(page.text).toContain(`title="${phone}"`);
    // And through /bff, as the hydrated client asks for it.
    const session = await p.agent.get('/bff/session').expect(200);
    expect(session.body.user).toMatchObject({ name: 'Renamed Player', phone });
  });

  test('bad input: 400, the messages under their fields, the typed values kept, the password never sent back', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const csrf = csrfFrom((await p.agent.get('/profile/edit')).text);
    const res = await postEdit(p.agent, csrf, { name: 'Karim Mia', email: 'karim@', phone: '0171234', password: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Please enter a valid email address');
    expect(res.text).toContain('Phone number must be 11 digits (e.g., 01712345678)');
    expect(res.text).toContain('Current Password is required');
    expect(res.text).toContain('Please fix the validation errors.');
    expect(res.text).toContain('value="karim@"');
    expect(res.text).toMatch(/<dialog[^>]*open/);
  });

  test('a wrong current password and nothing changed: the server’s messages on the page', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const csrf = csrfFrom((await p.agent.get('/profile/edit')).text);
    const wrong = await postEdit(p.agent, csrf, { name: 'Other Name', email: '', phone: p.phone, password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Invalid password. Please enter your current password.');
    const same = await postEdit(p.agent, csrf, { name: 'Karim Mia', email: '', phone: p.phone, password: p.password });
    expect(same.status).toBe(400);
    expect(same.text).toContain('At least one field (name, email, or phone) must be provided');
    const taken = await createUser(t, { phone: newPhone() });
    const dup = await postEdit(p.agent, csrf, { name: 'Karim Mia', email: '', phone: taken.phone, password: p.password });
    expect({ status: dup.status, alert: /role="alert">([^<]*)/.exec(dup.text)?.[1] }).toEqual({ status: 400, alert: expect.any(String) });
    expect(dup.text.match(/field__error">[^<]*/g)).toEqual(['field__error">This phone number is already in use by another account.']);
  });

  test('in Bengali: the form and its messages', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia', lang: 'bn' });
    const edit = await p.agent.get('/profile/edit').expect(200);
    expect(edit.text).toContain('প্রোফাইল সম্পাদনা');
    const res = await postEdit(p.agent, csrfFrom(edit.text), { name: 'Karim Mia', email: '', phone: p.phone, password: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('বর্তমান পাসওয়ার্ড দিতে হবে');
  });

  test('without the CSRF token: 403, nothing changed', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const res = await postEdit(p.agent, null, { name: 'Forged', email: '', phone: p.phone, password: p.password });
    expect(res.status).toBe(403);
    expect((await t.db.one<{ name: string }>('SELECT name FROM users WHERE id = $1', [p.id]))?.name).toBe('Karim Mia');
    const forged = await postEdit(p.agent, 'not-the-token', { name: 'Forged', email: '', phone: p.phone, password: p.password });
    expect(forged.status).toBe(403);
  });

  test('a visitor is sent to login, and back to the edit page afterwards', async () => {
    const res = await request(t.url).get('/profile/edit');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?from=%2Fprofile%2Fedit');
  });
});

/** The identity form as a browser sends it: the text fields and the two photos as file parts. */
function postIdentity(agent: Agent, csrf: string | null, fields: Record<string, string>, photos: { front?: Buffer; back?: Buffer } = {}) {
  let req = agent.post('/payment/system');
  for (const [k, v] of Object.entries({ ...(csrf === null ? {} : { _csrf: csrf }), ...fields })) req = req.field(k, v);
  const part = (b: Buffer | undefined, name: string) =>
    b
      ? { b, o: { filename: `${name}.png`, contentType: 'image/png' } }
      : { b: Buffer.alloc(0), o: { filename: '', contentType: 'application/octet-stream' } };
  const f = part(photos.front, 'front');
  const k = part(photos.back, 'back');
  return req.attach('nid_front', f.b, f.o).attach('nid_back', k.b, k.o);
}

describe('/payment/system without JavaScript', () => {
  test('the form: NID, two camera/file inputs for the photos, phone', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/payment/system').expect(200);
    expect(page.text).toMatch(/<form[^>]*encType="multipart\/form-data"[^>]*method="post"/i);
    expect(page.text.match(/type="file" accept="image\/\*" capture="environment"/g)).toHaveLength(2);
    expect(page.text).toContain('name="nid"');
    expect(page.text).toContain('name="phone"');
  });

  test('all fields required; a bad NID and phone get their messages', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const csrf = csrfFrom((await p.agent.get('/payment/system')).text);
    const empty = await postIdentity(p.agent, csrf, { nid: '', phone: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Please fill in all the fields before proceeding');
    const bad = await postIdentity(p.agent, csrf, { nid: '12345', phone: '12345' }, { front: PNG, back: PNG });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Invalid NID number');
    expect(bad.text).toContain('Invalid phone number');
    expect(bad.text).toContain('value="12345"');
    expect(await t.db.query('SELECT user_id FROM identities WHERE user_id = $1', [p.id])).toEqual([]);
  });

  test('good details: saved, then the method choice with bKash, Nagad and Rocket “Soon”; bKash leads back to the ticket', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const from = '/quick-play/1/05-12-23-34-45-07';
    const csrf = csrfFrom((await p.agent.get(`/payment/system?from=${encodeURIComponent(from)}`)).text);
    const res = await postIdentity(p.agent, csrf, { nid: '1234567890', phone: '01712345678', from }, { front: PNG, back: PNG });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/payment/system?saved=1&from=${encodeURIComponent(from)}`);
    const stored = await t.db.one<{ nid: string; phone: string }>('SELECT nid, phone FROM identities WHERE user_id = $1', [p.id]);
    expect(stored).toEqual({ nid: '1234567890', phone: '01712345678' });
    const kinds = await t.db.query<{ kind: string }>('SELECT kind FROM uploads WHERE owner_id = $1', [p.id]);
    expect(kinds.map((k) => k.kind)).toEqual(['nid', 'nid']);

    const next = await p.agent.get(res.headers.location as string).expect(200);
    expect(next.text).toContain('Your identity details have been saved.');
    expect(next.text).toContain('NID number ending in 7890');
    expect(next.text).not.toContain('1234567890');
    expect(formTag(next.text, /action="\/payment\/bkash"/)).toContain('method="get"');
    const radio = (value: string) =>
      (next.text.match(/<input[^>]*name="payment_method"[^>]*>/g) ?? []).find((i) => i.includes(`value="${value}"`));
    expect(radio('bkash')).toMatch(/checked/);
    expect(radio('bkash')).not.toMatch(/disabled/);
    expect(radio('nagad')).toMatch(/disabled/);
    expect(radio('rocket')).toMatch(/disabled/);
    expect(next.text.match(/Soon/g)?.length).toBeGreaterThanOrEqual(2);
    const go = await p.agent.get(`/payment/bkash?from=${encodeURIComponent(from)}&payment_method=bkash`);
    expect(go.status).toBe(303);
    expect(go.headers.location).toBe(from);
  });

  test('without the CSRF token: 403, nothing stored', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const res = await postIdentity(p.agent, null, { nid: '1234567890', phone: '01712345678' }, { front: PNG, back: PNG });
    expect(res.status).toBe(403);
    expect(await t.db.query('SELECT user_id FROM identities WHERE user_id = $1', [p.id])).toEqual([]);
  });

  test('a visitor is sent to login', async () => {
    const res = await request(t.url).get('/payment/system');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?from=%2Fpayment%2Fsystem');
  });
});

describe('the demo payment pages lead to the real purchase flow', () => {
  test.each(['bkash', 'nogod', 'rocket', 'stripe'])('/payment/%s', async (method) => {
    const plain = await request(t.url).get(`/payment/${method}`);
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('/all-lotteries');
    const back = await request(t.url).get(`/payment/${method}?from=%2Fquick-play%2F3%2F05-12-23-34-45-07`);
    expect(back.headers.location).toBe('/quick-play/3/05-12-23-34-45-07');
    // Only a path of this site.
    const away = await request(t.url).get(`/payment/${method}?from=https%3A%2F%2Fevil.example%2F`);
    expect(away.headers.location).toBe('/all-lotteries');
  });
});
