import { prepare, type ApiClient } from '../shared/api-client.ts';
import type { ApiErrorBody, ApiResult, SessionUser } from '../shared/api-types.ts';

let csrfToken = '';
/** The token the server rendered into the page; refreshed whenever the session is read again. */
export function setCsrf(token: string): void {
  csrfToken = token;
}

/**
 * A shared page carries no token (docs/decisions/011-shared-pages-are-whole-responses.md): before the first unsafe
 * request from such a page, the session is read once, which gives this browser its id and token.
 */
async function token(): Promise<string> {
  if (!csrfToken) {
    const r = await call<{ csrf?: unknown }>('GET', '/bff/session');
    if (r.ok && typeof r.data.csrf === 'string') csrfToken = r.data.csrf;
  }
  return csrfToken;
}

const TIMEOUT_MS = 15_000;

async function call<T>(
  method: string,
  url: string,
  body?: BodyInit,
  contentType?: string,
  extra: { 'idempotency-key'?: string } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (contentType) headers['content-type'] = contentType;
  if (method !== 'GET') headers['x-csrf-token'] = await token();
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body ?? null, credentials: 'same-origin', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const timeout = (err as { name?: string }).name === 'TimeoutError';
    return { ok: false, status: 0, error: { detail: navigatorText(timeout), code: timeout ? 'timeout' : 'network' } };
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (res.ok) {
    const total = res.headers.get('x-total-count');
    return { ok: true, status: res.status, data: parsed as T, total: total ? Number(total) : null };
  }
  return {
    ok: false,
    status: res.status,
    error: (parsed && typeof parsed === 'object' ? parsed : { detail: `HTTP ${res.status}` }) as ApiErrorBody,
  };
}

/** Network failures before any answer: worded in the page's language. */
function navigatorText(timeout: boolean): string {
  const bn = document.documentElement.lang === 'bn';
  if (timeout) return bn ? 'সার্ভার উত্তর দিতে অনেক সময় নিচ্ছে। আবার চেষ্টা করুন।' : 'The server took too long to answer. Please try again.';
  return bn ? 'নেটওয়ার্ক সমস্যা। আপনার সংযোগ দেখে আবার চেষ্টা করুন।' : 'Network error. Please check your connection and try again.';
}

/** A session opened through the server (a login, the sign-up code): the tokens stay in its cookie, the page gets the user. */
async function openSession(path: string, body: object): Promise<ApiResult<SessionUser>> {
  const r = await call<{ user: SessionUser }>('POST', path, JSON.stringify(body), 'application/json');
  return r.ok ? { ...r, data: r.data.user } : r;
}

/** The browser transport of ApiClient: /bff with the session cookie and the CSRF header. */
export const bffApi: ApiClient = {
  call: (e, ...[input]) => {
    const p = prepare(e, input);
    return call(p.method, `/bff${p.url}`, p.json, p.json === undefined ? undefined : 'application/json', p.headers);
  },
  upload: (e, file, query) => call(e.method, `/bff${prepare(e, (query ? { query } : undefined) as never).url}`, file, file.type),
  login: (body) => openSession('/bff/session', body),
  verifyAccount: (body) => openSession('/bff/session/verify', body),
  async logout() {
    await call('POST', '/bff/logout');
  },
  // The /bff proxy clears the cookie of a session the API refused; the next navigation's guard reads that.
  sessionEnded: () => false,
  async renewSession() {
    await call('POST', '/bff/session/renew');
  },
  async session() {
    const r = await call<{ user: SessionUser | null; csrf: string }>('GET', '/bff/session');
    if (r.ok) {
      setCsrf(r.data.csrf);
      return r.data;
    }
    return { user: null, csrf: csrfToken };
  },
};
