import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { CSRF_FIELD } from '../../shared/paths.ts';
import type { Csrf } from '../http/csrf.ts';
import type { Manifest } from './assets.ts';
import { sendMessage } from './message-page.ts';

/**
 * A form posted without JavaScript, before its route's action sees it: the body read within the size limit, the
 * CSRF token taken from the form and checked (docs/rules/security.md#4-csrf, docs/rules/limits.md).
 */

/** The request's headers as a fetch `Headers` (an action reads the body's Content-Type from them). */
export function requestHeaders(req: ExpressRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}

/** The whole body, or null as soon as it is longer than `limit` bytes. */
async function readBody(req: ExpressRequest, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The body of a form post whose CSRF token holds; null when the answer has been sent instead: 413 (too large),
 * 400 (not a form), 403 (a page that says the form is out of date, with a link back).
 */
export async function readFormPost(
  req: ExpressRequest,
  res: ExpressResponse,
  url: URL,
  d: { maxFormBytes: number; csrf: Csrf; manifest: () => Pick<Manifest, 'css'> },
): Promise<Buffer | null> {
  /** A form refused before its action: the message page with `text`, and the way back to the form's page. */
  const refuse = (status: number, text: string) => {
    sendMessage(
      req,
      res,
      status,
      { title: 'common:errors.genericTitle', text, link: { href: url.pathname, text: 'common:errors.openAgain' } },
      d.manifest().css,
    );
    return null;
  };
  const body = await readBody(req, d.maxFormBytes);
  if (!body) return refuse(413, 'common:errors.formTooLarge');
  try {
    const form = await new Request(url, { method: 'POST', headers: requestHeaders(req), body: new Uint8Array(body) }).formData();
    const tok = form.get(CSRF_FIELD);
    if (typeof tok === 'string') req.formCsrfToken = tok;
  } catch {
    return refuse(400, 'common:errors.badForm');
  }
  if (!d.csrf.check(req)) return refuse(403, 'api:csrfFailed');
  return body;
}
