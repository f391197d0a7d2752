/**
 * Pictures stored by the product (docs/rules/security.md#8-uploads; the answer is `success` and `data.url`): the body is the
 * raw image, its own bytes decide the type, size is bounded, and a picture is served only to its owner and staff.
 */
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** The first bytes of a JPEG (SOI + APP0 JFIF header), enough for the type check. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(32, 1),
  Buffer.from([0xff, 0xd9]),
]);

let t: TestApp;
type Who = { id: number; access: string };
let alice: Who, bob: Who, staff: Who;

async function loggedIn(phone: string, is_staff = false): Promise<Who> {
  const u = await createUser(t, { phone, is_staff });
  const res = await request(t.url).post('/api/token/').send({ phone, password: u.password });
  expect(res.status).toBe(200);
  return { id: u.id, access: res.body.access as string };
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await loggedIn('01611000001');
  bob = await loggedIn('01611000002');
  staff = await loggedIn('01611000003', true);
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const upload = (body: Buffer | string, type = 'image/png', who?: Who) => {
  const r = request(t.url).post('/api/v1/upload-image/').set('Content-Type', type);
  return (who ? r.set('Authorization', `Bearer ${who.access}`) : r).send(body);
};
const fetchPicture = (url: string, who?: Who) => {
  const r = request(t.url)
    .get(url)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  return who ? r.set('Authorization', `Bearer ${who.access}`) : r;
};
const uploadCount = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))?.n;

describe('POST /api/v1/upload-image/', () => {
  test('a real PNG: 201 {success, data:{url}}, stored with its size and type, owned by the uploader', async () => {
    const res = await upload(PNG, 'image/png', alice);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String), url: `/api/v1/uploads/${res.body.data.id}/` } });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.db.one('SELECT owner_id, kind, content_type, size FROM uploads WHERE id = $1', [res.body.data.id])).toEqual({
      owner_id: alice.id,
      kind: 'profile',
      content_type: 'image/png',
      size: PNG.length,
    });
  });

  test('an anonymous upload (the registration picture) has no owner yet', async () => {
    const res = await upload(PNG);
    expect(res.status).toBe(201);
    expect(await t.db.one('SELECT owner_id FROM uploads WHERE id = $1', [res.body.data.id])).toEqual({ owner_id: null });
  });

  test('the bytes decide the type, not the header: a JPEG sent as image/png is stored as image/jpeg', async () => {
    const res = await upload(JPEG, 'image/png', alice);
    expect(res.status).toBe(201);
    expect(await t.db.one('SELECT content_type FROM uploads WHERE id = $1', [res.body.data.id])).toEqual({ content_type: 'image/jpeg' });
  });

  test('text or HTML claiming to be image/png: 400, nothing stored', async () => {
    const before = await uploadCount();
    for (const body of ['just some text, not a picture', '<html><script>alert(1)</script></html>', Buffer.from('GIF89a\x01\x00\x01\x00')]) {
      const res = await upload(body, 'image/png', alice);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ image: ['The picture must be a JPEG, PNG or WebP image.'] });
    }
    const bn = await upload('text', 'image/png', alice).set('Accept-Language', 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ image: ['ছবিটি JPEG, PNG বা WebP হতে হবে।'] });
    expect(await uploadCount()).toBe(before);
  });

  test('an empty body or an image type that is not accepted: 400 image field error', async () => {
    const before = await uploadCount();
    const empty = await upload(Buffer.alloc(0), 'image/png', alice);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ image: ['Please choose a picture to upload.'] });
    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif', alice);
    expect(gif.status).toBe(400);
    expect(Object.keys(gif.body)).toEqual(['image']);
    const json = await request(t.url)
      .post('/api/v1/upload-image/')
      .send({ image: PNG.toString('base64') });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ image: ['Please choose a picture to upload.'] });
    expect(await uploadCount()).toBe(before);
  });

  test('a picture over 2 MB: 400 too large, nothing stored', async () => {
    const before = await uploadCount();
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const res = await upload(big, 'image/png', alice);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'The request body is too large.', code: 'body_too_large' });
    expect(await uploadCount()).toBe(before);
  });

  test('the upload rate limit per address: 429 with Retry-After', async () => {
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ('upload:ip:127.0.0.1', now(), 30)`);
    const before = await uploadCount();
    const res = await upload(PNG, 'image/png', alice);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('throttled');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(await uploadCount()).toBe(before);
  });
});

describe('GET /api/v1/uploads/{id}/', () => {
  test('the owner gets the exact bytes with their type, privately cached and not sniffable', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const res = await fetchPicture(body.data.url, alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/private/);
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
  });

  test('requires a login; another player gets 404; staff may see it', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const anon = await request(t.url).get(body.data.url);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
    const other = await request(t.url).get(body.data.url).set('Authorization', `Bearer ${bob.access}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    const asStaff = await fetchPicture(body.data.url, staff);
    expect(asStaff.status).toBe(200);
    expect(Buffer.compare(asStaff.body as Buffer, PNG)).toBe(0);
  });

  test('an unowned (registration) upload is not served to players', async () => {
    const { body } = await upload(PNG);
    expect((await request(t.url).get(body.data.url).set('Authorization', `Bearer ${bob.access}`)).status).toBe(404);
    expect((await fetchPicture(body.data.url, staff)).status).toBe(200);
  });

  test('unknown and malformed ids: 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..%2F..%2Fsecret.key', '1']) {
      const res = await request(t.url).get(`/api/v1/uploads/${id}/`).set('Authorization', `Bearer ${staff.access}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('the registration picture', () => {
  test("signup claims an anonymous upload as the new user's picture", async () => {
    const { body } = await upload(PNG);
    const res = await request(t.url)
      .post('/api/v1/signup/')
      .send({ name: 'With Picture', phone: '01611000010', password: 'picture-pass-1', picture: body.data.id });
    expect(res.status).toBe(201);
    expect(await t.db.one('SELECT picture_id FROM users WHERE id = $1', [res.body.user_id])).toEqual({ picture_id: body.data.id });
    expect(await t.db.one('SELECT owner_id FROM uploads WHERE id = $1', [body.data.id])).toEqual({ owner_id: res.body.user_id });
  });

  test("someone else's picture, an unknown id or a malformed id cannot be claimed; no user is created", async () => {
    const owned = (await upload(PNG, 'image/png', alice)).body.data.id as string;
    for (const [picture, message] of [
      [owned, 'This picture could not be used. Please upload it again.'],
      ['00000000-0000-4000-8000-000000000000', 'This picture could not be used. Please upload it again.'],
      ['x', 'Invalid value.'],
    ] as const) {
      const res = await request(t.url)
        .post('/api/v1/signup/')
        .send({ name: 'Picture Thief', phone: '01611000011', password: 'picture-pass-1', picture });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ picture: [message] });
    }
    expect(await t.db.one('SELECT id FROM users WHERE phone = $1', ['01611000011'])).toBeUndefined();
    expect(await t.db.one('SELECT owner_id FROM uploads WHERE id = $1', [owned])).toEqual({ owner_id: alice.id });
  });
});
