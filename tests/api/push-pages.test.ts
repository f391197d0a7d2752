/**
 * "Notifications on this device" on /notifications (docs/rules/messages.md#6-push-notifications), as a browser uses
 * it: without JavaScript the section says the switch needs it and the kinds' form works as a plain post; the posts the
 * switch sends with JavaScript go through the same page action to the API.
 */
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { pageAccount } from '../helpers/factories.ts';
import { testDevice } from '../helpers/push-service.ts';
import { csrfFrom } from '../helpers/session.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

/** Whether the checkbox of this name is ticked, whatever the order of its attributes. */
const checked = (html: string, name: string) =>
  (html.match(/<input[^>]*>/g) ?? []).some(
    (tag) => tag.includes(`name="${name}"`) && tag.includes('type="checkbox"') && / checked=""/.test(tag),
  );
const settingsOf = (userId: number) =>
  t.db.one<{ results: boolean; confirmations: boolean }>('SELECT results, confirmations FROM push_settings WHERE user_id = $1', [userId]);
const devicesOf = (userId: number) =>
  t.db.query<{ endpoint: string; label: string }>('SELECT endpoint, label FROM push_subscriptions WHERE user_id = $1', [userId]);

describe('the section without JavaScript', () => {
  test.each([
    ['en', 'Notifications on this device', 'Turning notifications on for this device needs JavaScript.', 'Results: when you win a prize'],
    ['bn', 'এই ডিভাইসে বিজ্ঞপ্তি', 'এই ডিভাইসে বিজ্ঞপ্তি চালু করতে জাভাস্ক্রিপ্ট লাগে।', 'ফলাফল: আপনি পুরস্কার জিতলে'],
  ] as const)(
    'in %s: its title, the sentence that the switch needs JavaScript, both kinds ticked by default',
    async (lang, title, noScript, results) => {
      const p = await pageAccount(t, { name: 'Karim Mia', lang });
      const page = await p.agent.get('/notifications').expect(200);
      expect(page.text).toContain('id="push"');
      expect(page.text).toContain(`>${title}<`);
      expect(page.text).toContain(noScript);
      expect(page.text).toContain(results);
      expect(checked(page.text, 'results')).toBe(true);
      expect(checked(page.text, 'confirmations')).toBe(true);
      // No button that would do nothing without JavaScript (its text is only in the page's data, for the script).
      expect(page.text.split('<script')[0]).not.toContain(
        lang === 'en' ? 'Turn on notifications on this device' : 'এই ডিভাইসে বিজ্ঞপ্তি চালু করুন',
      );
      if (lang === 'bn') expect(page.text).toContain('যেসব ডিভাইসে আপনার বিজ্ঞপ্তি যায়: ০টি');
    },
  );

  test('a plain post saves the kinds (a box not ticked is off) and comes back to the section with a confirmation', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/notifications').expect(200);
    const saved = await p.agent
      .post('/notifications')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'push', results: 'on' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/notifications?saved=push#push');
    expect(await settingsOf(p.id)).toEqual({ results: true, confirmations: false });
    const after = await p.agent.get('/notifications?saved=push').expect(200);
    expect(after.text).toContain('Your notification choices are saved.');
    expect(checked(after.text, 'results')).toBe(true);
    expect(checked(after.text, 'confirmations')).toBe(false);
  });

  test('a post without the CSRF token is refused and changes nothing', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const r = await p.agent.post('/notifications').type('form').send({ intent: 'push' });
    expect(r.status).toBe(403);
    expect(await settingsOf(p.id)).toBeUndefined();
  });
});

describe('the switch’s posts', () => {
  test('subscribe: the device kept with its label; a bad subscription refused and nothing kept; unsubscribe: gone', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/notifications').expect(200);
    const _csrf = csrfFrom(page.text);
    const d = testDevice('http://127.0.0.1:9/push/page');
    const bad = await p.agent
      .post('/notifications')
      .type('form')
      .send({ _csrf, intent: 'push-subscribe', endpoint: 'http://example.com/x', p256dh: d.keys.p256dh, auth: d.keys.auth });
    expect(bad.status).toBe(400);
    expect(await devicesOf(p.id)).toEqual([]);
    const ok = await p.agent
      .post('/notifications')
      .type('form')
      .send({ _csrf, intent: 'push-subscribe', endpoint: d.endpoint, p256dh: d.keys.p256dh, auth: d.keys.auth, label: 'Firefox' });
    expect(ok.status).toBe(200);
    expect(await devicesOf(p.id)).toEqual([{ endpoint: d.endpoint, label: 'Firefox' }]);
    expect((await p.agent.get('/notifications').expect(200)).text).toContain('Devices that get your notifications: 1');
    const off = await p.agent.post('/notifications').type('form').send({ _csrf, intent: 'push-unsubscribe', endpoint: d.endpoint });
    expect(off.status).toBe(200);
    expect(await devicesOf(p.id)).toEqual([]);
    // Already gone: off all the same.
    await p.agent.post('/notifications').type('form').send({ _csrf, intent: 'push-unsubscribe', endpoint: d.endpoint }).expect(200);
  });
});
