/**
 * The back office (docs/rules/pages.md#9-back-office) with JavaScript: staff create a lottery with its English and
 * Bengali names, find it in the list, publish and feature it from the edit form, and players see it in their
 * language. Every back-office page fitting a 360 px phone and a 1280 px desktop in both languages, axe clean at both, is
 * every-page.spec.ts's staff journey. The no-JS form posts are covered by tests/api/admin-pages.test.ts.
 */
import { expect, login, test } from './helpers.ts';
import { STAFF, useLanguage } from './pages.ts';

for (const [js, lng] of [
  [true, 'en'],
  [false, 'bn'],
] as const)
  test.describe(`${js ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });
    test(`staff land on the dashboard after login (${lng})`, async ({ page }) => {
      await useLanguage(page, lng);
      await login(page, STAFF);
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
      await expect(page.locator('h1')).toHaveText(lng === 'bn' ? 'ড্যাশবোর্ড' : 'Dashboard');
    });
  });

test('staff create a lottery in both languages, publish and feature it; players see it in their language', async ({ page, request }) => {
  await useLanguage(page, 'en');
  await login(page, STAFF);
  await page.goto('/admin/create-lottery');
  const form = page.locator('form.admin-form');
  // The defaults of a new lottery.
  await expect(form.getByLabel('Number of winners')).toHaveValue('1');
  await expect(form.getByLabel('Ticket price (৳)')).toHaveValue('100');
  await expect(form.getByLabel('Total prize (৳)')).toHaveValue('1000');
  const name = `Meghna ${Date.now() % 100000}`;
  await form.getByRole('button', { name: 'Create lottery' }).click();
  await expect(form.locator('.field__error').first()).toContainText('This field is required');
  await form.getByLabel('Name (English)').fill(name);
  await form.getByLabel('Name (Bengali)').fill('মেঘনা ড্র');
  await form.getByLabel('Total prize (৳)').fill('250000');
  await form.getByRole('button', { name: 'Create lottery' }).click();

  // Staff are shown the new lottery, the line above its form; then it is in the list.
  await expect(page).toHaveURL(/\/admin\/lotteries\/\d+\/edit\?notice=created$/);
  await expect(page.locator('.alert--success')).toHaveText('The lottery was created.');
  await expect(page.locator('form.admin-form').getByLabel('Name (English)')).toHaveValue(name);
  await page.goto('/admin/lotteries');
  await page.getByLabel('Search by name or description').fill(name);
  await page.getByRole('button', { name: 'Apply' }).click();
  const card = page.locator('.admin-card').filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Inactive');
  await expect(card).toContainText('TK. 250,000');
  await card.getByRole('link', { name: 'Edit' }).click();

  await expect(page).toHaveURL(/\/admin\/lotteries\/\d+\/edit$/);
  const id = Number(page.url().split('/').at(-2));
  const edit = page.locator('form.admin-form');
  await expect(edit.getByLabel('Name (English)')).toHaveValue(name);
  await edit.getByLabel('Published (players can see it)').check();
  await edit.getByLabel('Featured (on the home page)').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('.toasts--top-right')).toContainText('The lottery was saved.');

  // Players see it, named in their language.
  const en = await request.get(`/api/v1/get-lottery/${id}/`);
  expect(en.ok()).toBe(true);
  expect(await en.json()).toMatchObject({ name, name_bn: 'মেঘনা ড্র', published: true, featured: true, total_prize: 250000 });
  await useLanguage(page, 'bn');
  await page.goto('/all-lotteries');
  await expect(page.locator('main')).toContainText('মেঘনা ড্র');
});

test('a player is sent to login from the back office', async ({ page, player }) => {
  await useLanguage(page, 'en');
  await page.goto('/admin/lotteries');
  await expect(page).toHaveURL(/\/login\?from=%2Fadmin%2Flotteries$/);
  // Logged in from the home page: a login that followed ?from= would land on that login page again.
  await page.goto('/');
  await login(page, { identifier: player.phone, password: player.password });
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/login\?from=%2Fadmin%2Fdashboard$/);
});
