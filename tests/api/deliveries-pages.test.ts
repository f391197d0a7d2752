/**
 * The back office's Messages sent (/admin/deliveries, docs/rules/messages.md#7-sms-gateways) as a browser without
 * JavaScript gets it: each send with what it was for in words, the number in the page's digits, its gateway and state,
 * never its text; filtered by state; staff only. In English and Bengali.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { pageAccount } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('each send in words, in both languages; the text never; a state filter; a player is not let in', async () => {
  await t.db.query('DELETE FROM outbox');
  await t.db.query(
    `INSERT INTO outbox (channel, recipient, purpose, body, sent_at, gateway, state, state_at) VALUES
       ('sms', '01712345678', 'account', 'Your Bhagya code is 987650', now(), 'log', 'sent', now()),
       ('sms', '01812345678', 'run_last_draw', 'One draw left of your run', now(), 'sslwireless', 'failed', now())`,
  );
  const en = await pageAccount(t, { name: 'Deliveries Officer', is_staff: true });
  const page = (await en.agent.get('/admin/deliveries').expect(200)).text;
  expect(page).toContain('Account code');
  expect(page).toContain('Run&#x27;s last draw');
  expect(page).not.toContain('987650');
  const bn = await pageAccount(t, { name: 'Deliveries Officer BN', is_staff: true, lang: 'bn' });
  const bnPage = (await bn.agent.get('/admin/deliveries').expect(200)).text;
  expect(bnPage).toContain('অ্যাকাউন্টের কোড');
  expect(bnPage).toContain('০১৭১২৩৪৫৬৭৮');
  const failed = (await en.agent.get('/admin/deliveries?state=failed').expect(200)).text;
  expect(failed).toContain('sslwireless');
  expect(failed).toContain('>1 result<');
  expect(failed).not.toContain('01712345678');
  const player = await pageAccount(t, { name: 'Curious Player' });
  const refused = await player.agent.get('/admin/deliveries');
  expect(refused.status === 403 || refused.status === 303 || refused.status === 302).toBe(true);
});
