import { readFileSync } from 'node:fs';
import request from 'supertest';
import type { Express } from 'express';
import { api as contract } from '../../shared/api/contract.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: unknown; name?: string };

/** Every route registered below the product's express app, as `METHOD /path` (sub-routers and sub-apps included). */
function registeredRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const m of Object.keys(layer.route.methods)) if (m !== '_all') out.push(`${m.toUpperCase()} ${prefix}${layer.route.path}`);
        continue;
      }
      const h = layer.handle as { stack?: Layer[]; router?: { stack: Layer[] }; mountpath?: string } | undefined;
      if (h?.stack) walk(h.stack, prefix);
      else if (h?.router?.stack) walk(h.router.stack, prefix);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out;
}

describe('OpenAPI document', () => {
  test('is served at /api/openapi.json as OpenAPI 3.1 with every endpoint of the contract', async () => {
    const r = await request(t.url).get('/api/openapi.json').expect(200).expect('Content-Type', /json/);
    expect(r.body.openapi).toBe('3.1.0');
    for (const e of Object.values(contract)) {
      const op = r.body.paths[e.path.replace(/:(\w+)/g, '{$1}')]?.[e.method.toLowerCase()];
      expect({ endpoint: `${e.method} ${e.path}`, documented: op !== undefined }).toEqual({
        endpoint: `${e.method} ${e.path}`,
        documented: true,
      });
    }
  });

  test('every /api route the server registers is in the document, and nothing else is', async () => {
    const doc = (await request(t.url).get('/api/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    // The API's router is mounted at /api: its routes are registered without that prefix.
    const registered = registeredRoutes(t.app.api as Express).map((r) => r.replace(/^(\w+) /, '$1 /api'));
    expect(registered.length).toBeGreaterThanOrEqual(Object.keys(contract).length);
    expect([...new Set(registered)].sort()).toEqual([...new Set(documented)].sort());
  });

  test('request bodies, parameters, answers and security are described', async () => {
    const doc = (await request(t.url).get('/api/openapi.json').expect(200)).body;
    const signup = doc.paths['/api/v1/signup/'].post;
    expect(signup.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    expect(signup.responses['201'].content['application/json'].schema.properties).toHaveProperty('user_id');
    const user = doc.paths['/api/v1/users/{id}/'].get;
    expect(user.security).toEqual([{ bearer: [] }]);
    expect(user.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const list = doc.paths['/api/v1/published-lotteries/'].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['limit', 'offset']);
    expect(list.responses['200'].headers).toHaveProperty('X-Total-Count');
    expect(doc.paths['/api/v1/featured-lotteries/'].get.security).toBeUndefined();
    // The specification's back office: PUT sends {id, status}; the list's cards read the paying phone as `phone`.
    const put = doc.paths['/api/v1/transactions/{id}/'].put.requestBody.content['application/json'].schema;
    expect(Object.keys(put.properties).sort()).toEqual(['id', 'status']);
    expect(put.required).toEqual(['status']);
    const staffList = doc.paths['/api/v1/transactions/'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(staffList)).toContain('"phone"');
  });
});

describe('the contract is what the server enforces', () => {
  const guarded = Object.values(contract).filter((e) => e.access !== 'public');
  test.each(guarded.map((e) => [`${e.method} ${e.path}`, e] as const))('%s refuses an anonymous caller with 401', async (_name, e) => {
    const path = e.path.replace(':id', e.path.includes('uploads') ? '00000000-0000-4000-8000-000000000000' : '1');
    const r = await request(t.url)[e.method.toLowerCase() as 'get'](path).set('Accept-Language', 'en');
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('not_authenticated');
  });

  const staffOnly = Object.values(contract).filter((e) => e.access === 'staff');
  test.each(staffOnly.map((e) => [`${e.method} ${e.path}`, e] as const))('%s refuses a player with 403', async (_name, e) => {
    const u = await createUser(t, { name: 'Curious Player' });
    const login = await request(t.url).post('/api/token/').send({ phone: u.phone, password: u.password });
    const path = e.path.replace(/:(\w+)/g, '1');
    const call = request(t.url)[e.method.toLowerCase() as 'get'](path);
    const r = await call.set('Accept-Language', 'en').set('Authorization', `Bearer ${login.body.access as string}`);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('permission_denied');
  });
});

describe('docs/rules/api.md', () => {
  test('lists every endpoint of the contract', () => {
    const doc = readFileSync(new URL('../../docs/rules/api.md', import.meta.url), 'utf8');
    const missing = Object.values(contract)
      .map((e) => `\`${e.method} ${e.path.replace(/:(\w+)/g, '{$1}')}\``)
      .filter((entry) => !doc.includes(entry));
    expect(missing).toEqual([]);
  });
});
