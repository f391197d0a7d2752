/**
 * Values for test data that no other test of the run has, by construction rather than by a prefix picked by hand
 * in each file (docs/decisions/062-a-suite-in-15-minutes.md).
 */
import request from 'supertest';
import { createUser, type TestApp } from './app.ts';
import { loginAs, type Agent } from './session.ts';
import { to } from './call.ts';
import { api } from '../../shared/api/contract.ts';

/** Which process of the run this is: Jest's worker (1, 2, …), Playwright's, or else the process id. */
const processPart = (): number => {
  const worker = Number(process.env.JEST_WORKER_ID ?? process.env.TEST_PARALLEL_INDEX ?? Number.NaN);
  return (Number.isInteger(worker) ? worker : process.pid) % 100;
};

let phones = 0;

/**
 * A Bangladeshi mobile number no other test of this run has made: 0160 (a prefix no test writes by hand), two digits
 * of the process and a counter of five (100,000 a process, far more than a test file makes).
 */
export function uniquePhone(): string {
  if (++phones > 99_999) throw new Error('uniquePhone: more than 99,999 phone numbers in one process');
  return `0160${String(processPart()).padStart(2, '0')}${String(phones).padStart(5, '0')}`;
}

/*
 * Accounts, lotteries and tickets: one factory of each for every test file, in place of the copies each file kept
 * (docs/decisions/062-a-suite-in-15-minutes.md). Phones come from uniquePhone(), so no file picks a prefix by hand.
 */

/** What a test gives an account: any field it does not give is a test default (a new phone, 'secret-pass-1'). */
export type AccountInput = { name?: string; email?: string; phone?: string; password?: string; is_staff?: boolean };

/** An account logged in through the API: its id, phone and access token (`auth`: the header to set). */
export type Player = { id: number; phone: string; token: string; auth: [string, string] };
/** The same, made by a factory here, which also knows its password. */
export type Account = Player & { password: string };

/** An account logged in through the login form: an agent that browses as he does, with his language cookie. */
export type PagePlayer = { agent: Agent; id: number; phone: string; password: string };

/** Logs an existing account in through the API's login (api.login): the account with its access token; throws when refused. */
export async function apiLogin<U extends { id: number; phone: string; password: string }>(
  t: Pick<TestApp, 'url'>,
  u: U,
): Promise<U & Account> {
  const res = await to(t, api.login).send({ phone: u.phone, password: u.password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body.access as string;
  return { ...u, token, auth: ['Authorization', `Bearer ${token}`] };
}

/** An active account (a player unless is_staff) and its access token. */
export async function account(t: TestApp, o: AccountInput = {}): Promise<Account> {
  const { id, phone, password } = await createUser(t, { ...o, phone: o.phone ?? uniquePhone() });
  return apiLogin(t, { id, phone, password });
}

/** A staff account made a superuser (the right is read from the database, as the API reads it). */
export async function superuserAccount(t: TestApp, o: Omit<AccountInput, 'is_staff'> = {}): Promise<Account> {
  const p = await account(t, { ...o, is_staff: true });
  await t.db.query('UPDATE users SET is_superuser = true WHERE id = $1', [p.id]);
  return p;
}

/**
 * An active account (a player unless is_staff) logged in through the login form as a browser without JavaScript does,
 * with the language cookie `lang` (English unless told; null: no cookie, the browser's Accept-Language decides).
 */
export async function pageAccount(t: TestApp, o: AccountInput & { lang?: string | null } = {}): Promise<PagePlayer> {
  const { lang = 'en', ...fields } = o;
  const u = await createUser(t, { ...fields, phone: fields.phone ?? uniquePhone() });
  const agent = request.agent(t.url);
  if (lang !== null) agent.set('Cookie', `lang=${lang}`);
  return { agent: await loginAs(agent, u.phone, u.password), id: u.id, phone: u.phone, password: u.password };
}

const DAY = 24 * 3600 * 1000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString();
/** The date (YYYY-MM-DD, UTC) so many days from now, as the API takes a lottery's start and end dates. */
export const dateFromNow = (days: number): string => daysFromNow(days).slice(0, 10);

/** What tests vary in a lottery made straight in the database. */
export type LotteryInput = {
  name?: string;
  name_bn?: string;
  /** Days from now (default: started yesterday, ends in 7 days). */
  start?: number;
  end?: number;
  published?: boolean;
  /** Its results published (drawn yesterday). */
  results?: boolean;
  price?: number;
  total_tickets?: number;
};

let lotteries = 0;

/** A raffle on sale unless told otherwise, straight in the database (2 winners, TK. 100,000 of prizes); its id. */
export async function insertLottery(t: TestApp, l: LotteryInput = {}): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO lotteries (name, name_bn, description, start_date, end_date, ticket_price, total_tickets, winners, total_prize, published, is_result_published, drawn_at)
     VALUES ($1, $2, '', $3, $4, $5, $6, 2, 100000, $7, $8, $9) RETURNING id`,
    [
      l.name ?? `Draw ${++lotteries}`,
      l.name_bn ?? '',
      daysFromNow(l.start ?? -1),
      daysFromNow(l.end ?? 7),
      l.price ?? 100,
      l.total_tickets ?? 1000,
      l.published ?? true,
      l.results ?? false,
      l.results ? daysFromNow(-1) : null,
    ],
  );
  return row!.id;
}

/** The prizes of the tiers 2 to 5 the tests' numbers lotteries have. */
export const TIER_PRIZES = { tier2_prize: 20_000, tier3_prize: 2_000, tier4_prize: 200, tier5_prize: 20 } as const;

/**
 * The body of POST /api/v1/lotteries/ for a numbers lottery on sale (started yesterday, ends in 6 days, TK. 100 a
 * ticket, 10,000 tickets, half of the pool to the jackpot), with `extra` over it.
 */
export const numbersLotteryBody = (extra: object = {}) => ({
  name: 'Weekly Numbers',
  kind: 'numbers',
  ticket_price: 100,
  total_tickets: 10_000,
  jackpot_share: 50,
  ...TIER_PRIZES,
  start_date: dateFromNow(-1),
  end_date: dateFromNow(6),
  published: true,
  ...extra,
});

/** A numbers lottery made through the API by `staff` (its draw commitment made as the API makes it); its id. */
export async function numbersLottery(t: TestApp, staff: Player, extra: object = {}): Promise<number> {
  const res = await to(t, api.createLottery, { as: staff }).send(numbersLotteryBody(extra));
  if (res.status !== 201) throw new Error(`creating a numbers lottery failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/**
 * A ticket of this player straight in the database, paid for by bKash: `success` (confirmed, the default) or `pending`
 * (awaiting staff); its transaction's id. For a purchase made as the API makes it, see tests/api/purchase-fixtures.ts
 * `sold`.
 */
export async function ticketOf(
  t: TestApp,
  userId: number,
  lotteryId: number,
  ticket: string,
  o: { status?: 'success' | 'pending'; amount?: number } = {},
): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, $3, $4, 'bkash', $5) RETURNING id`,
    [userId, lotteryId, ticket, o.amount ?? 100, o.status ?? 'success'],
  );
  return row!.id;
}
