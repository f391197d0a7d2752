/**
 * Journeys of the public lottery pages: picking numbers on the home page (an islands page) and in the
 * featured-lottery modal, with and without JavaScript, and a visitor led to log in and back to the ticket.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, hydrated, login, test } from './helpers.ts';

const TICKET_PATH = /\/quick-play\/\d+\/\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}$/;

const ball = (scope: Locator, name: 'main' | 'last', n: number) =>
  scope.locator('label.pick').filter({ has: scope.page().locator(`input[name="${name}"][value="${n}"]`) });

async function pick(scope: Locator, main: number[], last: number) {
  for (const n of main) await ball(scope, 'main', n).click();
  await ball(scope, 'last', last).click();
}

/**
 * The home page in English. With JavaScript, once its islands have hydrated: a number ticked before that would be
 * unticked again by the hydration.
 */
async function openHome(page: Page, js: boolean) {
  await page.goto('/?lng=en'); // also answers the first-visit language chooser
  await expect(page.locator('#quick-play form')).toBeVisible();
  if (js) await hydrated(page);
}

test.describe('with JavaScript', () => {
  test('quick play: the submit waits for 5 + 1 numbers, a 6th is refused, then the ticket page opens and leads to login and back', async ({
    page,
    player,
    javaScriptEnabled,
  }) => {
    await openHome(page, javaScriptEnabled);
    const panel = page.locator('#quick-play');
    const submit = panel.getByRole('button', { name: 'Confirm Selection & Play' });
    await expect(submit).toBeDisabled();
    await pick(panel, [3, 14, 27, 41, 55], 9);
    await expect(submit).toBeEnabled();
    await ball(panel, 'main', 8).click();
    await expect(panel.locator('input[name="main"]:checked')).toHaveCount(5);
    // choosing the last number again clears it (docs/rules/tickets.md#4-picking-numbers)
    await ball(panel, 'last', 9).click();
    await expect(submit).toBeDisabled();
    await ball(panel, 'last', 9).click();
    await submit.click();
    await expect(page).toHaveURL(/\/quick-play\/\d+\/03-14-27-41-55-09$/);
    await expect(page.locator('main')).toContainText('Saturday Mega Draw');

    const loginLink = page
      .locator('main')
      .getByRole('link', { name: /log in/i })
      .first();
    await expect(loginLink).toHaveAttribute('href', /^\/login\?from=%2Fquick-play%2F\d+%2F03-14-27-41-55-09$/);
    await loginLink.click();
    await expect(page).toHaveURL(/\/login\?from=/);
    await login(page, { identifier: player.phone, password: player.password, name: player.name });
    await expect(page).toHaveURL(/\/quick-play\/\d+\/03-14-27-41-55-09$/);
    await expect(page.locator('main')).toContainText(player.phone);
  });

  test('Easy Pick fills five main numbers and a last number after its reveal', async ({ page, javaScriptEnabled }) => {
    await openHome(page, javaScriptEnabled);
    const panel = page.locator('#quick-play');
    await panel.getByRole('button', { name: 'Easy Pick' }).click();
    await expect(panel.locator('input[name="main"]:checked')).toHaveCount(5);
    await expect(panel.locator('input[name="last"]:checked')).toHaveCount(1);
    await expect(panel.getByRole('button', { name: 'Confirm Selection & Play' })).toBeEnabled();
    await panel.getByRole('button', { name: 'Clear' }).click();
    await expect(panel.locator('input:checked')).toHaveCount(0);
  });

  test('a featured card opens the picker modal, Escape closes it, Confirm goes to the ticket', async ({ page, javaScriptEnabled }) => {
    await openHome(page, javaScriptEnabled);
    const card = page
      .locator('#featured a, #featured button')
      .filter({ hasText: /pick your numbers/i })
      .first();
    await card.click();
    const dialog = page.locator('dialog[open]');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog[open]')).toHaveCount(0);
    await card.click();
    await pick(page.locator('dialog[open]'), [1, 2, 3, 4, 5], 15);
    await page
      .locator('dialog[open]')
      .getByRole('button', { name: /confirm/i })
      .click();
    await expect(page).toHaveURL(TICKET_PATH);
    await expect(page).toHaveURL(/01-02-03-04-05-15$/);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the picker is a plain form: an incomplete choice is answered by the server, a complete one opens the ticket', async ({
    page,
    javaScriptEnabled,
  }) => {
    await openHome(page, javaScriptEnabled);
    const panel = page.locator('#quick-play');
    for (const n of [7, 17, 27]) await panel.locator(`input[name="main"][value="${n}"]`).check({ force: true });
    await panel.getByRole('button', { name: 'Confirm Selection & Play' }).click();
    await expect(page.locator('main')).toContainText('Please select at least 5 numbers.');
    await expect(page.locator('main')).toContainText('Please select a last number.');
    const form = page
      .locator('main form')
      .filter({ has: page.locator('input[name="main"]') })
      .first();
    await expect(form.locator('input[name="main"]:checked')).toHaveCount(3); // the choice is kept
    for (const n of [37, 47]) await form.locator(`input[name="main"][value="${n}"]`).check({ force: true });
    await form.locator('input[name="last"][value="4"]').check({ force: true });
    await form.getByRole('button', { name: /quick play|confirm/i }).click();
    await expect(page).toHaveURL(/\/quick-play\/\d+\/07-17-27-37-47-04$/);
  });
});

test('a plain visit to /quick-play opens the picker of the featured lottery, as the home page does', async ({
  page,
  javaScriptEnabled,
}) => {
  await openHome(page, javaScriptEnabled);
  const featured = (await page.locator('#quick-play .qp__name').textContent())?.trim() ?? '';
  expect(featured).not.toBe('');
  const res = await page.goto('/quick-play');
  expect(res?.status()).toBe(200);
  await expect(page.locator('main h1')).toHaveText('Pick your numbers');
  await expect(page.locator('main .play-lottery__name')).toHaveText(featured);
  await expect(page.locator('main [role="alert"]')).toHaveCount(0);
  await hydrated(page);
  const panel = page.locator('main .play-card--picker');
  await pick(panel, [3, 14, 27, 41, 55], 9);
  await panel.getByRole('button', { name: 'Confirm Selection & Play' }).click();
  await expect(page).toHaveURL(/\/quick-play\/\d+\/03-14-27-41-55-09$/);
  await expect(page.locator('main')).toContainText(featured);
});
