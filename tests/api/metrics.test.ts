/**
 * Metrics that page someone (docs/rules/operations.md#2-metrics-and-alerts): request durations by route pattern,
 * every endpoint's answers however it was called, the business backlogs read from the database at each scrape, the
 * database pool on PostgreSQL; and the alert rules of docs/prometheus-alerts.yml name only metrics the app exports.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, buy, buyOnPage, insertLottery, purchase } from './purchase-fixtures.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const scrape = async () => (await request(t.url).get('/metrics').expect(200)).text;
/** The value of one series, 0 when it is not there. */
const value = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

test('request durations are labelled by the route pattern, not the path', async () => {
  const lottery = await insertLottery(t);
  await request(t.url).get(`/api/v1/get-lottery/${lottery}/`).expect(200);
  await request(t.url).get('/all-lotteries').expect(200);
  const staff = await pageAccount(t, { name: 'Metrics Officer', is_staff: true });
  await staff.agent.get('/admin/create-lottery').expect(200);
  const text = await scrape();
  expect(value(text, 'http_request_duration_seconds_count{area="api",route="/api/v1/get-lottery/:id/",method="GET",status="2xx"}')).toBe(1);
  expect(value(text, 'http_request_duration_seconds_count{area="page",route="/all-lotteries",method="GET",status="2xx"}')).toBeGreaterThan(
    0,
  );
  expect(text).not.toContain(`route="/api/v1/get-lottery/${lottery}/"`);
  // A route whose path is absolute (the back office's pages under /admin) is named by that path, not joined to its parent's.
  expect(value(text, 'http_request_duration_seconds_count{area="page",route="/admin/create-lottery",method="GET",status="2xx"}')).toBe(1);
});

test("purchases are counted by the endpoint's answers, from the API and from a page's form alike", async () => {
  const series = (status: number) => `bhagya_endpoint_answers_total{endpoint="POST /api/v1/transactions-create/",status="${status}"}`;
  const before = await scrape();
  const lottery = await insertLottery(t);
  const p = await account(t);
  expect((await buy(t, p, purchase(lottery, '05-12-23-34-45-07'))).status).toBe(201);
  expect((await buy(t, p, purchase(lottery, 'not a ticket'))).status).toBe(400);
  const player = await pageAccount(t, { name: 'Form Buyer' });
  expect((await buyOnPage(player.agent, lottery, '01-02-03-04-05-06')).status).toBe(303);
  const after = await scrape();
  expect(value(after, series(201)) - value(before, series(201))).toBe(2);
  expect(value(after, series(400)) - value(before, series(400))).toBe(1);
});

test('the backlogs are read from the database at each scrape', async () => {
  await t.db.query('DELETE FROM player_messages');
  const lottery = await insertLottery(t);
  const p = await account(t);
  const tx = await t.db.one<{ id: number }>(
    `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '09-10-11-12-13-01', 100, 'bkash', 'pending') RETURNING id`,
    [p.id, lottery],
  );
  await t.db.query(
    `INSERT INTO bkash_payments (payment_id, transaction_id, amount, state, created_at) VALUES
       ('M-OPEN-1', $1, 100, 'created', now() - interval '20 minutes'),
       ('M-OPEN-2', $1, 100, 'created', now() - interval '1 minute'),
       ('M-FAILED', $1, 100, 'failed', now() - interval '10 minutes')`,
    [tx?.id],
  );
  const prize = await t.db.one<{ id: number }>(
    `INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, '09-10-11-12-13-01', 500) RETURNING id`,
    [lottery, tx?.id],
  );
  await t.db.query(
    `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, submitted_at)
     VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01712345678', now() - interval '3 days')`,
    [prize?.id, p.id],
  );
  await t.db.query(
    `INSERT INTO player_messages (user_id, kind, event_key, params, sms_state, created_at) VALUES
       ($1, 'ticket_confirmed', 'm-1', '{}', 'queued', now() - interval '15 minutes'),
       ($1, 'ticket_confirmed', 'm-2', '{}', 'failed', now())`,
    [p.id],
  );
  const text = await scrape();
  expect(value(text, 'bhagya_figures_up')).toBe(1);
  expect(value(text, 'bhagya_bkash_payments_last_hour{state="created"}')).toBeGreaterThanOrEqual(2);
  expect(value(text, 'bhagya_bkash_payments_last_hour{state="failed"}')).toBeGreaterThanOrEqual(1);
  expect(value(text, 'bhagya_reconciliation_backlog')).toBeGreaterThanOrEqual(1);
  expect(value(text, 'bhagya_reconciliation_oldest_seconds')).toBeGreaterThanOrEqual(20 * 60 - 5);
  expect(value(text, 'bhagya_claims_waiting')).toBeGreaterThanOrEqual(1);
  expect(value(text, 'bhagya_claims_oldest_waiting_seconds')).toBeGreaterThanOrEqual(3 * 86400 - 5);
  expect(value(text, 'bhagya_sms_waiting')).toBe(1);
  expect(value(text, 'bhagya_sms_oldest_waiting_seconds')).toBeGreaterThanOrEqual(15 * 60 - 5);
  expect(value(text, 'bhagya_sms_failed')).toBe(1);

  await t.db.query(`UPDATE bkash_payments SET state = 'completed' WHERE payment_id LIKE 'M-OPEN-%'`);
  const later = await scrape();
  expect(value(later, 'bhagya_reconciliation_oldest_seconds')).toBeLessThan(20 * 60 - 5);
});

test('the database pool is shown on PostgreSQL', async () => {
  const text = await scrape();
  if (process.env.TEST_DATABASE_URL) {
    expect(value(text, 'bhagya_db_pool_connections{state="max"}')).toBe(10);
    expect(text).toContain('bhagya_db_pool_connections{state="waiting"}');
  } else {
    expect(text).not.toContain('bhagya_db_pool_connections');
  }
});

test('every metric an alert rule names is one the app exports', async () => {
  const file = path.join(import.meta.dirname, '..', '..', 'docs', 'prometheus-alerts.yml');
  const rules = parse(readFileSync(file, 'utf8')) as { groups: { rules: { alert: string; expr: string; for: string }[] }[] };
  const all = rules.groups.flatMap((g) => g.rules);
  expect(all.length).toBeGreaterThanOrEqual(4);
  // Families in the scrape (a histogram's _bucket, _sum and _count come from its # TYPE line).
  const text = await scrape();
  const families = new Set(
    [...text.matchAll(/^# TYPE (\S+) (\w+)/gm)].flatMap(([, name, type]) =>
      type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name as string],
    ),
  );
  if (!process.env.TEST_DATABASE_URL) families.add('bhagya_db_pool_connections'); // PostgreSQL only
  const promql = new Set([
    'max',
    'sum',
    'by',
    'on',
    'and',
    'or',
    'rate',
    'increase',
    'histogram_quantile',
    'le',
    'state',
    'status',
    'area',
  ]);
  for (const r of all) {
    expect(r.alert).toMatch(/^Bhagya[A-Za-z]+$/);
    expect(r.for).toMatch(/^\d+m$/);
    const names = [...r.expr.matchAll(/\b([a-z_][a-z0-9_]*)\b(?=\s*[{[()]|\s*[><=]|\s*$|\))/g)]
      .map((m) => m[1] as string)
      .filter((n) => n.includes('_') && !promql.has(n));
    expect(names.length).toBeGreaterThan(0);
    for (const n of names)
      expect({ alert: r.alert, metric: n, exported: families.has(n) }).toEqual({ alert: r.alert, metric: n, exported: true });
  }
});
