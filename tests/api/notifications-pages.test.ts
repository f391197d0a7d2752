/**
 * The player's messages through the pages, as a browser without JavaScript uses them (docs/rules/messages.md#5-the-pages):
 * /notifications lists them newest first in the page's language and marks the ones it shows read; the top bar's bell
 * counts the unread ones on every page of a logged-in user and never appears for a visitor; the "Messages" section of
 * /profile saves the message settings with a plain form, and a bad post changes nothing.
 */
import request from 'supertest';
import type { MessageKind } from '../../shared/messages/kinds.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiLogin, pageAccount } from '../helpers/factories.ts';
import { call } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { csrfFrom } from '../helpers/session.ts';
import { account, buy, insertLottery, purchase, trxId, approveByHand } from './purchase-fixtures.ts';

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

/** A player with his API token, and a browser (no JavaScript) logged in as him in this language. */
let eventSeq = 0;

/** A message written as its event would write it (params valid for its kind, shared/messages/kinds.ts). */
async function message(userId: number, kind: MessageKind, params: Record<string, unknown>, createdAt?: string): Promise<number> {
  const row = await t.db.one<{ id: number }>(
    `INSERT INTO player_messages (user_id, kind, event_key, params, created_at) VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now())) RETURNING id`,
    [userId, kind, `test:${kind}:${++eventSeq}`, JSON.stringify(params), createdAt ?? null],
  );
  return row!.id;
}

const LOTTERY = { lottery_id: 1, lottery: 'Boishakhi Draw', lottery_bn: 'বৈশাখী ড্র' };
const confirmed = (ticket = '05-12-23-34-45-07') => ({ ...LOTTERY, ticket, transaction_id: 1, amount: 100 });

const unreadOf = async (userId: number) =>
  (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM player_messages WHERE user_id = $1 AND read_at IS NULL', [userId]))!.n;

/** The top bar's bell in a page: its link, or undefined when the page has none. */
const bellIn = (html: string): string | undefined => /<a[^>]*class="bell[^"]*"[^>]*>[\s\S]*?<\/a>/.exec(html)?.[0];

