import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A Host header as HTTP allows it (RFC 9110 §7.2, RFC 3986 §3.2.2): a name, an IPv4 address or a bracketed IPv6
 * address, then an optional port of digits. Percent-encoded names are not accepted (no client of ours sends one).
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=]+)(?::\d{0,5})?$/;

/** Whether a request's Host header can name this site: the syntax above, and a port up to 65535 (the URL parser's word). */
export function validHost(host: string | undefined): boolean {
  return typeof host === 'string' && HOST.test(host) && URL.canParse(`http://${host}`);
}

/**
 * A request whose Host header is malformed (`Host: undefined:undefined`, as a load-testing client sends it) is a
 * client's mistake: 400, as RFC 9112 §3.2 asks, before anything builds a URL from it
 * (docs/rules/limits.md#2-request-bodies). `/api` and `/bff` answer JSON like their other errors; pages plain text.
 * `language` gives the request its translator first.
 */
export function rejectBadHost(language: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (validHost(req.headers.host)) return next();
    void language(req, res, () => {
      const detail = req.t('api:badHost');
      res.status(400).set('Cache-Control', 'no-store');
      if (/^\/(api|bff)(\/|$)/.test(req.path)) res.json({ detail, code: 'bad_host' });
      else res.type('text/plain').send(detail);
    });
  };
}
