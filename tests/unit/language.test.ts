import express from 'express';
import cookieParser from 'cookie-parser';
import * as i18nMiddleware from 'i18next-http-middleware';
import request from 'supertest';
import { createI18n, loadResources } from '../../server/i18n.ts';
import { languageMiddleware } from '../../server/http/language.ts';

describe('languageMiddleware', () => {
  let app: express.Express;
  let detections = 0;
  beforeAll(async () => {
    const detector = new i18nMiddleware.LanguageDetector(null, {
      order: ['querystring', 'cookie', 'header'],
      lookupQuerystring: 'lng',
      lookupCookie: 'lang',
      caches: false,
    });
    const i18n = await createI18n(loadResources(), [detector]);
    const full = i18nMiddleware.handle(i18n);
    app = express();
    app.use(cookieParser());
    app.use(
      languageMiddleware(i18n, (req, res, next) => {
        detections++;
        full(req, res, next);
      }),
    );
    app.get('/', (req, res) => void res.json({ lng: req.language, text: req.t('api:notFound') }));
  });

  test.each([
    [{ Cookie: 'lang=bn' }, 'bn', false],
    [{ 'Accept-Language': 'bn' }, 'bn', false],
    [{ 'Accept-Language': 'en' }, 'en', false],
    [{ 'Accept-Language': 'bn-BD,bn;q=0.9,en;q=0.5' }, 'bn', false],
    [{ 'Accept-Language': 'fr-FR,fr;q=0.9' }, 'en', false],
    [{ Cookie: 'lang=fr', 'Accept-Language': 'fr-FR' }, 'en', true],
    [{}, 'en', false],
  ])('%o → %s (full detection: %s), with the texts of that language', async (headers, lng, detected) => {
    const before = detections;
    const r = await request(app)
      .get('/')
      .set(headers as Record<string, string>)
      .expect(200);
    expect(r.body.lng).toBe(lng);
    expect(r.body.text).toBe(lng === 'bn' ? 'পাওয়া যায়নি।' : 'Not found.');
    expect(r.headers['content-language']).toBe(lng);
    expect(detections - before).toBe(detected ? 1 : 0);
  });

  test('a ?lng= switch always goes through detection and wins over the cookie', async () => {
    const r = await request(app).get('/?lng=bn').set('Cookie', 'lang=en').expect(200);
    expect(r.body.lng).toBe('bn');
  });
});
