/**
 * The installable app (docs/rules/app.md) in Chromium: the manifest and its icons in both languages, the service
 * worker that takes the page, My Lotteries offline after a visit (and gone after logout), the back office never
 * offline, and the back button closing the home page's number picker in the installed app.
 *
 * The installed app's display mode cannot be set from outside (Chromium ignores `display-mode` in CDP's emulated media
 * and in --app windows): the journey answers `matchMedia('(display-mode: standalone)')` with true from an init
 * script, so the page's own code (views/components/close-on-back.ts) runs as it does in the installed app, and
 * without it as in a tab.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, hydrated, login, test } from './helpers.ts';
import { STAFF } from './pages.ts';

// The journeys about the service worker: it is blocked in the others (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** Width × height of a PNG, from its IHDR chunk. */
const pngSize = (b: Buffer) => `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;

/** Waits until the service worker controls the page (it takes the page it was installed from: clients.claim). */
async function controlled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Whether the worker keeps a copy of this address (its kept pages, client/sw.ts). */
const kept = (page: Page, address: string) =>
  page.evaluate((a) => caches.open('bhagya-pages').then((c) => c.match(a).then((r) => r !== undefined)), address);

/** Offline: reloads the page as the browser does when the network is gone. */
async function reloadOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.reload();
}

test('the manifest of each language, with icons that load, is linked from the pages of that language', async ({ page, request }) => {
  for (const [lng, name] of [
    ['en', 'Bhagya'],
    ['bn', 'ভাগ্য'],
  ] as const) {
    await page.goto(`/faq?lng=${lng}`);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe(`/manifest.${lng}.webmanifest`);
    const res = await request.get(href as string);
    expect(res.headers()['content-type']).toContain('application/manifest+json');
    const m = (await res.json()) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(m).toMatchObject({ name, start_url: '/', display: 'standalone' });
    for (const icon of m.icons.filter((i) => i.type === 'image/png')) {
      const r = await request.get(icon.src);
      expect(r.status()).toBe(200);
      expect(r.headers()['content-type']).toBe('image/png');
      expect(pngSize(await r.body())).toBe(icon.sizes);
    }
  }
});

test("Chromium's install criteria are met: the manifest reads without errors, nothing stands in the way", async ({ page, context }) => {
  await page.goto('/?lng=bn');
  await controlled(page);
  const cdp = await context.newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest');
  expect(manifest.url).toMatch(/\/manifest\.bn\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
  // A Playwright context is an incognito one, which Chromium never installs from: that reason alone may remain.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
});

test('"Install the app" shows only when the browser offers to install, and asks the browser once', async ({ page }) => {
  await page.goto('/?lng=bn');
  const button = page.getByRole('button', { name: 'অ্যাপ ইনস্টল করুন' });
  await expect(button).toBeHidden();
  // The browser's offer (Chromium does not make one in a Playwright context, which is incognito): an event like it.
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: () => {
        (window as unknown as { prompted: number }).prompted = ((window as unknown as { prompted?: number }).prompted ?? 0) + 1;
        return Promise.resolve();
      },
    });
    window.dispatchEvent(offer);
  });
  await button.click();
  expect(await page.evaluate(() => (window as unknown as { prompted?: number }).prompted)).toBe(1);
  await expect(button).toBeHidden();
});

test('the service worker registers and controls the page, again after a reload', async ({ page }) => {
  await page.goto('/?lng=en');
  await controlled(page);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
  // The shell is kept: the stylesheet the page uses is in this version's cache.
  const css = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
  expect(
    await page.evaluate(
      (href) =>
        caches
          .keys()
          .then((names) =>
            Promise.any(
              names.map((n) =>
                caches
                  .open(n)
                  .then((c) => c.match(href!))
                  .then((r) => r ?? Promise.reject()),
              ),
            ),
          )
          .then(
            () => true,
            () => false,
          ),
      css,
    ),
  ).toBe(true);
});

test('offline, My Lotteries is the copy of the last visit with its banner, until the player logs out', async ({
  page,
  context,
  player,
}) => {
  await page.goto('/?lng=en');
  await controlled(page);
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.goto('/my-lotteries');
  await expect(page.getByRole('heading', { level: 1, name: 'My tickets' })).toBeVisible();
  await expect.poll(() => kept(page, '/my-lotteries')).toBe(true);

  await reloadOffline(context, page);
  await expect(page.locator('.offline-banner')).toHaveText(/^Offline — last updated \d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} [AP]M$/);
  await expect(page.locator('.offline-banner')).toBeInViewport();
  await expect(page.getByRole('heading', { level: 1, name: 'My tickets' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-offline', '');
  // A page never kept (his profile) is the offline page.
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();

  // Online again: the network's page, no banner (never a kept copy while online).
  await context.setOffline(false);
  await page.goto('/my-lotteries');
  await expect(page.getByRole('heading', { level: 1, name: 'My tickets' })).toBeVisible();
  await expect(page.locator('.offline-banner')).toHaveCount(0);

  // Logging out takes his copies away at once.
  await page.locator('header form[action="/logout"]').getByRole('button').click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await expect.poll(() => kept(page, '/my-lotteries')).toBe(false);
  await context.setOffline(true);
  await page.goto('/my-lotteries');
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.locator('main')).not.toContainText('My tickets');
});

test('the back office is never served offline', async ({ page, context }) => {
  await page.goto('/?lng=en');
  await controlled(page);
  await login(page, STAFF);
  await page.goto('/admin/dashboard');
  await expect(page.locator('main')).toBeVisible();
  expect(await kept(page, '/admin/dashboard')).toBe(false);
  await reloadOffline(context, page);
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.locator('.offline-banner')).toHaveCount(0);
});

/** The home page's first card's number picker: opened in place (no address change), as a tap on it does. */
async function openPicker(page: Page) {
  await page.goto('/faq?lng=en');
  await page.goto('/');
  await expect(page.locator('html[data-hydrated], #featured [data-island]').first()).toBeAttached();
  const card = page
    .locator('#featured a, #featured button')
    .filter({ hasText: /pick your numbers/i })
    .first();
  await expect(async () => {
    await card.click();
    await expect(page.locator('dialog[open]')).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(page).toHaveURL(/\/$/);
}

/** The page's `matchMedia('(display-mode: standalone)')` answers true, as in the installed app (see the top). */
async function asInstalledApp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      q === '(display-mode: standalone)' ? ({ ...real(q), matches: true, media: q } as MediaQueryList) : real(q);
  });
}

test.describe('the back button', () => {
  test('in the installed app, back closes the number picker and stays on the page; back again leaves it', async ({ page }) => {
    await asInstalledApp(page);
    await openPicker(page);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.goBack();
    await expect(page.locator('dialog[open]')).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    // The same page, not loaded again.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await page.goBack();
    await expect(page).toHaveURL(/\/faq$/);
  });

  test('in the installed app, back closes the activation dialog of My Lotteries without loading the page again', async ({
    page,
    player,
  }) => {
    await asInstalledApp(page);
    await login(page, { identifier: player.phone, password: player.password, name: player.name });
    await page.goto('/faq');
    await page.goto('/my-lotteries');
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    const loads: string[] = [];
    page.on('request', (r) => loads.push(r.url()));
    await page.getByRole('link', { name: 'Activate ticket' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/my-lotteries$/);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // The router did not take the step back for a navigation: no data asked for again.
    expect(loads.filter((u) => u.includes('/bff/'))).toEqual([]);
    // Closed by its button instead: its history entry goes too, and back leaves the page.
    await page.getByRole('link', { name: 'Activate ticket' }).click();
    await expect(dialog).toBeVisible();
    await dialog.locator('.dialog__close').click();
    await expect(dialog).toBeHidden();
    await page.goBack();
    await expect(page).toHaveURL(/\/faq$/);
  });

  test('in a browser tab, back is the browser’s: it leaves the page with the picker open', async ({ page }) => {
    await openPicker(page);
    await page.goBack();
    await expect(page).toHaveURL(/\/faq$/);
  });
});
