import request from 'supertest';
import { loadResources } from '../../server/i18n.ts';
import { clientTexts } from '../../server/ssr/texts.ts';
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
  expect(r.text).toMatch(/http_request_duration_seconds_count\{area="page",route="other",method="GET",status="2xx"\} \d+/);
  expect(r.text).toContain('process_cpu_user_seconds_total');
});

test("a page carries its language, not its texts; the texts' script is served by the app, cached for good", async () => {
  const page = await request(t.url).get('/all-lotteries').set('Cookie', 'lang=bn').expect(200);
  const data = /<script type="application\/json" id="__bh_data">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
  expect(JSON.parse(data ?? 'null').i18n).toEqual({ lng: 'bn' });
  const src = clientTexts(loadResources()).src('bn', false); // the same resources make the same name
  const r = await request(t.url).get(src).set('Accept-Encoding', 'gzip').expect(200);
  expect(r.headers['content-encoding']).toBe('gzip');
  expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(r.text).toMatch(/^self\.__bhTexts=\{"common":/);
  expect(r.text).toContain('ভাগ্য');
  await request(t.url).get('/texts/bn-client-0000000000000000.js').expect(404);
});
