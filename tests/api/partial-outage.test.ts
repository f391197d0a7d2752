/**
 * A page that lost one of its reads to the database going away (the session's check with the top bar's reality check and
 * unread count, at the moment the database stops: docs/rules/operations.md#5-when-the-database-goes-away): not shown
 * half, with a piece silently missing under a 503, but as the 503 page that says why, in the visitor's language, with
 * Retry-After and the top bar; the same page whole again once the read succeeds. On PGlite and PostgreSQL: the read is made to
 * fail as a lost connection does (ECONNRESET).
 */
import type { Db } from '../../server/db/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const UNREAD = /FROM player_messages WHERE user_id = \$\d AND read_at IS NULL/;

/** While `fn` runs, the statement that reads the unread count fails as a connection lost under it does; every other read works. */
async function unreadLost<T>(fn: () => Promise<T>): Promise<T> {
  const db: Db = t.db;
  const one = db.one.bind(db);
  let failed = 0;
  db.one = ((sql: string, params?: readonly unknown[]) => {
    if (UNREAD.test(sql)) {
      failed++;
      return Promise.reject(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    }
    return one(sql, params);
  }) as Db['one'];
  try {
    const out = await fn();
    expect(failed).toBeGreaterThan(0); // the page did ask for it
    return out;
  } finally {
    db.one = one;
  }
}

test.each([
  ['en', 'The service is busy or being restarted. Please try again in a few seconds.', 'Busy right now'],
  ['bn', 'সেবাটি এই মুহূর্তে ব্যস্ত বা আবার চালু হচ্ছে। কয়েক সেকেন্ড পরে আবার চেষ্টা করুন।', 'এই মুহূর্তে ব্যস্ত'],
])('%s: the 503 page with the sentence, then the page whole', async (lang, sentence, title) => {
  const { agent } = await pageAccount(t, { name: 'Nasrin Akter', lang });
  const down = await unreadLost(() => agent.get('/my-lotteries'));
  expect(down.status).toBe(503);
  expect(down.headers['retry-after']).toBe('5');
  expect(down.text).toContain(sentence);
  expect(down.text).toContain(`<h1>${title}</h1>`);
  expect(down.text).toContain('Nasrin Akter'); // the top bar, from the root's own data
  // The hydration data carries the same error, so that the browser's render is the server's.
  expect(down.text).toMatch(/"errors":\{"root":\{"__type":"RouteErrorResponse","status":503/);

  const whole = await agent.get('/my-lotteries');
  expect(whole.status).toBe(200);
  expect(whole.headers['retry-after']).toBeUndefined();
  expect(whole.text).not.toContain(sentence);
});
