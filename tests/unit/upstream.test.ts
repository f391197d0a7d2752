import http from 'node:http';
import type { TFunction } from 'i18next';
import { api as contract } from '../../shared/api/contract.ts';
import { Upstream, UpstreamError, type LocalApi } from '../../server/bff/upstream.ts';

const t = ((k: string) => k) as unknown as TFunction;
const who = { token: 'T', t, lng: 'bn', ip: '203.0.113.9' };

describe('Upstream', () => {
  test('in process: the endpoint, its input and the caller go to the local API; its answer comes back as it is', async () => {
    const calls: unknown[] = [];
    const local = {
      served: new Map(),
      authenticate: () => Promise.reject(new Error('unused')),
      checkAlone: () => Promise.reject(new Error('unused')),
      authenticatePage: () => Promise.reject(new Error('unused')),
      call: async (e, input, w) => {
        calls.push([e, input, w]);
        return { status: 201, headers: { 'x-total-count': '7' }, data: { ok: 1 }, total: 7 };
      },
    } satisfies LocalApi;
    const up = new Upstream({ local }, 1000);
    const r = await up.endpoint(contract.contact, { body: { name: 'A' } }, who);
    expect(r).toEqual({ status: 201, headers: { 'x-total-count': '7' }, data: { ok: 1 }, total: 7 });
    expect(calls).toEqual([[contract.contact, { body: { name: 'A' } }, who]]);
    await expect(up.call('GET', '/api/x')).rejects.toThrow(/in this process/);
  });

  test('a local API that does not answer within the timeout is a timeout error, not a hang', async () => {
    const local = {
      served: new Map(),
      authenticate: () => new Promise(() => undefined),
      checkAlone: () => new Promise(() => undefined),
      authenticatePage: () => new Promise(() => undefined),
      call: () => new Promise(() => undefined),
    } satisfies LocalApi;
    const up = new Upstream({ local }, 150);
    const started = Date.now();
    await expect(up.endpoint(contract.me, {}, who)).rejects.toMatchObject({ kind: 'timeout' });
    await expect(up.endpoint(contract.me, {}, who)).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('over HTTP: method, URL, JSON body, token, language, address; the answer parsed with its total', async () => {
    const seen: unknown[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          body,
          auth: req.headers.authorization,
          lang: req.headers['accept-language'],
          ip: req.headers['x-forwarded-for'],
        });
        res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '3' }).end('[1,2,3]');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const up = new Upstream({ baseUrl: `http://127.0.0.1:${port}` }, 1000);
    try {
      const r = await up.endpoint(contract.publishedLotteries, { query: { limit: 3 } }, who);
      expect(r).toMatchObject({ status: 200, data: [1, 2, 3], total: 3 });
      const c = await up.endpoint(contract.contact, { body: { name: 'A' } }, { ...who, token: null });
      expect(c.status).toBe(200);
      expect(seen).toEqual([
        { method: 'GET', url: '/api/v1/published-lotteries/?limit=3', body: '', auth: 'Bearer T', lang: 'bn', ip: '203.0.113.9' },
        { method: 'POST', url: contract.contact.path, body: '{"name":"A"}', auth: undefined, lang: 'bn', ip: '203.0.113.9' },
      ]);
    } finally {
      await up.close();
      server.close();
    }
  });

  test('an unreachable API over HTTP is an unreachable error', async () => {
    const up = new Upstream({ baseUrl: 'http://127.0.0.1:9' }, 1000);
    await expect(up.call('GET', '/api/x')).rejects.toMatchObject({ kind: 'unreachable' });
    await up.close();
  });
});
