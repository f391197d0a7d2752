/**
 * A prize paid by bKash, in Bengali and without JavaScript (docs/rules/lotteries-and-sales.md#11-prize-claims, "Paid by
 * bKash"): a winner claims his TK. 20,000 to his bKash wallet, a second staff member approves (it is above
 * PAYOUT_SECOND_APPROVAL_TK), staff press "Pay now" on /admin/prize-claims as a plain form, bKash (the simulator) pays
 * it, and the claims page, the winner's claim page and his notifications show bKash's TrxID. The same in English with
 * JavaScript, from the player's own claim form, is the end of back-office-journey.spec.ts.
 */
import { expect, login, readCode, test } from './helpers.ts';
import { bearerOf, drawByHand, lotteryWithSale, secondStaff, STAFF, useLanguage } from './pages.ts';

test('বিকাশে পুরস্কার: claimed to bKash, approved by a second staff member, paid with Pay now, its TrxID shown to both', async ({
  browser,
  player,
  request,
}) => {
  test.setTimeout(120_000);
  const name = `Meghna ${Date.now() % 100000}`;
  const sale = await lotteryWithSale(request, player, name, 20_000);
  const [prize] = (await drawByHand(request, sale.id, [sale.ticket])).prizes;
  if (!prize) throw new Error('no prize');

  // The winner claims to his bKash wallet with a code (the claim form itself: claim.spec.ts, claim-pages.test.ts).
  const mine = await bearerOf(request, { identifier: player.phone, password: player.password });
  expect((await request.post('/api/v1/send-prize-claim-otp/', { headers: mine, data: { prize_id: prize.id } })).ok()).toBe(true);
  const claimed = await request.post('/api/v1/submit-prize-claim/', {
    headers: mine,
    data: {
      prize: prize.id,
      payment_method: 'bkash',
      account_number: '01712345678',
      account_holder_name: player.name,
      otp: await readCode(player.phone, 'claim'),
    },
  });
  expect(claimed.ok(), await claimed.text()).toBe(true);
  const claimId = ((await claimed.json()) as { claim: { id: number } }).claim.id;

  // A second staff member approves the transfer.
  const approved = await request.post(`/api/v1/admin/prize-claims/${claimId}/approve-transfer/`, {
    headers: await bearerOf(request, await secondStaff(request)),
  });
  expect(approved.ok(), await approved.text()).toBe(true);

  // Staff press Pay now, in Bengali, without JavaScript.
  const staffContext = await browser.newContext({
    javaScriptEnabled: false,
    extraHTTPHeaders: { 'x-forwarded-for': `10.8.${Date.now() % 250}.9` },
  });
  const staff = await staffContext.newPage();
  await useLanguage(staff, 'bn');
  await login(staff, STAFF);
  await staff.goto(`/admin/prize-claims?search=${encodeURIComponent(name)}`);
  const row = staff.locator('tr').filter({ hasText: name });
  await expect(row).toContainText('তথ্য জমা হয়েছে');
  await row.getByRole('link', { name: 'বিকাশে এখনই পরিশোধ' }).click();
  // Asked first: what is paid, to which wallet (a page of its own without JavaScript).
  await expect(staff.locator('main')).toContainText('এই পুরস্কার বিকাশে পরিশোধ করবেন?');
  await staff.getByRole('button', { name: 'এখনই পরিশোধ', exact: true }).click();
  await expect(staff.locator('main')).toContainText('পরিশোধ বিকাশে পাঠানো হয়েছে');
  await staff.goto(`/admin/prize-claims?search=${encodeURIComponent(name)}`);
  const paid = staff.locator('tr').filter({ hasText: name });
  await expect(paid).toContainText(/বিকাশে পরিশোধিত: TrxID [A-Z0-9]{10}/);
  const trx = /TrxID ([A-Z0-9]{10})/.exec((await paid.textContent()) ?? '')?.[1] ?? '';
  expect(trx).toMatch(/^[A-Z0-9]{10}$/);
  // The dashboard shows bKash's balance beside what is owed.
  await staff.goto('/admin/dashboard');
  await expect(staff.locator('.admin-balance')).toContainText('বিকাশ ডিসবার্সমেন্ট ব্যালান্স');
  await staffContext.close();

  // The winner, in Bengali without JavaScript: his claim and his notification name bKash's TrxID.
  const playerContext = await browser.newContext({ javaScriptEnabled: false });
  const page = await playerContext.newPage();
  await useLanguage(page, 'bn');
  await login(page, { identifier: player.phone, password: player.password });
  await page.goto(`/user/prize-claim/${prize.id}`);
  await expect(page.locator('main')).toContainText(`বিকাশ TrxID ${trx}`);
  await page.goto('/notifications');
  await expect(page.locator('main')).toContainText(`TrxID ${trx}`);
  await playerContext.close();
});
