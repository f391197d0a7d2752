/**
 * The answers a page request gets before or outside the React render (server/ssr/message-page.ts): a form out of date
 * (403), too large (413) or unreadable (400), and an error thrown before the page (500, or 503 when the database is
 * out of reach; a read lost during the render is the root's 503 page, db-outage.test.ts). Each is a whole HTML page
 * in the visitor's language with a title, the sentence and a link, and changes nothing.
 */
import cookieParser from 'cookie-parser';
import express from 'express';
import * as i18nMiddleware from 'i18next-http-middleware';
import request from 'supertest';
import { languageMiddleware } from '../../server/http/language.ts';
import { createI18n, loadResources } from '../../server/i18n.ts';
import { createLogger } from '../../server/log.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { messagePage, pageErrorHandler } from '../../server/ssr/message-page.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const TEXTS = {
  en: {
    title: 'Something went wrong',
    expired: 'This form has expired. Please reload the page and try again.',
    tooLarge: 'The form is too large.',
    unreadable: 'The form could not be read.',
    again: 'Open the page again',
  },
  bn: {
    title: 'কিছু একটা সমস্যা হয়েছে',
    expired: 'এই ফর্মের মেয়াদ শেষ হয়েছে। পাতাটি আবার লোড করে চেষ্টা করুন।',
    tooLarge: 'ফর্মটি অনেক বড়।',
    unreadable: 'ফর্মটি পড়া যায়নি।',
    again: 'পাতাটি আবার খুলুন',
  },
} as const;

/** A browser on /register in this language: its cookies and its form's token. */
async function browser(lng: 'en' | 'bn') {
  const agent = request.agent(t.url).set('Accept-Language', lng);
  const page = await agent.get('/register').expect(200);
  return { agent, token: csrfFrom(page.text) };
}

const users = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM users'))?.n;

function expectPage(res: request.Response, status: number, lng: 'en' | 'bn', text: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain(`<html lang="${lng}">`);
  expect(res.text).toContain(`<title>${TEXTS[lng].title}</title>`);
  expect(res.text).toContain(`<h1>${TEXTS[lng].title}</h1>`);
  expect(res.text).toContain(`<p>${text}</p>`);
  expect(res.text).toContain(`<a class="btn btn-primary" href="/register">${TEXTS[lng].again}</a>`);
  expect(res.text).toContain('name="viewport"');
}

describe.each(['en', 'bn'] as const)('in %s', (lng) => {
  test('a form out of date (its token wrong): 403, the page says so, nobody registered', async () => {
    const { agent, token } = await browser(lng);
    const before = await users();
    const res = await agent
      .post('/register')
      .type('form')
      .send({ _csrf: `${token}x`, name: 'Rahim', phone: '01755555555', password: 'a-long-password-1', password2: 'a-long-password-1' });
    expectPage(res, 403, lng, TEXTS[lng].expired);
    expect(await users()).toBe(before);
  });

  test('a form over the size limit: 413, the page says so', async () => {
    const { agent, token } = await browser(lng);
    const res = await agent
      .post('/register')
      .type('form')
      .send(`_csrf=${encodeURIComponent(token)}&name=${'x'.repeat(3 * 1024 * 1024 + 1)}`);
    expectPage(res, 413, lng, TEXTS[lng].tooLarge);
  });

  test('a body that is not a form: 400, the page says so', async () => {
    const { agent } = await browser(lng);
    const res = await agent.post('/register').set('Content-Type', 'multipart/form-data').send('not a form');
    expectPage(res, 400, lng, TEXTS[lng].unreadable);
  });
});

test('the page escapes what it is given', () => {
  const html = messagePage('en', 'A <b> title', 'Text & "quotes"', { href: '/x?a=1&b="2"', text: "it's" }, ['/a.css?"x"']);
  expect(html).toContain('<title>A &#60;b&#62; title</title>');
  expect(html).toContain('<p>Text &#38; &#34;quotes&#34;</p>');
  expect(html).toContain('<a class="btn btn-primary" href="/x?a=1&#38;b=&#34;2&#34;">it&#39;s</a>');
  expect(html).toContain('<link rel="stylesheet" href="/a.css?&#34;x&#34;">');
});

describe('an error thrown before the page (the pages’ last error handler)', () => {
  /** A page route that throws `err`, behind the app's language middleware and its last error handler. */
  async function throwing(err: unknown) {
    const detector = new i18nMiddleware.LanguageDetector(null, { order: ['cookie', 'header'], lookupCookie: 'lang', caches: false });
    const i18n = await createI18n(loadResources(), [detector]);
    const lines: string[] = [];
    const app = express();
    app.use(cookieParser());
    app.use(languageMiddleware(i18n, i18nMiddleware.handle(i18n)));
    app.get('/my-lotteries', () => {
      throw err;
    });
    app.use(
      pageErrorHandler(createLogger('info', { write: (line: string) => void lines.push(line) }), () => ({ css: ['/assets/app.css'] })),
    );
    return { app, lines };
  }
  const gone = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  test.each([
    ['en', 'Busy right now', 'The service is busy or being restarted. Please try again in a few seconds.', 'Back to home'],
    ['bn', 'এই মুহূর্তে ব্যস্ত', 'সেবাটি এই মুহূর্তে ব্যস্ত বা আবার চালু হচ্ছে। কয়েক সেকেন্ড পরে আবার চেষ্টা করুন।', 'হোম পাতায় ফিরুন'],
  ])(
    'the database out of reach (%s): 503 with Retry-After, the page in the visitor’s language, nothing logged',
    async (lng, title, text, home) => {
      const { app, lines } = await throwing(gone);
      const res = await request(app).get('/my-lotteries').set('Cookie', `lang=${lng}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain(`<html lang="${lng}">`);
      expect(res.text).toContain('<link rel="stylesheet" href="/assets/app.css">');
      expect(res.text).toContain(`<h1>${title}</h1><p>${text}</p><a class="btn btn-primary" href="/">${home}</a>`);
      expect(lines).toEqual([]);
    },
  );

  test('any other error: 500, the page in the visitor’s language, the error logged with its URL', async () => {
    const { app, lines } = await throwing(new Error('a bug'));
    const res = await request(app).get('/my-lotteries').set('Accept-Language', 'bn');
    expect(res.status).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.text).toContain('<h1>কিছু একটা সমস্যা হয়েছে</h1><p>আমাদের দিকে একটি সমস্যা হয়েছে। অনুগ্রহ করে আবার চেষ্টা করুন।</p>');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ msg: 'unhandled error', url: '/my-lotteries', err: { message: 'a bug' } });
  });
});
