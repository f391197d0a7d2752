/**
 * Shared pieces of the browser journeys: unique players, the one-time codes the server writes to its log
 * (NOTIFY_TRANSPORT=log, captured to a file by playwright.config.ts), login, and a `test` that fails on
 * page errors and attaches the server's log to a failed test.
 */
import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { LANG_COOKIE } from '../../shared/i18n.ts';

export { expect };

/** Where the server's stdout goes (set by playwright.config.ts for the runner and its workers). */
export function serverLogPath(): string {
  const p = process.env.E2E_SERVER_LOG;
  if (!p) throw new Error('E2E_SERVER_LOG is not set: run the journeys through playwright.config.ts (npm run test:e2e)');
  return p;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type CodeLine = { to?: unknown; purpose?: unknown; code?: unknown };

/**
 * The newest one-time code the server sent to `to` for `purpose`: polls the server log for the last JSON line
 * with those `to` and `purpose` fields (other lines, JSON or not, are skipped). When `after` is given, only a
 * code different from it counts (e.g. the code of a resend). Throws after `timeoutMs`.
 */
export async function readCode(
  to: string,
  purpose: 'account' | 'reset' | 'claim',
  opts: { timeoutMs?: number; after?: string } = {},
): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const lines = readFileSync(serverLogPath(), 'utf8').split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]?.trim();
      if (!line?.startsWith('{')) continue;
      let entry: CodeLine;
      try {
        entry = JSON.parse(line) as CodeLine;
      } catch {
        continue;
      }
      if (entry.to === to && entry.purpose === purpose && typeof entry.code === 'string') {
        if (opts.after === undefined || entry.code !== opts.after) return entry.code;
        break;
      }
    }
    if (Date.now() > deadline) throw new Error(`no '${purpose}' code for ${to} in the server log ${serverLogPath()}`);
    await sleep(200);
  }
}

/** A Bangladeshi mobile number nobody else in this run has: 017 + 8 random digits. */
export function uniquePhone(): string {
  return `017${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export type NewPlayer = {
  firstName: string;
  lastName: string;
  name: string;
  email: string;
  phone: string;
  password: string;
  location: string;
  /** `YYYY-MM-DD`, an adult's. */
  dateOfBirth: string;
};

/** A fresh, unique player (not yet registered). */
export function newPlayer(): NewPlayer {
  const phone = uniquePhone();
  const firstName = 'Rahim';
  const lastName = `Uddin${phone.slice(-4)}`;
  return {
    firstName,
    lastName,
    name: `${firstName} ${lastName}`,
    email: `player.${phone}@example.com`,
    phone,
    password: `Shapla-${phone.slice(-5)}!`,
    location: 'Dhaka',
    dateOfBirth: '1995-06-15',
  };
}

/**
 * The journeys' one login: through the login form (works with and without JavaScript, at any screen width), then
 * waits for the page after the login page and the logged-in top bar (on a phone the user's name is inside the closed
 * menu: attached, not visible), and for `name` in it when given. Stays on the login page when already there (after
 * verification, or sent there with ?from=, which the login then follows); otherwise opens it, in English unless the
 * browser context already chose a language (useLanguage in tests/e2e/pages.ts): ?lng=en also answers the first-visit
 * language chooser, which would otherwise cover the form.
 */
export async function login(page: Page, who: { identifier: string; password: string; name?: string }): Promise<void> {
  if (new URL(page.url(), 'http://x').pathname !== '/login') {
    const chosen = (await page.context().cookies(process.env.E2E_BASE_URL)).some((c) => c.name === LANG_COOKIE);
    await page.goto(chosen ? '/login' : '/login?lng=en');
  }
  const form = page.locator('main form').filter({ has: page.locator('input[name="phone"]') });
  await form.locator('input[name="phone"]').fill(who.identifier);
  await form.locator('input[name="password"]').fill(who.password);
  await form.locator('[type="submit"]').click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await expect(page.locator('.nav-user__name')).toBeAttached();
  if (who.name) await expect(page.locator('.nav-user__name')).toHaveText(who.name);
}

/**
 * Waits until React has hydrated the page, every island of an islands page (client/hydrated.tsx marks
 * `<html data-hydrated>`): a click before that is a plain link or form, which goes to the page's no-JavaScript version
 * instead of opening a dialog, and a number ticked before it is unticked again by the hydration.
 */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
}

/** Cookies the page's own scripts can read: the session must never be among them (HttpOnly). */
export async function scriptVisibleCookies(page: Page): Promise<string> {
  return page.evaluate(() => document.cookie);
}

/** A verified player made through the accounts API (fast), for journeys that are not about registering. */
export async function createPlayer(request: APIRequestContext): Promise<NewPlayer> {
  const p = newPlayer();
  const signup = await request.post('/api/v1/signup/', {
    data: { name: p.name, email: p.email, phone: p.phone, password: p.password, date_of_birth: p.dateOfBirth, location: p.location },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const verify = await request.post('/api/v1/verify-otp/', { data: { identifier: p.phone, otp: await readCode(p.phone, 'account') } });
  expect(verify.ok(), await verify.text()).toBe(true);
  return p;
}

/** A client address of 10.x.x.x for one test. */
const randomClientIp = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/**
 * `test` of every journey:
 * - each test is its own client: the server trusts X-Forwarded-For from loopback (as behind the production
 *   proxy), so a per-test address keeps the per-IP rate limits (20 sign-ups an hour…) from coupling tests;
 * - an uncaught error or a console.error in the page fails the test (hydration mismatches, CSP violations,
 *   broken islands), and so does a page file (script, style, font, image) that does not load;
 * - a failed test carries the server's log lines written while it ran;
 * - `player`: a verified account, not logged in.
 */
export const test = base.extend<{ pageErrors: string[]; player: NewPlayer }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': randomClientIp() });
  },
  player: async ({ request }, use) => {
    await use(await createPlayer(request));
  },
  pageErrors: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      page.on('console', (m) => {
        // A 4xx answer to a form submit (a validation error the page shows) is logged by Chromium itself.
        if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
          errors.push(`console.error: ${m.text()}`);
      });
      page.on('response', (r) => {
        const type = r.request().resourceType();
        if (r.status() >= 400 && ['script', 'stylesheet', 'font', 'image'].includes(type))
          errors.push(`${type} ${r.url()}: HTTP ${r.status()}`);
      });
      let logStart = 0;
      try {
        logStart = statSync(serverLogPath()).size;
      } catch {
        /* no log yet */
      }
      await use(errors);
      if (testInfo.status !== testInfo.expectedStatus) {
        try {
          const log = readFileSync(serverLogPath()).subarray(logStart).toString('utf8');
          await testInfo.attach('server.log', { body: log, contentType: 'text/plain' });
        } catch {
          /* the log is gone */
        }
      }
      expect(errors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