describe('/notifications', () => {
  test('a staff approval shows as "Ticket confirmed" with the bell’s count; opening the page marks it read', async () => {
    const p = await apiLogin(t, await pageAccount(t, { name: 'Karim Mia' }));
    const lottery = await insertLottery(t, { name: 'Falgun Draw', price: 100 });
    const bought = await buy(t, p, purchase(lottery, '05-12-23-34-45-07', { trx_id: trxId() }));
    expect(bought.status).toBe(201);
    const approved = await approveByHand(t, bought.body.id as number);
    expect(approved.status).toBe(200);

    // Any page of his: the bell with its count.
    const before = bellIn((await p.agent.get('/profile').expect(200)).text);
    expect(before).toBeDefined();
    expect(before).toContain('href="/notifications"');
    expect(before).toContain('Notifications, 1 unread');
    expect(before).toMatch(/class="bell__count"[^>]*>1</);

    const page = await p.agent.get('/notifications').expect(200);
    expect(page.text).toContain('<h1>Notifications</h1>');
    expect(page.text).toContain('Ticket confirmed');
    expect(page.text).toContain('Your ticket 05-12-23-34-45-07 for Falgun Draw (TK. 100) is confirmed.');
    // Still marked as new on the page that read it, and the bell of that page already counts it read.
    expect(page.text).toContain('class="message is-unread"');
    expect(page.text).toMatch(/<span class="visually-hidden">New(<!-- -->)?: <\/span>/);
    expect(page.text).toMatch(/<a class="message__open" href="\/my-lotteries"[^>]*>Open/);
    expect(bellIn(page.text)).not.toContain('bell__count');
    expect(page.text).toContain('href="/profile#messages"');
    expect(await unreadOf(p.id)).toBe(0);

    const after = bellIn((await p.agent.get('/profile').expect(200)).text);
    expect(after).toContain('>Notifications<');
    expect(after).not.toContain('bell__count');
    const again = await p.agent.get('/notifications').expect(200);
    expect(again.text).toContain('Ticket confirmed');
    expect(again.text).not.toContain('is-unread');
  });

  test('in Bengali: the texts, Bengali digits in the bell and the times, newest first; only his own messages', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia', lang: 'bn' });
    const other = await account(t);
    await message(other.id, 'ticket_confirmed', confirmed('01-02-03-04-05-06'));
    await message(p.id, 'ticket_confirmed', confirmed(), '2026-03-01T14:00:00Z');
    await message(p.id, 'prize_won', {
      ...LOTTERY,
      ticket: '05-12-23-34-45-07',
      prize_id: 9,
      amount: 5000,
      deadline: '2026-04-01T14:00:00Z',
    });

    const bell = bellIn((await p.agent.get('/my-lotteries').expect(200)).text);
    expect(bell).toContain('বিজ্ঞপ্তি, ২টি অপঠিত');
    expect(bell).toMatch(/class="bell__count"[^>]*>২</);

    const page = await p.agent.get('/notifications').expect(200);
    expect(page.text).toContain('<h1>বিজ্ঞপ্তি</h1>');
    const won = page.text.indexOf('আপনি পুরস্কার জিতেছেন!');
    const ticket = page.text.indexOf('টিকিট নিশ্চিত');
    expect(won).toBeGreaterThan(0);
    expect(ticket).toBeGreaterThan(won); // newest first
    expect(page.text).toContain('বৈশাখী ড্র-এর আপনার টিকিট ০৫-১২-২৩-৩৪-৪৫-০৭ (৳১০০) নিশ্চিত হয়েছে।');
    expect(page.text).toContain('href="/user/prize-claim/9"');
    expect(page.text).toMatch(/<span class="visually-hidden">নতুন(<!-- -->)?: <\/span>/);
    expect(page.text).toContain('খুলুন');
    // 14:00 UTC is 8 PM in Dhaka.
    expect(page.text).toContain('১ মার্চ ২০২৬,');
    expect(page.text).toContain('রাত ৮:০০');
    expect(page.text).not.toContain('01-02-03-04-05-06');
    expect(page.text).not.toContain('০১-০২-০৩-০৪-০৫-০৬');
    expect(await unreadOf(p.id)).toBe(0);
    expect(await unreadOf(other.id)).toBe(1);
  });

  test('20 a page with the pager; a page past the end offers the newest; a page marks only up to its newest', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const ids: number[] = [];
    for (let i = 1; i <= 23; i++) ids.push(await message(p.id, 'ticket_confirmed', confirmed(`0${(i % 9) + 1}-12-23-34-45-07`)));
    const count = (html: string) => (html.match(/<article class="message/g) ?? []).length;

    // Page 2 first: its 3 oldest messages are read, the 20 newer ones stay unread.
    const second = await p.agent.get('/notifications?page=2').expect(200);
    expect(count(second.text)).toBe(3);
    expect(second.text).toContain('Page 2 of 2');
    expect(second.text).toContain('href="/notifications"'); // "Newer"
    expect(await unreadOf(p.id)).toBe(20);
    expect(bellIn(second.text)).toContain('Notifications, 20 unread');

    const first = await p.agent.get('/notifications').expect(200);
    expect(count(first.text)).toBe(20);
    expect(first.text).toContain('Page 1 of 2');
    expect(first.text).toContain('href="/notifications?page=2"');
    expect(first.text.indexOf(`id="message-${ids[22]}"`)).toBeLessThan(first.text.indexOf(`id="message-${ids[3]}"`));
    expect(await unreadOf(p.id)).toBe(0);

    const past = await p.agent.get('/notifications?page=9').expect(200);
    expect(past.text).toContain('There are no messages on this page.');
    expect(past.text).toContain('Go to the newest messages');
    // Anything that is not a page number is the first page; a huge one is not a 400 of the API.
    expect(count((await p.agent.get('/notifications?page=abc').expect(200)).text)).toBe(20);
    expect((await p.agent.get('/notifications?page=999999999').expect(200)).text).toContain('There are no messages on this page.');
  });

  test('with no messages the page says what will appear there, and the bell has no count', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/notifications').expect(200);
    expect(page.text).toContain('No messages yet.');
    expect(page.text).toContain('When something happens to your tickets, prizes or payouts');
    expect(bellIn(page.text)).toContain('>Notifications<');
    expect(bellIn(page.text)).not.toContain('bell__count');
    const bn = await pageAccount(t, { name: 'Karim Mia', lang: 'bn' });
    expect((await bn.agent.get('/notifications').expect(200)).text).toContain('এখনো কোনো বার্তা নেই।');
  });

  test('a visitor is sent to login and back; a visitor’s pages have no bell', async () => {
    const r = await request(t.url).get('/notifications');
    expect([302, 303]).toContain(r.status);
    expect(r.headers.location).toBe('/login?from=%2Fnotifications');
    for (const path of ['/', '/all-lotteries', '/faq', '/login']) {
      const html = (await request(t.url).get(path).expect(200)).text;
      expect([path, bellIn(html)]).toEqual([path, undefined]);
      expect([path, html.includes('href="/notifications"')]).toEqual([path, false]);
    }
    expect((await request(t.url).get('/api/v1/notifications/unread/')).status).toBe(401);
  });

  test('staff are players too: the bell is in their top bar, in the back office as well', async () => {
    const s = await pageAccount(t, { name: 'Karim Mia', is_staff: true });
    await message(s.id, 'ticket_confirmed', confirmed());
    expect(bellIn((await s.agent.get('/').expect(200)).text)).toContain('Notifications, 1 unread');
    expect(bellIn((await s.agent.get('/admin/dashboard').expect(200)).text)).toContain('Notifications, 1 unread');
  });

  test('the unread count endpoint is the caller’s own count', async () => {
    const p = await account(t, { name: 'Karim Mia' });
    const other = await account(t);
    await message(p.id, 'ticket_confirmed', confirmed());
    await message(other.id, 'ticket_confirmed', confirmed());
    await message(other.id, 'ticket_confirmed', confirmed());
    const r = await call(t, api.unreadNotifications, {}, { as: p });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ unread: 1 });
  });
});

