/**
 * Editing the profile (docs/rules/accounts-and-codes.md#11-profile) in its dialog with JavaScript and as a plain
 * page without, and the identity details of /payment/system (#13-identity-details) with the NID photos as file
 * inputs, then bKash leading to the real purchase flow; "log out everywhere" (#10-sessions) ends the edit journey. The form posts themselves are covered by
 * tests/api/profile-pages.test.ts.
 */
import { axeFindings } from './axe.ts';
import type { Page } from '@playwright/test';
import { expect, hydrated, login, test, uniquePhone } from './helpers.ts';

/** A real 1×1 PNG, as a phone camera's photo would be a JPEG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const photo = (name: string) => ({ name: `${name}.png`, mimeType: 'image/png', buffer: PNG });

async function editProfile(page: Page, o: { dialog: boolean }) {
  await page.goto('/profile?lng=en');
  // With JavaScript, the link opens the dialog in place once React has hydrated the page; a click before that loads
  // /profile/edit whole, and an Escape pressed before that page hydrates closes nothing.
  if (o.dialog) await hydrated(page);
  await page.getByRole('link', { name: 'Edit Profile' }).click();
  await expect(page).toHaveURL(/\/profile\/edit$/);
  const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
  await expect(dialog).toBeVisible();
  if (o.dialog) {
    // With JavaScript the dialog is modal: Escape closes it and the address goes back to /profile.
    await expect(page.locator('dialog:modal')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(dialog).toBeHidden();
    await page.getByRole('link', { name: 'Edit Profile' }).click();
    await expect(dialog).toBeVisible();
  }
  return dialog;
}

for (const js of [true, false]) {
  test.describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled: js });

    test('the player edits his profile: messages under the fields, then a confirmation and the new values', async ({ page, player }) => {
      await login(page, { identifier: player.phone, password: player.password, name: player.name });
      const dialog = await editProfile(page, { dialog: js });

      // Errors come back under their fields.
      await dialog.getByLabel('E-mail address').fill('rahim@');
      await dialog.getByLabel('Phone number').fill('01712');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog).toContainText('Please enter a valid email address');
      await expect(dialog).toContainText('Phone number must be 11 digits (e.g., 01712345678)');
      await expect(dialog).toContainText('Current Password is required');

      // A wrong current password.
      const phone = uniquePhone();
      const email = `edited.${phone}@example.com`;
      await dialog.getByLabel('Name').fill(`Rahim Edited${phone.slice(-3)}`);
      await dialog.getByLabel('E-mail address').fill(email);
      await dialog.getByLabel('Phone number').fill(phone);
      await dialog.getByLabel('Current password').fill('not-my-password');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(dialog).toContainText('Invalid password. Please enter your current password.');

      // The right one, with a new picture.
      await dialog.getByLabel('Name').fill(`Rahim Edited${phone.slice(-3)}`);
      await dialog.getByLabel('E-mail address').fill(email);
      await dialog.getByLabel('Phone number').fill(phone);
      await dialog.getByLabel('Profile picture').setInputFiles(photo('me'));
      await dialog.getByLabel('Current password').fill(player.password);
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await expect(page).toHaveURL(/\/profile\?updated=1$/);
      // A toast with JavaScript, a status message in the page without.
      await expect(page.getByRole('status').filter({ hasText: 'Your profile has been updated.' })).toBeVisible();
      const card = page.locator('.profile');
      await expect(card).toContainText(`Rahim Edited${phone.slice(-3)}`);
      await expect(card).toContainText(email);
      await expect(card).toContainText(phone);
      await expect(card.locator('img.profile__avatar')).toBeVisible();

      // "Log out everywhere" asks first, then ends every session, this one too (docs/rules/accounts-and-codes.md#10-sessions).
      await page.getByRole('button', { name: 'Log out everywhere' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Log out on every phone and computer, this one too?' });
      await expect(confirm).toContainText('You will need your password to log in again.');
      await confirm.getByRole('button', { name: 'Yes, log out everywhere' }).click();
      await expect(page).toHaveURL(/\/login\?notice=loggedOutEverywhere$/);
      await expect(page.getByText('You have been logged out on every phone and computer.')).toBeVisible();
      await page.goto('/profile');
      await expect(page).toHaveURL(/\/login\?from=%2Fprofile$/);
    });
  });
}

test('the edit dialog passes axe and fits a 360 px phone', async ({ page, player }) => {
  await login(page, { identifier: player.phone, password: player.password, name: player.name });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/profile/edit?lng=en');
  await expect(page.getByRole('dialog', { name: 'Edit Profile' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeFindings(page, { all: true })).toEqual([]);
});

for (const js of [true, false]) {
  test.describe(`/payment/system ${js ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });

    test('NID, both photos from file inputs and phone; then bKash leads back to the ticket', async ({ page, player }) => {
      await login(page, { identifier: player.phone, password: player.password, name: player.name });
      const from = '/all-lotteries';
      await page.goto(`/payment/system?lng=en&from=${encodeURIComponent(from)}`);
      const main = page.locator('main');
      const front = main.getByLabel('Front of the NID card');
      await expect(front).toHaveAttribute('type', 'file');
      await expect(front).toHaveAttribute('accept', 'image/*');
      await expect(front).toHaveAttribute('capture', 'environment');

      await main.getByRole('button', { name: 'Save and continue' }).click();
      await expect(main).toContainText('Please fill in all the fields before proceeding');

      await main.getByLabel('NID number').fill('12345');
      await main.getByLabel('Front of the NID card').setInputFiles(photo('front'));
      await main.getByLabel('Back of the NID card').setInputFiles(photo('back'));
      await main.getByLabel('Phone number').fill('0171');
      await main.getByRole('button', { name: 'Save and continue' }).click();
      await expect(main).toContainText('Invalid NID number');
      await expect(main).toContainText('Invalid phone number');

      await main.getByLabel('NID number').fill('1990 2611 2345 67890');
      // The browser cannot keep chosen files across a page the server answered: choose them again.
      await main.getByLabel('Front of the NID card').setInputFiles(photo('front'));
      await main.getByLabel('Back of the NID card').setInputFiles(photo('back'));
      await main.getByLabel('Phone number').fill(player.phone);
      await main.getByRole('button', { name: 'Save and continue' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your identity details have been saved.' })).toBeVisible();
      await expect(main).toContainText('NID number ending in 7890');
      await expect(main.getByRole('img', { name: 'Your photo of the front of your NID card' })).toBeVisible();

      await expect(main.getByRole('radio', { name: 'bKash' })).toBeChecked();
      await expect(main.getByRole('radio', { name: /Nagad/ })).toBeDisabled();
      await expect(main.getByRole('radio', { name: /Rocket/ })).toBeDisabled();
      await main.getByRole('button', { name: 'Continue with bKash' }).click();
      await expect(page).toHaveURL(new RegExp(`${from}$`));
    });
  });
}
