/** The bKash simulator's pages as a player goes through them (scripts/bkash-simulator, docs/rules/bkash.md). */
import type { Page } from '@playwright/test';
import { expect } from './helpers.ts';

/** bKash's published sandbox values, which the simulator accepts (docs/rules/bkash.md). */
export const SANDBOX = { wallet: '01770618575', code: '123456', pin: '12121' };

/** On the simulator's pages, asking for `amount`: wallet, code, PIN, each confirmed. */
export async function payOnBkash(page: Page, amount: RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/_bkash\/checkout\//);
  await expect(page.locator('body')).toContainText(amount);
  for (const [label, value] of [
    [/Your bKash account number/, SANDBOX.wallet],
    [/Verification code/, SANDBOX.code],
    [/Your bKash PIN/, SANDBOX.pin],
  ] as const) {
    await page.getByLabel(label).fill(value);
    await page.getByRole('button', { name: /^Confirm/ }).click();
  }
}
