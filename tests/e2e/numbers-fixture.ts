/**
 * The numbers lottery the numbers-draw journey draws (tests/e2e/numbers-draw.spec.ts), put into the journeys' database
 * before the server starts (tests/e2e/prepare-data.ts). Its seed is fixed here, as a test's data, so that the journey
 * can find, once the tickets are frozen, a beacon value that makes its ticket win a tier: in production the seed is
 * drawn by the server and nobody knows it before the draw (docs/rules/draws.md#2-the-seed-and-its-commitment).
 */
export const NUMBERS_FIXTURE = {
  name: 'Meghna Numbers (journey)',
  name_bn: 'মেঘনা নম্বর (যাত্রা)',
  seed: '5eed5eed000102030405060708090a0b0c0d0e0f101112131415161718191a1b',
  ticketPrice: 100,
  jackpotShare: 50,
  tierPrizes: [25_000, 5_000, 1_000, 200] as const,
} as const;
