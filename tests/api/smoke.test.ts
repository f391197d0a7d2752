import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

test('healthz answers and readyz reaches the database', async () => {
  await request(t.url).get('/healthz').expect(200, { status: 'ok' });
  await request(t.url).get('/readyz').expect(200, { status: 'ready' });
});
