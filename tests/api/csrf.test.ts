/**
 * CSRF refusal for every unsafe route, from the route lists themselves (docs/rules/security.md#4-csrf): a new form action in
 * views/routes.tsx or a new unsafe BFF route is covered here without a new test.
 *
 *  - SSR: every route of the route tree whose module has an `action` (form posts; sent both url-encoded and
 *    multipart, as /register's form is).
 *  - BFF: every unsafe method+path of the router that server/bff/routes.ts builds; the `/bff/api/*` proxy with
 *    each of POST, PUT, PATCH and DELETE.
 *
 * Each is refused (403) without a token, with a wrong token, and from another site even with a valid token; and
 * passes the CSRF check with the valid token from our own pages (the control that makes the refusals mean something).
 */
import request from 'supertest';
import { routes } from '../../views/routes.tsx';
import { bffRoutes } from '../../server/bff/routes.ts';
import type { Upstream } from '../../server/bff/upstream.ts';
import { createCsrf } from '../../server/http/csrf.ts';
import { loadResources } from '../../server/i18n.ts';
import { CSRF_FIELD } from '../../shared/paths.ts';
import { createLogger } from '../../server/log.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { csrfFrom } from '../helpers/session.ts';
import { actionPaths, samplePath } from '../helpers/routes.ts';

type Res = request.Response;
type Agent = ReturnType<typeof request.agent>;

type Layer = { route?: { path: string; methods: Record<string, boolean> } };
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

/** Every unsafe method+path of the BFF router (mounted at /bff); an all-methods route gets each unsafe method. */
function bffUnsafeRoutes(): [string, string][] {
  const csrf = createCsrf('x'.repeat(32), false, undefined);
  const router = bffRoutes({
    upstream: {} as Upstream,
    session: { secure: false, maxAgeMs: 1000 },
    csrf,
    log: createLogger('silent'),
  }) as unknown as { stack: Layer[] };
  const out: [string, string][] = [];
  for (const layer of router.stack) {
    if (!layer.route) continue;
    const methods = layer.route.methods._all
      ? UNSAFE
      : Object.keys(layer.route.methods)
          .map((m) => m.toUpperCase())
          .filter((m) => UNSAFE.includes(m));
    for (const m of methods) out.push([m, `/bff${samplePath(layer.route.path)}`]);
  }
  return out;
}

const SSR_POSTS = await actionPaths(routes);
const BFF_UNSAFE = bffUnsafeRoutes();
const CSRF_FAILED = (loadResources() as Record<'en', { api: { csrfFailed: string } }>).en.api.csrfFailed;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A browser that has loaded one of our pages: its cookies, and the token of its forms. */
async function browser(): Promise<{ agent: Agent; token: string }> {
  const agent = request.agent(t.url);
  const page = await agent.get('/login').set('Cookie', 'lang=en').expect(200);
  return { agent, token: csrfFrom(page.text) };
}
const tampered = (token: string) => `${token.slice(0, -4)}${token.endsWith('0000') ? '1111' : '0000'}`;

type Case = { name: string; token: (valid: string) => string | null; headers: Record<string, string> };
const REFUSED: Case[] = [
  { name: 'no token', token: () => null, headers: {} },
  { name: 'a wrong token', token: tampered, headers: {} },
  { name: 'a valid token, Origin of another site', token: (v) => v, headers: { Origin: 'https://evil.example' } },
  { name: 'a valid token, Sec-Fetch-Site: cross-site', token: (v) => v, headers: { 'Sec-Fetch-Site': 'cross-site' } },
];
const ALLOWED: Case = { name: 'the valid token from our own page', token: (v) => v, headers: { 'Sec-Fetch-Site': 'same-origin' } };

test('the tables are not empty: the walks found the form actions and the BFF routes', () => {
  expect(SSR_POSTS).toEqual(expect.arrayContaining(['/login', '/register', '/logout', '/contact']));
  expect(BFF_UNSAFE).toEqual(
    expect.arrayContaining([
      ['POST', '/bff/session'],
      ['POST', '/bff/logout'],
    ]),
  );
  for (const m of UNSAFE) expect(BFF_UNSAFE).toContainEqual([m, '/bff/api/csrf-sample']);
});

describe.each(['form', 'multipart'] as const)('SSR form posts (%s)', (encoding) => {
  async function post(agent: Agent, path: string, c: Case, valid: string): Promise<Res> {
    const token = c.token(valid);
    const req = agent.post(path).set('Cookie', 'lang=en').set(c.headers);
    if (encoding === 'form') return req.type('form').send(token === null ? {} : { [CSRF_FIELD]: token });
    // multipart: a file part too, as the registration form sends its picture
    const mp = req.attach('picture', Buffer.from('not an image'), { filename: 'x.txt', contentType: 'text/plain' });
    return token === null ? mp.field('note', 'x') : mp.field(CSRF_FIELD, token);
  }

  test.each(SSR_POSTS)('POST %s', async (path) => {
    const { agent, token } = await browser();
    for (const c of REFUSED) {
      const res = await post(agent, path, c, token);
      if (res.status !== 403 || !res.text.includes(CSRF_FAILED))
        throw new Error(`POST ${path} with ${c.name}: ${res.status} (expected 403)`);
    }
    const ok = await post(agent, path, ALLOWED, token);
    expect(ok.status).not.toBe(403);
    expect(ok.text).not.toContain(CSRF_FAILED);
  });
});

describe('BFF', () => {
  test.each(BFF_UNSAFE)('%s %s', async (method, path) => {
    const { agent, token } = await browser();
    const send = (c: Case) => {
      const tok = c.token(token);
      const req = agent[method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](path).set(c.headers);
      return (tok === null ? req : req.set('x-csrf-token', tok)).send({});
    };
    for (const c of REFUSED) {
      const res = await send(c);
      if (res.status !== 403 || res.body.code !== 'csrf_failed')
        throw new Error(`${method} ${path} with ${c.name}: ${res.status} ${res.text.slice(0, 120)}`);
      expect(res.body).toEqual({ detail: CSRF_FAILED, code: 'csrf_failed' });
    }
    const ok = await send(ALLOWED);
    expect(ok.status).not.toBe(403);
    expect(ok.body?.code).not.toBe('csrf_failed');
  });
});

describe('the token cookie', () => {
  const csrfCookies = (res: Res) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).filter((c) => c.startsWith('bh_csrf='));

  test('is set with the first form page, and not set again while the browser holds the same token', async () => {
    const agent = request.agent(t.url);
    const first = await agent.get('/login').set('Cookie', 'lang=en').expect(200);
    expect(csrfCookies(first)).toHaveLength(1);
    const again = await agent.get('/login').set('Cookie', 'lang=en').expect(200);
    expect(csrfFrom(again.text)).toBe(csrfFrom(first.text));
    expect(csrfCookies(again)).toEqual([]); // no cookie set again that the browser holds
  });

  test('a tampered token cookie is replaced', async () => {
    const agent = request.agent(t.url);
    const first = await agent.get('/login').set('Cookie', 'lang=en').expect(200);
    const vid = ([] as string[])
      .concat(first.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('bh_vid='))
      ?.split(';')[0];
    const r = await request(t.url)
      .get('/login')
      .set('Cookie', `lang=en; ${vid}; bh_csrf=${tampered(csrfFrom(first.text))}`)
      .expect(200);
    expect(csrfCookies(r)).toHaveLength(1);
    expect(csrfFrom(r.text)).not.toBe(tampered(csrfFrom(first.text)));
  });
});
