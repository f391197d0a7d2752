import type { Request, RequestHandler, Response } from 'express';
import type { i18n as I18n } from 'i18next';
import { LANG_COOKIE, type Language } from '../../shared/i18n.ts';
import { isLanguage } from '../i18n.ts';

/** Distinct Accept-Language headers remembered with the language they give (browsers send a handful). */
const MAX_HEADERS = 1000;

/**
 * The visitor's language on every request, with a translator made once per language. The `lang` cookie decides when it
 * names a language; else the `Accept-Language` header, read by i18next-http-middleware's own header detector (the
 * same rules: the weights, `bn-BD` as `bn`, English when none is ours) once per distinct header and remembered. Only a
 * `?lng=` switch, or a cookie that is there but names no language, goes through the middleware's whole detection,
 * which clones an i18next instance per request.
 */
export function languageMiddleware(i18n: I18n, detect: RequestHandler): RequestHandler {
  const fixed = { en: i18n.getFixedT('en'), bn: i18n.getFixedT('bn') };
  const byHeader = new Map<string, Language>();
  const fallback: Language = 'en';
  const fromHeader = (req: Request, res: Response): Language => {
    const header = req.headers['accept-language'] ?? '';
    let lng = byHeader.get(header);
    if (!lng) {
      const found: unknown = header ? i18n.services.languageDetector?.detect(req, res, ['header']) : undefined;
      lng = isLanguage(found) ? found : fallback;
      if (byHeader.size >= MAX_HEADERS) byHeader.clear();
      byHeader.set(header, lng);
    }
    return lng;
  };
  return (req, res, next) => {
    if (req.query?.lng !== undefined) return detect(req, res, next);
    const cookie: unknown = req.cookies?.[LANG_COOKIE];
    if (cookie !== undefined && !isLanguage(cookie)) return detect(req, res, next);
    const lng = isLanguage(cookie) ? cookie : fromHeader(req, res);
    req.language = lng;
    req.languages = lng === 'en' ? ['en'] : [lng, 'en'];
    req.i18n = i18n;
    req.t = fixed[lng];
    res.setHeader('Content-Language', lng);
    next();
  };
}
