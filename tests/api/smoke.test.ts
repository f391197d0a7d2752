import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

test('healthz answers and readyz reaches the database', async () => {
  await request(t.url).get('/healthz').expect(200, { status: 'ok' });
  await request(t.url).get('/readyz').expect(200, { status: 'ready' });
});

test('metrics are served in Prometheus format and count requests', async () => {
  await request(t.url).get('/healthz');
  const r = await request(t.url).get('/metrics').expect(200);
  expect(r.headers['content-type']).toMatch(/text\/plain/);
  expect(r.text).toMatch(/http_request_duration_seconds_count\{area="page",method="GET",status="2xx"\} \d+/);
  expect(r.text).toContain('process_cpu_user_seconds_total');
});
