/**
 * Account journeys in a real browser: register → the code the server sent signs in → switch language → log out, in
 * English and in Bengali (back to the page he came from); the same with JavaScript switched off (plain form posts,
 * server-rendered errors, under 18 refused); and a wrong code that must not let anybody in.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, login, newPlayer, readCode, scriptVisibleCookies, test, type NewPlayer } from './helpers.ts';

const SESSION_COOKIE = 'bh_session';

/** The first visit shows the language chooser; picking English closes it and sets the page's language. */
async function chooseEnglishOnFirstVisit(page: Page) {
  await page.goto('/');
  const chooser = page.getByRole('dialog');
  await expect(chooser).toBeVisible();
  await chooser.locator('a.chooser-option').filter({ hasText: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('a.chooser-option')).toHaveCount(0);
}

async function openRegistration(page: Page) {
  await page.locator('header').getByRole('link', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/register(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
}

async function fillRegistration(page: Page, p: NewPlayer, skip: Partial<Record<keyof NewPlayer, true>> = {}) {
  const set = async (label: string, value: string, key: keyof NewPlayer) =>
    page.getByLabel(label, { exact: true }).fill(skip[key] ? '' : value);
  await set('First name', p.firstName, 'firstName');
  await set('Last name', p.lastName, 'lastName');
  await set('Phone number', p.phone, 'phone');
  await set('Email address', p.email, 'email');
  await set('Password', p.password, 'password');
  await set('Date of birth', p.dateOfBirth, 'dateOfBirth');
  await set('Location', p.location, 'location');
}

/** Submits the registration form and checks the verification page it leads to; returns the identifier. */
async function submitRegistration(page: Page, p: NewPlayer): Promise<string> {
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/verify-otp\?/);
  const identifier = new URL(page.url()).searchParams.get('identifier');
  expect(identifier, "the verification page carries the new account's identifier").toBe(p.phone);
  await expect(
    page.getByText('Registration successful. Please check your email or phone for an OTP to activate your account.'),
  ).toBeVisible();
  return identifier as string;
}

async function enterCode(page: Page, code: string) {
  await page.locator('input[name="otp"]').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

/** A real 2×2 PNG, as a phone camera would hand over a (much larger) picture. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADklEQVQImWP4DwYMEAoAU7oL9W/sIDEAAAAASUVORK5CYII=',
  'base64',
);

/** Registration with a profile picture: the product stores it and the profile page shows it to its owner. */
async function registerWithPicture(page: Page) {
  const p = newPlayer();
  await page.goto('/register?lng=en');
  await fillRegistration(page, p);
  await page.locator('input[name="picture"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await verifyAndLogIn(page, p);
  await page.goto('/profile');
  const img = page.locator('img.profile__avatar');
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(2);
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
}

/** Submits the filled registration and enters the logged code: signed in at once, the player lands on home. */
async function verifyAndLogIn(page: Page, p: NewPlayer) {
  const identifier = await submitRegistration(page, p);
  await enterCode(page, await readCode(identifier, 'account'));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('.nav-user__name')).toHaveText(p.name);
}

test.describe('with JavaScript', () => {
  test('registration with a profile picture stores it and the profile page shows it', async ({ page }) => {
    await registerWithPicture(page);
  });

  test('a new player registers, verifies the code, logs in, switches to Bengali and logs out', async ({ page, context }) => {
    const p = newPlayer();
    await chooseEnglishOnFirstVisit(page);

    await openRegistration(page);
    await fillRegistration(page, p);
    await verifyAndLogIn(page, p);
    const cookie = await sessionCookie(context);
    expect(cookie, 'a session cookie was set').toBeTruthy();
    expect(cookie?.httpOnly, 'the session cookie is HttpOnly').toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await scriptVisibleCookies(page)).not.toContain(SESSION_COOKIE);

    // Bengali: the whole page is rendered again by the server in the other language.
    await page.locator('a.lang-switch').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
    await expect(page.locator('a.lang-switch')).toHaveText('English');
    await expect(page.locator('header nav')).toContainText(/[\u0980-\u09FF]{2,}/);
    await expect(page.locator('.nav-user__name')).toHaveText(p.name);

    await page.locator('header form[action="/logout"]').getByRole('button').click();
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(page.locator('.nav-user__name')).toHaveCount(0);
    expect(await sessionCookie(context), 'the session cookie is gone after logout').toBeUndefined();

    // Logged out for real: a page that needs a session sends us to the login page.
    await page.goto('/my-lotteries');
    await expect(page).toHaveURL(/\/login(\?|$)/);
  });

  test('in Bengali, from a page: register, the code signs in and brings him back to it', async ({ page, context }) => {
    const p = newPlayer();
    await page.goto('/faq?lng=bn');
    await page.goto(`/register?from=${encodeURIComponent('/faq')}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'bn');
    await expect(page.locator('main').getByRole('link', { name: 'শর্তাবলি' })).toHaveAttribute('href', '/terms-conditions');
    const set = (label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);
    await set('নামের প্রথম অংশ', p.firstName);
    await page.locator('input[name="lastName"]').fill(p.lastName);
    await page.locator('input[name="phone"]').fill(p.phone);
    await page.locator('input[name="password"]').fill(p.password);
    await set('জন্মতারিখ', p.dateOfBirth);
    await page.getByRole('button', { name: 'নিবন্ধন করুন', exact: true }).click();
    await expect(page).toHaveURL(/\/verify-otp\?/);
    await expect(page.getByText('৬ অঙ্কের কোড', { exact: true })).toBeVisible();
    await page.locator('input[name="otp"]').fill(await readCode(p.phone, 'account'));
    await page.getByRole('button', { name: 'যাচাই করুন', exact: true }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.locator('.nav-user__name')).toHaveText(p.name);
    expect((await sessionCookie(context))?.httpOnly).toBe(true);
  });

  test('a wrong verification code shows an error and does not log in', async ({ page, context }) => {
    const p = newPlayer();
    await page.goto('/register?lng=en');
    await fillRegistration(page, p);
    const identifier = await submitRegistration(page, p);

    const code = await readCode(identifier, 'account');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await enterCode(page, wrong);

    await expect(page.getByText('The code is not correct. Please check it and try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/verify-otp\?/);
    await expect(page.locator('.nav-user__name')).toHaveCount(0);
    expect(await sessionCookie(context)).toBeUndefined();

    // The account is still not active: logging in leads back to the verification page, not into the site.
    await page.goto('/login?lng=en');
    await page.locator('input[name="phone"]').fill(p.phone);
    await page.locator('input[name="password"]').fill(p.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/verify-otp\?/);
    await expect(page.getByText('User is not active, please verify OTP')).toBeVisible();
    await expect(page.locator('.nav-user__name')).toHaveCount(0);
    expect(await sessionCookie(context)).toBeUndefined();
  });
});

test('a verified player logs in with the e-mail address instead of the phone number', async ({ page, context, player }) => {
  await login(page, { identifier: player.email.toUpperCase(), password: player.password, name: player.name });
  await expect(page).toHaveURL(/\/$/);
  expect((await sessionCookie(context))?.httpOnly).toBe(true);
});

test('a wrong password is refused with its message and no session', async ({ page, context, player }) => {
  await page.goto('/login?lng=en');
  await page.locator('input[name="phone"]').fill(player.phone);
  await page.locator('input[name="password"]').fill(`${player.password}x`);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials');
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await expect(page.locator('.nav-user__name')).toHaveCount(0);
  expect(await sessionCookie(context)).toBeUndefined();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('registration with a profile picture works as a multipart form post', async ({ page }) => {
    await registerWithPicture(page);
  });

  test('registration, verification and login work as plain form posts with server-rendered errors', async ({ page, context }) => {
    const p = newPlayer();
    await chooseEnglishOnFirstVisit(page);
    await openRegistration(page);

    // A required field left empty: the server answers with the form again and its message.
    await fillRegistration(page, p, { firstName: true });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page).toHaveURL(/\/register(\?|$)/);
    await expect(page.getByRole('alert')).toHaveText('Please fill all the required fields');
    await expect(page.getByLabel('First name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Last name', { exact: true }), 'what was typed is kept').toHaveValue(p.lastName);

    // Under 18 on the day: refused under the field, nothing made.
    await fillRegistration(page, { ...p, dateOfBirth: `${new Date().getUTCFullYear() - 15}-06-15` });
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect(page).toHaveURL(/\/register(\?|$)/);
    await expect(page.getByText('You must be 18 or older to register. Bhagya is for adults only.')).toBeVisible();
    await expect(page.getByLabel('Date of birth', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await fillRegistration(page, p);
    await verifyAndLogIn(page, p);
    const cookie = await sessionCookie(context);
    expect(cookie?.httpOnly, 'the session cookie is HttpOnly').toBe(true);
  });
});
