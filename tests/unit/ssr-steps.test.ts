/**
 * The steps of the SSR pipeline (server/ssr/render.tsx), one by one: the route matched, shared or own, the Fetch
 * request, the routes run (a page started, or the redirect that came out instead).
 */
import { createStaticHandler, redirect, RouterContextProvider, type RouteObject } from 'react-router';
import type { Request as ExpressRequest } from 'express';
import { fetchRequest, routeMatcher, runRoutes, sharing } from '../../server/ssr/render.tsx';
import type { Rendering } from '../../server/ssr/stream.ts';

const tree: RouteObject[] = [
  {
    path: '/',
    children: [
      { index: true, handle: { chunk: 'views/home.tsx', cache: ['pick'] } },
      { path: 'results/:id', handle: { chunk: 'views/draw.tsx' } },
      { path: '/admin', children: [{ path: 'users/:id', handle: { chunk: 'views/user.tsx' } }] },
    ],
  },
];

describe('step 1: the route', () => {
  const matched = routeMatcher(tree);
  test('gives the handles of the matched routes and the pattern, relative paths appended and absolute ones replacing', () => {
    expect(matched('/')).toEqual({ handles: [undefined, { chunk: 'views/home.tsx', cache: ['pick'] }], pattern: '/' });
    expect(matched('/results/7').pattern).toBe('/results/:id');
    expect(matched('/results/7').handles.at(-1)).toEqual({ chunk: 'views/draw.tsx' });
    expect(matched('/admin/users/3').pattern).toBe('/admin/users/:id');
  });
  test('names a path that matches nothing "not found"', () => {
    expect(matched('/nowhere/at/all')).toEqual({ handles: [], pattern: 'not found' });
  });
  test('remembers a path: the same answer, not matched again', () => {
    expect(matched('/results/8')).toBe(matched('/results/8'));
  });
});

describe('step 2: shared or own', () => {
  const home = routeMatcher(tree)('/').handles;
  const draw = routeMatcher(tree)('/results/1').handles;
  const visit = (url: string, o: Partial<Parameters<typeof sharing>[0]> = {}) => ({
    method: 'GET',
    url: new URL(url, 'http://x'),
    lng: 'en' as const,
    chosen: false,
    loggedIn: false,
    cacheEnabled: true,
    ...o,
  });
  test('an anonymous GET of a page that allows it, with only the parameters it names, is shared', () => {
    expect(sharing(visit('/?pick=3'), home)).toEqual({ cacheable: true, key: 'en|0|/?pick=3' });
    expect(sharing(visit('/', { lng: 'bn', chosen: true }), home)).toEqual({ cacheable: true, key: 'bn|1|/' });
  });
  test('a logged-in visitor, a POST or HEAD, another parameter, a page without `cache` or a cache turned off: rendered own', () => {
    expect(sharing(visit('/', { loggedIn: true }), home).cacheable).toBe(false);
    expect(sharing(visit('/', { method: 'POST' }), home).cacheable).toBe(false);
    expect(sharing(visit('/', { method: 'HEAD' }), home).cacheable).toBe(false);
    expect(sharing(visit('/?q=x'), home).cacheable).toBe(false);
    expect(sharing(visit('/results/1'), draw).cacheable).toBe(false);
    expect(sharing(visit('/', { cacheEnabled: false }), home).cacheable).toBe(false);
  });
});

describe('step 4: the Fetch request', () => {
  const req = (method: string, headers: Record<string, string> = {}) => ({ method, headers }) as unknown as ExpressRequest;
  const url = new URL('http://x/login?from=%2Fprofile');
  test('a HEAD is rendered as the GET it stands for, without a body', async () => {
    const r = fetchRequest(req('HEAD'), url, undefined, new AbortController().signal);
    expect(r.method).toBe('GET');
    expect(r.url).toBe(url.href);
    expect(r.body).toBeNull();
  });
  test("a form post carries its body and its Content-Type; the visitor's leaving aborts it", async () => {
    const c = new AbortController();
    const r = fetchRequest(
      req('POST', { 'content-type': 'application/x-www-form-urlencoded' }),
      url,
      Buffer.from('phone=01700000000'),
      c.signal,
    );
    expect(r.method).toBe('POST');
    expect(r.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await r.clone().text()).toBe('phone=01700000000');
    c.abort();
    expect(r.signal.aborted).toBe(true);
  });
});

describe('step 5: the routes run', () => {
  const page = { abort: () => undefined } as unknown as Rendering;
  const run = (routes: RouteObject[], path: string) => {
    const starts: number[] = [];
    const out = runRoutes(createStaticHandler(routes), new Request(`http://x${path}`), new RouterContextProvider(), async (ctx) => {
      starts.push(ctx.statusCode);
      return { page, status: ctx.statusCode };
    });
    return { out, starts };
  };
  test('a page: its render started once, with the status of its context', async () => {
    const { out, starts } = run([{ path: '/', loader: () => 'data' }], '/');
    expect(await out).toEqual({ page, status: 200 });
    expect(starts).toEqual([200]);
  });
  test('a path no route matches renders the 404 page', async () => {
    const { out } = run([{ path: '/', loader: () => 'data' }], '/missing');
    expect(await out).toEqual({ page, status: 404 });
  });
  test("a loader's redirect comes out as the response to send, no render started", async () => {
    const { out, starts } = run([{ path: '/', loader: () => redirect('/login', 302) }], '/');
    const o = await out;
    expect('response' in o && o.response.status).toBe(302);
    expect('response' in o && o.response.headers.get('location')).toBe('/login');
    expect(starts).toEqual([]);
  });
  test("a guard's redirect after the page was rendered wins over the page (a session ended meanwhile)", async () => {
    const { out, starts } = run(
      [{ path: '/', middleware: [async (_a, next) => (await next(), redirect('/login', 302))], loader: () => 'data' }],
      '/',
    );
    const o = await out;
    expect('response' in o && o.response.headers.get('location')).toBe('/login');
    expect(starts).toEqual([200]);
  });
  test('a guard that passes the page on leaves it a page', async () => {
    const { out } = run([{ path: '/', middleware: [async (_a, next) => next()], loader: () => 'data' }], '/');
    expect(await out).toEqual({ page, status: 200 });
  });
});
