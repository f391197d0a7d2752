/**
 * Knowing what you buy (docs/rules/lotteries-and-sales.md#12-odds-and-the-advertised-prize, decision 057): a visitor opens
 * the ticket page of a lottery that draws winning tickets and of a numbers lottery, and reads which game each is — the
 * winners drawn among the tickets sold and where the chance stands, or numbers matched with the odds of each prize —
 * and, for a new numbers lottery, a prize that is not TK. 0. In English and Bengali, with JavaScript and without.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './helpers.ts';
import { bearerOf, STAFF, useLanguage } from './pages.ts';

const TICKET = '04-15-26-37-48-11';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

type Made = { tickets: number; numbers: number };
let made: Promise<Made> | undefined;

/** Two new lotteries on sale, nothing sold: one drawing 3 winning tickets, one numbers lottery (made once per worker). */
function lotteries(request: APIRequestContext): Promise<Made> {
  made ??= (async () => {
    const auth = await bearerOf(request, STAFF);
    const tag = `${process.pid}-${Date.now() % 100_000}`;
    const base = { ticket_price: 100, total_tickets: 10_000, start_date: day(-1), end_date: day(6), published: true };
    const create = async (body: object) => {
      const res = await request.post('/api/v1/lotteries/', { headers: auth, data: { ...base, ...body } });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    return {
      tickets: await create({ name: `Three Winners ${tag}`, name_bn: `তিন বিজয়ী ${tag}`, winners: 3, total_prize: 300_000 }),
      numbers: await create({
        name: `New Numbers ${tag}`,
        name_bn: `নতুন সংখ্যা ${tag}`,
        kind: 'numbers',
        jackpot_share: 50,
        tier2_prize: 40_000,
        tier3_prize: 4_000,
        tier4_prize: 400,
        tier5_prize: 40,
      }),
    };
  })();
  return made;
}

const TEXTS = {
  en: {
    ticketsGame: 'Winning tickets drawn: 3 winners drawn among the tickets sold; they share the total prize equally.',
    noneSold: 'No ticket sold yet.',
    numbersGame: 'Numbers matched:',
    howToWin: 'How to win',
    secondPrize: /2nd prize\s*TK\. 40,000/,
    grows: 'The jackpot grows with every ticket sold.',
    odds: ['1 in 52,181,415', '1 in 3,727,244', '1 in 142'],
    any: 'Any prize: 1 in 136 tickets.',
    zero: /TK\. 0(?![\d,])/,
  },
  bn: {
    ticketsGame: 'বিজয়ী টিকিটের ড্র: বিক্রি হওয়া টিকিটের মধ্য থেকে ৩টি বিজয়ী টিকিট ড্র হবে; সেগুলো মোট পুরস্কার সমান ভাগে পাবে।',
    noneSold: 'এখনো কোনো টিকিট বিক্রি হয়নি।',
    numbersGame: 'সংখ্যা মেলানোর খেলা:',
    howToWin: 'কীভাবে জিতবেন',
    secondPrize: /২য় পুরস্কার\s*৳৪০,০০০/,
    grows: 'প্রতিটি টিকিট বিক্রিতে জ্যাকপট বাড়ে।',
    odds: ['৫,২১,৮১,৪১৫-এ ১', '৩৭,২৭,২৪৪-এ ১', '১৪২-এ ১'],
    any: 'যেকোনো পুরস্কার: ১৩৬টি টিকিটে ১টি।',
    zero: /৳০(?![০-৯,])/,
  },
} as const;

async function readsBothGames(page: Page, request: APIRequestContext, lng: 'en' | 'bn') {
  const ids = await lotteries(request);
  const x = TEXTS[lng];
  await useLanguage(page, lng);

  await page.goto(`/quick-play/${ids.tickets}/${TICKET}`);
  const ticketsLottery = page.locator('.play-lottery');
  await expect(ticketsLottery.locator('.game__kind')).toHaveText(x.ticketsGame);
  await expect(ticketsLottery.locator('.game__chance')).toHaveText(x.noneSold);
  await expect(ticketsLottery.getByText(x.howToWin)).toHaveCount(0);

  await page.goto(`/quick-play/${ids.numbers}/${TICKET}`);
  const numbersLottery = page.locator('.play-lottery');
  await expect(numbersLottery.locator('.game__kind')).toContainText(x.numbersGame);
  await expect(numbersLottery.locator('.play-lottery__prize')).toContainText(x.secondPrize);
  await expect(numbersLottery.locator('.play-lottery__prize')).toContainText(x.grows);
  await expect(numbersLottery.locator('.play-lottery__prize')).not.toContainText(x.zero);
  // How to win opens by itself, without a script: a <details>.
  await numbersLottery.locator('summary', { hasText: x.howToWin }).click();
  const table = numbersLottery.locator('.tiers-table');
  await expect(table).toBeVisible();
  for (const odds of x.odds) await expect(table).toContainText(odds);
  await expect(numbersLottery.locator('.how-to-win__any')).toHaveText(x.any);
}

for (const lng of ['en', 'bn'] as const) {
  test(`${lng}: the ticket page says which game a lottery is, its chance or its odds, and never a prize of 0`, async ({
    page,
    request,
  }) => {
    await readsBothGames(page, request, lng);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  for (const lng of ['en', 'bn'] as const) {
    test(`${lng}: the same, read from the server's page alone`, async ({ page, request }) => {
      await readsBothGames(page, request, lng);
    });
  }
});
