import type { RequestHandler } from 'express';
import type { i18n as I18n } from 'i18next';
import { LANG_COOKIE } from '../../shared/i18n.ts';
import { isLanguage } from '../i18n.ts';

/**
 * The visitor's language on every request. A request that already names a supported language plainly — the
 * `lang` cookie, or an `Accept-Language` of exactly `en`/`bn` as the pages send to the API — gets it at once with
 * a translator made once per language; anything else (a `?lng=` switch, a browser's weighted header) goes
 * through i18next-http-middleware's detection, which clones an i18next instance per request.
 */
export function languageMiddleware(i18n: I18n, detect: RequestHandler): RequestHandler {
  const fixed = { en: i18n.getFixedT('en'), bn: i18n.getFixedT('bn') };
  return (req, res, next) => {
    if (req.query?.lng !== undefined) return detect(req, res, next);
    const cookie: unknown = req.cookies?.[LANG_COOKIE];
    const header = req.headers['accept-language'];
    const lng = isLanguage(cookie) ? cookie : isLanguage(header) ? header : null;
    if (!lng) return detect(req, res, next);
    req.language = lng;
    req.languages = lng === 'en' ? ['en'] : [lng, 'en'];
    req.i18n = i18n;
    req.t = fixed[lng];
    res.setHeader('Content-Language', lng);
    next();
  };
}
