import express from 'express';
import { Upstream, UpstreamError } from '../../server/bff/upstream.ts';

describe('Upstream in process', () => {
  const app = express();
  app.use(express.json());
  app.post(
    '/api/echo',
    (req, res) =>
      void res
        .status(201)
        .set('X-Total-Count', '7')
        .json({ body: req.body, ip: req.ip, lang: req.headers['accept-language'], auth: req.headers.authorization }),
  );
  app.get('/api/never', () => undefined); // never answers
  app.set('trust proxy', 'loopback');

  test('passes method, JSON body, token, language and the visitor address; returns status, headers and body', async () => {
    const up = new Upstream({ inProcess: app }, 1000);
    const r = await up.json('POST', '/api/echo', { a: 1 }, { token: 'T', lang: 'bn', ip: '203.0.113.9' });
    expect(r.status).toBe(201);
    expect(r.headers['x-total-count']).toBe('7');
    expect(r.data).toEqual({ body: { a: 1 }, ip: '203.0.113.9', lang: 'bn', auth: 'Bearer T' });
  });

  test('an API that does not answer within the timeout is a timeout error, not a hang', async () => {
    const up = new Upstream({ inProcess: app }, 150);
    const started = Date.now();
    await expect(up.call('GET', '/api/never')).rejects.toMatchObject({ kind: 'timeout' });
    await expect(up.call('GET', '/api/never')).rejects.toBeInstanceOf(UpstreamError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('an unreachable API over HTTP is an unreachable error', async () => {
    const up = new Upstream({ baseUrl: 'http://127.0.0.1:9' }, 1000);
    await expect(up.call('GET', '/api/x')).rejects.toMatchObject({ kind: 'unreachable' });
    await up.close();
  });
});
