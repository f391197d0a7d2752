/**
 * A page's API calls share one token check (server/bff/server-api.ts): the reads of one page request ask the database
 * once whether the session is live, a write is checked on its own, and a read after a write is checked again. A
 * player's page reads its top bar with the check; a back-office page checks alone.
 */
import type { Request, Response } from 'express';
import type { TFunction } from 'i18next';
import type { AccessClaims } from '../../server/accounts/tokens.ts';
import { serverApi } from '../../server/bff/server-api.ts';
import { Upstream, type LocalApi } from '../../server/bff/upstream.ts';
import type { Csrf } from '../../server/http/csrf.ts';
import { api as contract } from '../../shared/api/contract.ts';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const tokenFor = (userId: number) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ user_id: userId, name: 'Rahim', phone: null, is_staff: false, exp: Math.floor(Date.now() / 1000) + 3600 })}.x`;

function harness() {
  const checked: string[] = [];
  const how: ('alone' | 'page')[] = [];
  const claims = { user_id: 7, sid: 's', is_active: true, is_staff: false } as unknown as AccessClaims;
  const local: LocalApi = {
    served: new Map(),
    authenticate: () => Promise.reject(new Error('a page checks through checkAlone or authenticatePage')),
    checkAlone: async (token) => {
      checked.push(token);
      how.push('alone');
      return { claims };
    },
    authenticatePage: async (token) => {
      checked.push(token);
      how.push('page');
      return { claims, topBar: { unread: 3 } };
    },
    call: async (_e, _input, who) => {
      const c = who.token ? await (who.check ?? local.checkAlone)(who.token, who.t) : null;
      return { status: 200, headers: {}, data: { topBar: c?.topBar ?? null }, total: null };
    },
  };
  const requestOf = (token: string, path = '/my-lotteries') =>
    ({
      path,
      signedCookies: { bh_session: JSON.stringify({ a: token, r: 'refresh' }) },
      t: ((k: string) => k) as unknown as TFunction,
      language: 'en',
      ip: '203.0.113.9',
      protocol: 'http',
      get: () => 'localhost',
    }) as unknown as Request;
  const res = { cookie: () => undefined, clearCookie: () => undefined } as unknown as Response;
  const deps = { upstream: new Upstream({ local }, 5000), session: { secure: false, maxAgeMs: 60_000 }, csrf: {} as Csrf };
  return { checked, how, apiFor: (req: Request) => serverApi(req, res, deps), requestOf };
}

test("a page's reads check the session once", async () => {
  const h = harness();
  const api = h.apiFor(h.requestOf(tokenFor(7)));
  await Promise.all([api.call(contract.realityCheck), api.call(contract.unreadNotifications)]);
  await api.call(contract.realityCheck);
  expect(h.checked).toHaveLength(1);
});

test('a write is checked on its own, and the reads after it are checked again', async () => {
  const h = harness();
  const api = h.apiFor(h.requestOf(tokenFor(7)));
  await api.call(contract.realityCheck);
  await api.call(contract.acknowledgeRealityCheck);
  expect(h.checked).toHaveLength(2);
  await api.call(contract.realityCheck);
  await api.call(contract.unreadNotifications);
  expect(h.checked).toHaveLength(3);
});

test('each request checks its own session', async () => {
  const h = harness();
  const [a, b] = [tokenFor(7), tokenFor(8)];
  const one = h.requestOf(a);
  const two = h.requestOf(b);
  await h.apiFor(one).call(contract.realityCheck);
  await h.apiFor(two).call(contract.realityCheck);
  await h.apiFor(one).call(contract.unreadNotifications);
  expect(h.checked).toEqual([a, b]);
});

test("a player's page reads its top bar with its check; a back-office page checks alone", async () => {
  const h = harness();
  const page = h.apiFor(h.requestOf(tokenFor(7)));
  const [top, list] = await Promise.all([page.call(contract.topBar), page.call(contract.myLotteries, { query: {} })]);
  expect(top).toMatchObject({ ok: true, data: { topBar: { unread: 3 } } });
  expect(list).toMatchObject({ ok: true, data: { topBar: { unread: 3 } } });
  expect(h.how).toEqual(['page']);
  const staff = h.apiFor(h.requestOf(tokenFor(7), '/admin/transactions'));
  expect(await staff.call(contract.unreadNotifications)).toMatchObject({ ok: true, data: { topBar: null } });
  expect(h.how).toEqual(['page', 'alone']);
});
