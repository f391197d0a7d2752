import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom, loginAs } from '../helpers/session.ts';
import { uniquePhone } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const phone = uniquePhone;

/** A browser without JavaScript: cookies kept, the form's token sent back. */
async function formPage(path: string, lang = 'en') {
  const agent = request.agent(t.url);
  agent.set('Cookie', `lang=${lang}`);
  const page = await agent.get(path).expect(200);
  return { agent, csrf: csrfFrom(page.text), html: page.text };
}

describe('no-JS account journey through the pages', () => {
  test('register → verify with the code: signed in at once, the name in the top bar → log out', async () => {
    const p = phone();
    const { agent, csrf } = await formPage('/register');
    const reg = await agent.post('/register').type('form').send({
      _csrf: csrf,
      date_of_birth: '1995-06-15',
      firstName: 'Nusrat',
      lastName: 'Jahan',
      phone: p,
      password: 'pass-word-9',
      email: '',
    });
    expect(reg.status).toBe(303);
    expect(reg.headers.location).toMatch(new RegExp(`^/verify-otp\\?identifier=${p}&notice=registered&sent=\\d{13}$`));
    const verifyUrl = reg.headers.location as string;
    const verifyPage = await agent.get(verifyUrl).expect(200);
    expect(verifyPage.text).toContain('Registration successful. Please check your email or phone for an OTP');

    const wrong = await agent
      .post(verifyUrl)
      .type('form')
      .send({ _csrf: csrf, identifier: p, otp: (await t.lastCode(p)) === '000000' ? '111111' : '000000', intent: 'verify' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The code is not correct');

    const ok = await agent
      .post(verifyUrl)
      .type('form')
      .send({ _csrf: csrf, identifier: p, otp: await t.lastCode(p, 'account'), intent: 'verify' });
    // The right code signs him in as a login does: no second typing of his phone and password.
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/');
    const session = ([] as string[]).concat(ok.headers['set-cookie'] ?? []).find((c) => c.startsWith('bh_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    const home = await agent.get('/').expect(200);
    expect(home.text).toContain('Nusrat Jahan');

    const out = await agent.post('/logout').type('form').send({ _csrf: csrf });
    expect(out.status).toBe(303);
    expect((await agent.get('/').expect(200)).text).not.toContain('Nusrat Jahan');
    // the refresh token was revoked by the API, not only forgotten by the browser
    const live = await t.db.query(
      `SELECT 1 FROM refresh_tokens r JOIN users u ON u.id = r.user_id WHERE u.phone = $1 AND r.revoked_at IS NULL`,
      [p],
    );
    expect(live).toHaveLength(0);
  });

  test('the page he came from is kept through sign-up and the code; a foreign one is dropped', async () => {
    const p = phone();
    const from = '/lottery/7?pick=1';
    const { agent, csrf, html } = await formPage(`/register?from=${encodeURIComponent(from)}`);
    expect(html).toContain(`name="from" value="${from.replace('&', '&amp;')}"`);
    const reg = await agent
      .post('/register')
      .type('form')
      .send({ _csrf: csrf, date_of_birth: '1995-06-15', firstName: 'Rafi', lastName: 'Khan', phone: p, password: 'pass-word-9', from });
    expect(reg.status).toBe(303);
    const verifyUrl = reg.headers.location as string;
    expect(new URL(verifyUrl, t.url).searchParams.get('from')).toBe(from);
    const page = await agent.get(verifyUrl).expect(200);
    expect(page.text).toContain(`name="from" value="${from}"`);
    // "Not your account? Register again" keeps it too.
    expect(page.text).toContain(`href="/register?from=${encodeURIComponent(from)}"`);
    const ok = await agent
      .post(verifyUrl)
      .type('form')
      .send({ _csrf: csrf, identifier: p, otp: await t.lastCode(p, 'account'), intent: 'verify', from });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(from);

    // Another site's address (or a path that leaves this one) is never followed: home instead.
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const q = phone();
      const b = await formPage('/register');
      const r = await b.agent.post('/register').type('form').send({
        _csrf: b.csrf,
        date_of_birth: '1995-06-15',
        firstName: 'Eve',
        lastName: 'Il',
        phone: q,
        password: 'pass-word-9',
        from: evil,
      });
      expect(new URL(r.headers.location as string, t.url).searchParams.get('from')).toBeNull();
      const v = await b.agent
        .post(r.headers.location as string)
        .type('form')
        .send({ _csrf: b.csrf, identifier: q, otp: await t.lastCode(q, 'account'), intent: 'verify', from: evil });
      expect(v.status).toBe(303);
      expect(v.headers.location).toBe('/');
    }
  });

  test('the register page asks the date of birth and links the terms, in English and Bengali', async () => {
    const en = await formPage('/register');
    expect(en.html).toMatch(/<label for="[^"]+">Date of birth<\/label>/);
    expect(en.html).toMatch(/<input[^>]*name="date_of_birth"[^>]*type="date"|<input[^>]*type="date"[^>]*name="date_of_birth"/);
    expect(en.html).toMatch(/By registering you accept the <a [^>]*href="\/terms-conditions"[^>]*>Terms &amp; Conditions<\/a>\./);
    expect(en.html).not.toContain('confirm that you are 18');
    const bn = await formPage('/register', 'bn');
    expect(bn.html).toContain('জন্মতারিখ');
    expect(bn.html).toMatch(/নিবন্ধন করে আপনি <a [^>]*href="\/terms-conditions"[^>]*>শর্তাবলি<\/a> মেনে নিচ্ছেন।/);
  });

  test('no date of birth, or under 18: the field error, in English and Bengali; nothing is created', async () => {
    const p = phone();
    const en = await formPage('/register');
    const base = { _csrf: en.csrf, firstName: 'Kid', lastName: 'Rahman', phone: p, password: 'pass-word-9' };
    // A browser sends the field left empty.
    const none = await en.agent
      .post('/register')
      .type('form')
      .send({ ...base, date_of_birth: '' });
    expect(none.status).toBe(400);
    expect(none.text).toContain('Please enter your date of birth.');
    const young = await en.agent
      .post('/register')
      .type('form')
      .send({ ...base, date_of_birth: `${new Date().getUTCFullYear() - 12}-01-01` });
    expect(young.status).toBe(400);
    expect(young.text).toContain('You must be 18 or older to register. Bhagya is for adults only.');
    // What he typed stays in the form, the password does not.
    expect(young.text).toContain('value="Kid"');
    expect(young.text).not.toContain('pass-word-9');
    const bn = await formPage('/register', 'bn');
    const r = await bn.agent
      .post('/register')
      .type('form')
      .send({ ...base, _csrf: bn.csrf, date_of_birth: '31/04/1990' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('অনুগ্রহ করে সঠিক জন্মতারিখ দিন: দিন, মাস ও বছর।');
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', [p])).toHaveLength(0);
  });

  test('registration errors are rendered by the server, in English and Bengali, and nothing is created', async () => {
    const p = phone();
    const en = await formPage('/register');
    const r1 = await en.agent
      .post('/register')
      .type('form')
      .send({ _csrf: en.csrf, date_of_birth: '1995-06-15', firstName: 'A', lastName: '', phone: p, password: 'pass-word-9' });
    expect(r1.status).toBe(400);
    expect(r1.text).toContain('Please fill all the required fields');
    const bn = await formPage('/register', 'bn');
    const r2 = await bn.agent
      .post('/register')
      .type('form')
      .send({ _csrf: bn.csrf, date_of_birth: '1995-06-15', firstName: 'A', lastName: 'B', phone: '', email: '', password: 'pass-word-9' });
    expect(r2.status).toBe(400);
    expect(r2.text).toContain('অনুগ্রহ করে একটি ফোন নম্বর অথবা ইমেইল ঠিকানা দিন');
    const r3 = await en.agent
      .post('/register')
      .type('form')
      .send({ _csrf: en.csrf, date_of_birth: '1995-06-15', firstName: 'A', lastName: 'B', phone: '123', password: 'short' });
    expect(r3.text).toContain('Phone number must be 11 digits');
    expect(r3.text).toContain('Password must be at least 8 characters');
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', [p])).toHaveLength(0);
  });

  test('a taken phone number goes on as a new one would (to the code page); nothing says it is taken', async () => {
    const u = await createUser(t);
    const { agent, csrf } = await formPage('/register');
    const r = await agent
      .post('/register')
      .type('form')
      .send({ _csrf: csrf, date_of_birth: '1995-06-15', firstName: 'A', lastName: 'B', phone: u.phone, password: 'pass-word-9' });
    expect(r.status).toBe(303);
    expect(r.headers.location).toMatch(new RegExp(`^/verify-otp\\?identifier=${u.phone}&notice=registered&sent=\\d{13}$`));
    expect(r.text).not.toContain('already in use');
    expect(await t.db.query('SELECT 1 FROM users WHERE phone = $1', [u.phone])).toHaveLength(1);
  });

  test('login: wrong password → Invalid credentials; unverified → verify page; staff → back office; from is honoured', async () => {
    const { agent, csrf } = await formPage('/login');
    const u = await createUser(t, { password: 'right-pass-1' });
    const bad = await agent.post('/login').type('form').send({ _csrf: csrf, phone: u.phone, password: 'wrong-pass-1' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Invalid credentials');

    const pending = await createUser(t, { is_active: false, password: 'right-pass-1' });
    await t.db.query('UPDATE users SET phone_confirmed = false WHERE id = $1', [pending.id]);
    const r = await agent.post('/login').type('form').send({ _csrf: csrf, phone: pending.phone, password: 'right-pass-1' });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe(`/verify-otp?identifier=${pending.phone}&notice=inactive`);
    // Sent to the code from a page: the code brings him back to it.
    const back = await agent
      .post('/login')
      .type('form')
      .send({ _csrf: csrf, phone: pending.phone, password: 'right-pass-1', from: '/faq' });
    expect(back.headers.location).toBe(`/verify-otp?identifier=${pending.phone}&notice=inactive&from=%2Ffaq`);
    expect((await agent.get(r.headers.location as string)).text).toContain('User is not active, please verify OTP');

    const staff = await createUser(t, { is_staff: true, password: 'staff-pass-1' });
    const s = await agent.post('/login').type('form').send({ _csrf: csrf, phone: staff.phone, password: 'staff-pass-1' });
    // Staff land on the back office's dashboard.
    expect(s.headers.location).toBe('/admin/dashboard');

    const other = await formPage('/login?from=/faq');
    const f = await other.agent
      .post('/login?from=/faq')
      .type('form')
      .send({ _csrf: other.csrf, phone: u.phone, password: 'right-pass-1', from: '/faq' });
    expect(f.headers.location).toBe('/faq');
    const evil = await formPage('/login');
    const e = await evil.agent
      .post('/login')
      .type('form')
      .send({ _csrf: evil.csrf, phone: u.phone, password: 'right-pass-1', from: '//evil.example' });
    expect(e.headers.location).toBe('/');
  });

  test('forgot → reset with the 6-digit code → log in with the new password', async () => {
    const u = await createUser(t, { password: 'old-pass-12' });
    const { agent, csrf } = await formPage('/forgot-password');
    const empty = await agent.post('/forgot-password').type('form').send({ _csrf: csrf, identifier: '' });
    expect(empty.text).toContain('Please enter your email or phone number');
    const f = await agent.post('/forgot-password').type('form').send({ _csrf: csrf, identifier: u.phone });
    expect(f.status).toBe(303);
    expect(f.headers.location).toMatch(new RegExp(`^/reset-password\\?identifier=${u.phone}&sent=\\d{13}$`));
    const code = await t.lastCode(u.phone, 'reset');
    expect(code).toMatch(/^\d{6}$/);
    const mismatch = await agent
      .post(f.headers.location as string)
      .type('form')
      .send({
        _csrf: csrf,
        identifier: u.phone,
        otp: code,
        new_password: 'new-pass-123',
        confirm_password: 'new-pass-124',
        intent: 'reset',
      });
    expect(mismatch.text).toContain('Passwords do not match');
    const ok = await agent
      .post(f.headers.location as string)
      .type('form')
      .send({
        _csrf: csrf,
        identifier: u.phone,
        otp: code,
        new_password: 'new-pass-123',
        confirm_password: 'new-pass-123',
        intent: 'reset',
      });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/login?notice=reset');
    await loginAs(t.url, u.phone, 'new-pass-123');
  });

  test('reset and verify pages without an identifier send the visitor back', async () => {
    const r = await request(t.url).get('/reset-password');
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/forgot-password');
    const v = await request(t.url).get('/verify-otp');
    expect(v.headers.location).toBe('/register?notice=noIdentifier');
    const reg = await request(t.url).get('/register?notice=noIdentifier').set('Cookie', 'lang=en');
    expect(reg.text).toContain('Could not verify account. Please register again.');
  });
});

describe('CSRF on form posts', () => {
  test('a post without the token, with a foreign token or from another site is refused and changes nothing', async () => {
    const u = await createUser(t, { password: 'right-pass-1' });
    const { agent, csrf } = await formPage('/login');
    const noToken = await agent.post('/login').type('form').send({ phone: u.phone, password: 'right-pass-1' });
    expect(noToken.status).toBe(403);
    const other = await formPage('/login');
    const foreign = await agent.post('/login').type('form').send({ _csrf: other.csrf, phone: u.phone, password: 'right-pass-1' });
    expect(foreign.status).toBe(403);
    const crossSite = await agent
      .post('/login')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ _csrf: csrf, phone: u.phone, password: 'right-pass-1' });
    expect(crossSite.status).toBe(403);
    const crossOrigin = await agent
      .post('/login')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ _csrf: csrf, phone: u.phone, password: 'right-pass-1' });
    expect(crossOrigin.status).toBe(403);
    for (const r of [noToken, foreign, crossSite, crossOrigin]) {
      expect(([] as string[]).concat(r.headers['set-cookie'] ?? []).some((c) => c.startsWith('bh_session='))).toBe(false);
    }
  });
});

describe('pages', () => {
  test('security headers: nonce-based CSP without unsafe-inline scripts, and the nonce is on the bootstrap script', async () => {
    const r = await request(t.url).get('/login').set('Cookie', 'lang=en').expect(200);
    const csp = r.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    // every executable script either has this response's nonce or is the non-executable JSON data element
    for (const tag of r.text.match(/<script\b[^>]*>/g) ?? []) {
      if (tag.includes('application/json')) continue;
      expect(tag).toContain(`nonce="${nonce}"`);
    }
    const again = await request(t.url).get('/login').set('Cookie', 'lang=en');
    expect(/'nonce-([^']+)'/.exec(again.headers['content-security-policy'] as string)?.[1]).not.toBe(nonce);
  });

  test('<html lang> and the texts follow the language cookie; ?lng= sets it and redirects', async () => {
    const bn = await request(t.url).get('/login').set('Cookie', 'lang=bn').expect(200);
    expect(bn.text).toContain('<html lang="bn"');
    expect(bn.text).toContain('আবার স্বাগতম');
    const sw = await request(t.url).get('/login?lng=bn&from=/faq');
    expect(sw.status).toBe(303);
    expect(sw.headers.location).toBe('/login?from=%2Ffaq');
    expect(([] as string[]).concat(sw.headers['set-cookie'] ?? []).some((c) => c.startsWith('lang=bn;'))).toBe(true);
    const header = await request(t.url).get('/login').set('Accept-Language', 'bn-BD,bn;q=0.9').expect(200);
    expect(header.text).toContain('<html lang="bn"');
  });

  test('the first-visit language chooser shows until a language is chosen', async () => {
    expect((await request(t.url).get('/login')).text).toContain('lang-chooser-title');
    expect((await request(t.url).get('/login').set('Cookie', 'lang=en')).text).not.toContain('lang-chooser-title');
  });

  test('unknown pages are 404 with a page, legacy addresses redirect', async () => {
    const r = await request(t.url).get('/no-such-page').set('Cookie', 'lang=en');
    expect(r.status).toBe(404);
    expect(r.text).toContain('Page not found');
    const legacy = await request(t.url).get('/user/mylotteries');
    expect(legacy.status).toBe(301);
    expect(legacy.headers.location).toBe('/my-lotteries');
  });

  test('the back office entrance is for staff only', async () => {
    const visitor = await request(t.url).get('/admin/create-lottery');
    expect(visitor.headers.location).toBe('/login?from=%2Fadmin%2Fcreate-lottery');
    const u = await createUser(t);
    const player = await loginAs(t.url, u.phone, u.password);
    expect((await player.get('/admin/create-lottery')).headers.location).toBe('/login?from=%2Fadmin%2Fcreate-lottery');
    // The login page then lets him sign in with a staff account instead of sending him back (no loop).
    expect((await player.get('/login?from=%2Fadmin%2Fcreate-lottery').set('Cookie', 'lang=en').expect(200)).text).toContain(
      'name="password"',
    );
    expect((await player.get('/login?from=%2Fprofile')).headers.location).toBe('/profile');
    const s = await createUser(t, { is_staff: true });
    const staff = await loginAs(t.url, s.phone, s.password);
    expect((await staff.get('/admin/create-lottery').set('Cookie', 'lang=en').expect(200)).text).toContain('Back office');
  });
});