describe('the message settings on /profile', () => {
  const settingsOf = async (userId: number) =>
    t.db.one<{ language: string; claim_reminder: boolean | null; new_lottery: boolean | null }>(
      'SELECT u.language, s.claim_reminder, s.new_lottery FROM users u LEFT JOIN message_settings s ON s.user_id = u.id WHERE u.id = $1',
      [userId],
    );
  /** Whether the input of this name (and value) is checked, whatever the order of its attributes. */
  const checked = (html: string, name: string, value?: string) =>
    (html.match(/<input[^>]*>/g) ?? []).some(
      (tag) => tag.includes(`name="${name}"`) && (!value || tag.includes(`value="${value}"`)) && / checked=""/.test(tag),
    );

  test('the section shows the defaults; a plain post saves them and comes back with a confirmation', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const page = await p.agent.get('/profile').expect(200);
    expect(page.text).toContain('id="messages"');
    expect(page.text).toContain('Language of your messages');
    expect(page.text).toContain('Reminders to claim a prize');
    expect(page.text).toContain('News of a new lottery of a kind I played');
    expect(page.text).toContain('Messages about your money (tickets, refunds, prizes, payouts) cannot be switched off.');
    // Accounts are Bengali until they choose; claim reminders on, news off.
    expect(checked(page.text, 'language', 'bn')).toBe(true);
    expect(checked(page.text, 'language', 'en')).toBe(false);
    expect(checked(page.text, 'claim_reminder')).toBe(true);
    expect(checked(page.text, 'new_lottery')).toBe(false);

    const saved = await p.agent
      .post('/profile')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), intent: 'messages', language: 'en', new_lottery: 'on' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/profile?saved=messages#messages');
    expect(await settingsOf(p.id)).toEqual({ language: 'en', claim_reminder: false, new_lottery: true });
    const after = await p.agent.get('/profile?saved=messages').expect(200);
    expect(after.text).toContain('Your message settings were saved.');
    expect(checked(after.text, 'language', 'en')).toBe(true);
    expect(checked(after.text, 'claim_reminder')).toBe(false);
    expect(checked(after.text, 'new_lottery')).toBe(true);
  });

  test('a bad language comes back under its field in the page’s language, and nothing changes', async () => {
    for (const [lang, text] of [
      ['en', 'Choose English or Bengali for your messages.'],
      ['bn', 'আপনার বার্তার ভাষা হিসেবে ইংরেজি বা বাংলা বেছে নিন।'],
    ] as const) {
      const p = await pageAccount(t, { name: 'Karim Mia', lang });
      const page = await p.agent.get('/profile').expect(200);
      for (const language of ['fr', undefined]) {
        const bad = await p.agent
          .post('/profile')
          .type('form')
          .send({ _csrf: csrfFrom(page.text), intent: 'messages', ...(language ? { language } : {}), new_lottery: 'on' });
        expect(bad.status).toBe(400);
        expect(bad.text).toMatch(new RegExp(`class="field__error">${text}<`));
        // The boxes as they were sent.
        expect(checked(bad.text, 'new_lottery')).toBe(true);
        expect(checked(bad.text, 'claim_reminder')).toBe(false);
        expect(await settingsOf(p.id)).toEqual({ language: 'bn', claim_reminder: null, new_lottery: null });
      }
    }
  });

  test('a post without the CSRF token is refused and changes nothing', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia' });
    const r = await p.agent.post('/profile').type('form').send({ intent: 'messages', language: 'en' });
    expect(r.status).toBe(403);
    expect(await settingsOf(p.id)).toEqual({ language: 'bn', claim_reminder: null, new_lottery: null });
  });

  test('the notifications page links to the settings, and the settings to the notifications', async () => {
    const p = await pageAccount(t, { name: 'Karim Mia', lang: 'bn' });
    const profile = await p.agent.get('/profile').expect(200);
    expect(profile.text).toContain('আপনার বিজ্ঞপ্তি দেখুন');
    expect(profile.text).toMatch(/<a[^>]*href="\/notifications"[^>]*>আপনার বিজ্ঞপ্তি দেখুন/);
    const page = await p.agent.get('/notifications').expect(200);
    expect(page.text).toMatch(/<a[^>]*href="\/profile#messages"[^>]*>বার্তার সেটিংস/);
  });
});
