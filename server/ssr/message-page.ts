import type { ErrorRequestHandler, Request, Response } from 'express';
import { databaseUnavailable, UNAVAILABLE_RETRY_AFTER } from '../db/unavailable.ts';
import { escapeHtml as esc } from '../http/html.ts';
import { isLanguage } from '../i18n.ts';
import type { Logger } from '../log.ts';
import type { Manifest } from './assets.ts';

/**
 * A whole page of one message, for the answers a page request gets before or outside the React render (a form too
 * large, unreadable or out of date; the database out of reach, or an error before the page): in the visitor's
 * language, a title, the sentence and one link, with the app's stylesheet and no script.
 */
export type Message = {
  /** Translation keys (`namespace:key`) of the title and the sentence. */
  title: string;
  text: string;
  link: { href: string; text: string };
};

/** The message in the markup of the root's error page (views/root.tsx), without its top bar and footer. */
export function messagePage(
  lng: string,
  title: string,
  text: string,
  link: { href: string; text: string },
  css: readonly string[] = [],
): string {
  return (
    `<!DOCTYPE html><html lang="${esc(lng)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${esc(title)}</title>${css.map((href) => `<link rel="stylesheet" href="${esc(href)}">`).join('')}</head>` +
    `<body><main id="main" class="main"><section class="container narrow page-message"><h1>${esc(title)}</h1>` +
    `<p>${esc(text)}</p><a class="btn btn-primary" href="${esc(link.href)}">${esc(link.text)}</a></section></main></body></html>`
  );
}

/**
 * Answers `status` with the message page in the request's language (English when the request never reached the
 * language middleware), styled by the app's stylesheets (`css`, from the build's manifest: its Bengali font too). The
 * link's text is a translation key too.
 */
export function sendMessage(req: Request, res: Response, status: number, m: Message, css: readonly string[]): void {
  const t = (key: string, fallback: string) => (req.t ? req.t(key) : fallback);
  const lng = isLanguage(req.language) ? req.language : 'en';
  res
    .status(status)
    .type('text/html')
    .set('Cache-Control', 'no-store')
    .send(
      messagePage(
        lng,
        t(m.title, 'Error'),
        t(m.text, 'Please try again in a moment.'),
        { href: m.link.href, text: t(m.link.text, '↩') },
        css,
      ),
    );
}

/**
 * The pages' last error handler: an error thrown before or outside a page's render. The database out of reach is 503
 * with Retry-After (the pool's warning has said it once already); anything else is logged and is 500. Either is the
 * message page in the visitor's language, with the way back home.
 */
export function pageErrorHandler(log: Logger, manifest: () => Pick<Manifest, 'css'>): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const unavailable = databaseUnavailable(err);
    if (!unavailable) log.error({ err, url: req.originalUrl }, 'unhandled error');
    if (res.headersSent) return void res.end();
    if (unavailable) res.set('Retry-After', UNAVAILABLE_RETRY_AFTER);
    sendMessage(
      req,
      res,
      unavailable ? 503 : 500,
      {
        title: unavailable ? 'common:errors.unavailableTitle' : 'common:errors.genericTitle',
        text: unavailable ? 'api:databaseUnavailable' : 'api:serverError',
        link: { href: '/', text: 'common:errors.backHome' },
      },
      manifest().css,
    );
  };
}
