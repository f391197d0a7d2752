/**
 * The visitor's language (server/http/language.ts) is the one i18next-http-middleware's whole detection gives, for any
 * `Accept-Language` a browser or a stranger may send and any `lang` cookie: generated headers, compared with the
 * middleware itself (tests/unit/language.test.ts shows which requests skip its per-request clone of i18next).
 */
import type { NextFunction, Request, Response } from 'express';
import fc from 'fast-check';
import * as i18nMiddleware from 'i18next-http-middleware';
import { createI18n, loadResources } from '../../server/i18n.ts';
import { languageMiddleware } from '../../server/http/language.ts';

const i18nP = (async () => {
  const detector = new i18nMiddleware.LanguageDetector(null, {
    order: ['querystring', 'cookie', 'header'],
    lookupQuerystring: 'lng',
    lookupCookie: 'lang',
    caches: false,
  });
  return createI18n(loadResources(), [detector]);
})();

type Seen = { language: string | undefined; contentLanguage: unknown };

/** Runs a middleware on a request with these headers and cookies: the language it gave, and its Content-Language. */
function through(
  mw: (req: Request, res: Response, next: NextFunction) => unknown,
  headers: Record<string, string>,
  cookies: Record<string, string>,
) {
  return new Promise<Seen>((resolve) => {
    const out: Record<string, unknown> = {};
    const req = { headers, cookies, query: {}, url: '/', originalUrl: '/', path: '/' } as unknown as Request;
    const res = {
      locals: {},
      setHeader: (k: string, v: unknown) => void (out[k.toLowerCase()] = v),
      getHeader: (k: string) => out[k.toLowerCase()],
      header: (k: string, v: unknown) => void (out[k.toLowerCase()] = v),
    } as unknown as Response;
    void mw(req, res, () => resolve({ language: req.language, contentLanguage: out['content-language'] }));
  });
}

const tag = fc.constantFrom('en', 'bn', 'EN', 'bn-BD', 'en-GB', 'en-US', 'fr', 'de-DE', 'hi', 'zh-Hant', '*', 'bengali', 'x', '');
const entry = fc
  .tuple(tag, fc.option(fc.constantFrom('1', '0.9', '0.5', '0.1', '0', '1.0', 'x'), { nil: undefined }))
  .map(([t, q]) => (q === undefined ? t : `${t};q=${q}`));
const header = fc.oneof(
  fc.array(entry, { maxLength: 5 }).map((es) => es.join(',')),
  fc.string({ maxLength: 30 }),
);
const cookie = fc.option(fc.constantFrom('en', 'bn', 'BN', 'fr', ''), { nil: undefined });

test('the same language as the middleware’s whole detection, for generated headers and cookies', async () => {
  const i18n = await i18nP;
  const full = i18nMiddleware.handle(i18n);
  const fast = languageMiddleware(i18n, full);
  await fc.assert(
    fc.asyncProperty(fc.option(header, { nil: undefined }), cookie, async (h, c) => {
      const headers: Record<string, string> = h === undefined ? {} : { 'accept-language': h };
      const cookies: Record<string, string> = c === undefined ? {} : { lang: c };
      const want = await through(full, headers, cookies);
      const got = await through(fast, headers, cookies);
      expect(got.language).toBe(want.language ?? 'en');
    }),
    { numRuns: 400 },
  );
});
