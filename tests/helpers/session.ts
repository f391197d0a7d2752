import request from 'supertest';
import { sessionCookieName } from '../../server/bff/session.ts';

export type Agent = ReturnType<typeof request.agent>;

/** The CSRF token the server rendered into a page's forms (the hidden `_csrf` input). */
export function csrfFrom(html: string): string {
  const m = /name="_csrf"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="_csrf"/.exec(html);
  const token = m?.[1] ?? m?.[2];
  if (!token) throw new Error('no _csrf field in the page');
  return token;
}

/** The Set-Cookie lines of a response. */
export const setCookies = (res: { headers: Record<string, unknown> }): string[] =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []);

/**
 * The session cookie among a response's Set-Cookie lines, under either of its names: `bh_session` on plain http
 * (development, tests) or `__Host-bh_session` in production (server/bff/session.ts `sessionCookieName`).
 */
export const sessionSetCookie = (res: { headers: Record<string, unknown> }): string | undefined =>
  setCookies(res).find((c) => [false, true].some((secure) => c.startsWith(`${sessionCookieName({ secure })}=`)));

/**
 * Logs in the way a browser without JavaScript does: GET /login (visitor and CSRF cookies, token from the form),
 * then POST the login form. Returns the agent, which now carries the session cookie (in production that cookie is
 * Secure, and supertest does not send Secure cookies back over http: set it by hand there).
 * Give it an agent to keep using, or the app's URL to get a new one.
 */
export async function loginAs(agentOrUrl: Agent | string, phone: string, password: string): Promise<Agent> {
  const agent = typeof agentOrUrl === 'string' ? request.agent(agentOrUrl) : agentOrUrl;
  const page = await agent.get('/login').expect(200);
  const res = await agent
    .post('/login')
    .type('form')
    .send({ phone, password, _csrf: csrfFrom(page.text) });
  if (res.status !== 303 || !sessionSetCookie(res)) {
    throw new Error(`login as ${phone} failed: ${res.status} ${res.text.slice(0, 200)}`);
  }
  return agent;
}

/**
 * Logs in as a browser without JavaScript does and returns the whole Cookie header the browser then sends (visitor,
 * CSRF and session cookies): a test can keep sending it after the server told the browser to drop the session, as
 * someone who saved it would (docs/rules/accounts-and-codes.md#10-sessions).
 */
export async function loginCookie(url: string, phone: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: { headers: Record<string, unknown> }) => {
    for (const c of setCookies(res)) {
      const pair = c.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await request(url).get('/login').expect(200);
  keep(page);
  const res = await request(url)
    .post('/login')
    .set('Cookie', header())
    .type('form')
    .send({ phone, password, _csrf: csrfFrom(page.text) });
  if (res.status !== 303 || !sessionSetCookie(res)) throw new Error(`login as ${phone} failed: ${res.status}`);
  keep(res);
  return header();
}

/** The access and refresh tokens inside a session cookie of a Cookie header (as the BFF keeps them). */
export function tokensInCookie(cookie: string): { access: string; refresh: string } {
  const raw = /(?:^|; )(?:__Host-)?bh_session=([^;]*)/.exec(cookie)?.[1];
  if (!raw) throw new Error('no session cookie');
  const signed = decodeURIComponent(raw).replace(/^s:/, '');
  const json = signed.slice(0, signed.lastIndexOf('.'));
  const { a, r } = JSON.parse(json) as { a: string; r: string };
  return { access: a, refresh: r };
}
