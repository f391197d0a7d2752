/**
 * Pictures stored by the product (docs/rules/security.md#8-uploads; the answer is `success` and `data.url`): the body is the
 * raw image, its own bytes decide the type, size is bounded, it is stored re-encoded without metadata and bounded in
 * pixels, and a picture is served only to its owner and staff (an NID photo never cached).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { loginAs } from '../helpers/session.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';
import { account, type Account } from '../helpers/factories.ts';
import { LIMITS } from '../../server/http/rate-limit.ts';
import { MAX_SIDE } from '../../server/uploads/image.ts';
import { adoptUploadFiles } from '../../server/uploads/service.ts';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** A real small JPEG (made in beforeAll). */
let JPEG: Buffer;

let t: TestApp;
/** The app's DATA_DIR: pictures from before 021 were files in its uploads folder. */
const dataDir = mkdtempSync(path.join(tmpdir(), 'bhagya-uploads-'));
/** The bytes the database keeps for a picture. */
const storedFile = async (id: string): Promise<Buffer> => {
  const row = await t.db.one<{ data: Uint8Array }>('SELECT data FROM uploads WHERE id = $1', [id]);
  if (!row?.data) throw new Error(`no bytes stored for ${id}`);
  return Buffer.from(row.data);
};
type Who = Account;
let alice: Who, bob: Who, staff: Who;

beforeAll(async () => {
  JPEG = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
    .jpeg()
    .toBuffer();
  t = await startTestApp({ DATA_DIR: dataDir });
  alice = await account(t);
  bob = await account(t);
  staff = await account(t, { is_staff: true });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.db.query('DELETE FROM rate_limits');
});

const upload = (body: Buffer | string, type = 'image/png', who?: Who) => {
  return to(t, api.uploadImage, { as: who }).set('Content-Type', type).send(body);
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
  return who ? r.set('Authorization', `Bearer ${who.token}`) : r;
};
const uploadCount = async () => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))?.n;

describe('POST /api/v1/upload-image/', () => {
  test('a real PNG: 201 {success, data:{url}}, stored with its size and type, owned by the uploader', async () => {
    const res = await upload(PNG, 'image/png', alice);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String), url: `/api/v1/uploads/${res.body.data.id}/` } });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await fetchPicture(res.body.data.url, alice);
    expect(await t.db.one('SELECT owner_id, kind, content_type, size FROM uploads WHERE id = $1', [res.body.data.id])).toEqual({
      owner_id: alice.id,
      kind: 'profile',
      content_type: 'image/png',
      size: (stored.body as Buffer).length,
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
      expect(res.body).toEqual({ image: ['The picture must be a JPEG, PNG or WebP image.'], code: 'image_type' });
    }
    const bn = await upload('text', 'image/png', alice).set('Accept-Language', 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ image: ['ছবিটি JPEG, PNG বা WebP হতে হবে।'], code: 'image_type' });
    expect(await uploadCount()).toBe(before);
  });

  test('an empty body or an image type that is not accepted: 400 image field error', async () => {
    const before = await uploadCount();
    const empty = await upload(Buffer.alloc(0), 'image/png', alice);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ image: ['Please choose a picture to upload.'], code: 'image_required' });
    const gif = await upload(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/gif', alice);
    expect(gif.status).toBe(400);
    expect(Object.keys(gif.body)).toEqual(['image', 'code']);
    // A type the endpoint does not take is not read at all: no picture was sent.
    expect(gif.body.code).toBe('image_required');
    const json = await to(t, api.uploadImage).send({ image: PNG.toString('base64') });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ image: ['Please choose a picture to upload.'], code: 'image_required' });
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

  test('the upload rate limit per player (per address without a login): 429 with Retry-After', async () => {
    // docs/rules/limits.md#1-rate-limits: a logged-in player's pictures count per player, not per (shared) address.
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, now(), $2)`, [
      `upload:user:${alice.id}`,
      LIMITS.uploadPerUser.max,
    ]);
    const before = await uploadCount();
    const res = await upload(PNG, 'image/png', alice);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('throttled');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The wait, in the body and the header alike, and in the text.
    expect(res.body).toEqual({
      detail: `Too many attempts. Please try again in ${res.body.wait} seconds.`,
      code: 'throttled',
      wait: Number(res.headers['retry-after']),
    });
    expect(await uploadCount()).toBe(before);
    expect((await upload(PNG, 'image/png', bob)).status).toBe(201);
    await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ('upload:ip:127.0.0.1', now(), $1)`, [
      LIMITS.anonymousUploadPerIp.max,
    ]);
    expect((await upload(PNG, 'image/png')).status).toBe(429);
    expect((await upload(PNG, 'image/png', bob)).status).toBe(201);
  });
});

describe('GET /api/v1/uploads/{id}/', () => {
  test('the owner gets the stored picture with its type, privately cached and not sniffable', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const res = await fetchPicture(body.data.url, alice);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, max-age=3600');
    expect(await sharp(res.body as Buffer).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  test('requires a login; another player gets 404; staff may see it', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const anon = await request(t.url).get(body.data.url);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' });
    const other = await request(t.url).get(body.data.url).set('Authorization', `Bearer ${bob.token}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    const asStaff = await fetchPicture(body.data.url, staff);
    expect(asStaff.status).toBe(200);
    expect(Buffer.compare(asStaff.body as Buffer, (await fetchPicture(body.data.url, alice)).body as Buffer)).toBe(0);
  });

  test('an unowned (registration) upload is not served to players', async () => {
    const { body } = await upload(PNG);
    expect((await request(t.url).get(body.data.url).set('Authorization', `Bearer ${bob.token}`)).status).toBe(404);
    expect((await fetchPicture(body.data.url, staff)).status).toBe(200);
  });

  test('unknown and malformed ids: 404', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..%2F..%2Fsecret.key', '1']) {
      const res = await request(t.url).get(`/api/v1/uploads/${id}/`).set('Authorization', `Bearer ${staff.token}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });
});

describe('the registration picture', () => {
  test("signup claims an anonymous upload as the new user's picture", async () => {
    const { body } = await upload(PNG);
    const res = await to(t, api.signup).send({
      date_of_birth: '1990-01-01',
      name: 'With Picture',
      phone: '01611000010',
      password: 'picture-pass-1',
      picture: body.data.id,
    });
    expect(res.status).toBe(201);
    expect(await t.db.one('SELECT picture_id FROM users WHERE id = $1', [res.body.user_id])).toEqual({ picture_id: body.data.id });
    expect(await t.db.one('SELECT owner_id FROM uploads WHERE id = $1', [body.data.id])).toEqual({ owner_id: res.body.user_id });
  });

  test("someone else's picture, an unknown id or a malformed id cannot be claimed; no user is created", async () => {
    const owned = (await upload(PNG, 'image/png', alice)).body.data.id as string;
    // A rule's refusal carries its code; the schema's (a malformed id) does not.
    for (const [picture, body] of [
      [owned, { picture: ['This picture could not be used. Please upload it again.'], code: 'picture_invalid' }],
      [
        '00000000-0000-4000-8000-000000000000',
        { picture: ['This picture could not be used. Please upload it again.'], code: 'picture_invalid' },
      ],
      ['x', { picture: ['Invalid value.'] }],
    ] as const) {
      const res = await to(t, api.signup).send({
        date_of_birth: '1990-01-01',
        name: 'Picture Thief',
        phone: '01611000011',
        password: 'picture-pass-1',
        picture,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    }
    expect(await t.db.one('SELECT id FROM users WHERE phone = $1', ['01611000011'])).toBeUndefined();
    expect(await t.db.one('SELECT owner_id FROM uploads WHERE id = $1', [owned])).toEqual({ owner_id: alice.id });
  });
});

describe('stored re-encoded: no metadata, bounded in pixels (docs/rules/security.md#8-uploads)', () => {
  const uploadNid = (body: Buffer, who: Who) => to(t, api.uploadNid, { as: who }).set('Content-Type', 'image/jpeg').send(body);

  /** A phone photo: JPEG, taken sideways (EXIF orientation 6), with the camera, the time and the GPS position in EXIF. */
  const phonePhoto = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#2a6' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'PhoneMaker', Model: 'Model-X9' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '23/1 48/1 3600/100', GPSLongitudeRef: 'E', GPSLongitude: '90/1 24/1 0/1' },
      })
      .toBuffer();

  test('an NID photo with its GPS position in EXIF: stored and served without any EXIF, turned upright', async () => {
    const photo = await phonePhoto(1200, 800);
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ orientation: 6, width: 1200, height: 800 });
    expect(before.exif?.includes('PhoneMaker')).toBe(true);
    // The GPS IFD pointer (tag 0x8825, little-endian) is there before.
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true);
    const res = await uploadNid(photo, alice);
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    const served = await fetchPicture(res.body.data.url, alice);
    expect(served.status).toBe(200);
    for (const bytes of [served.body as Buffer, await storedFile(id)]) {
      const meta = await sharp(bytes).metadata();
      // Turned by its orientation before the metadata went: 800 wide, 1200 high, no orientation left to apply.
      expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 1200 });
      expect(meta.orientation).toBeUndefined();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      for (const marker of ['Exif', 'PhoneMaker', 'Model-X9']) expect(bytes.includes(Buffer.from(marker))).toBe(false);
    }
    expect(await t.db.one('SELECT content_type, size FROM uploads WHERE id = $1', [id])).toEqual({
      content_type: 'image/jpeg',
      size: (await storedFile(id)).length,
    });
  });

  test('a large picture comes back bounded: an NID photo to 2,000 px, a profile picture smaller; a small one is not enlarged', async () => {
    const wide = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const nid = await uploadNid(wide, alice);
    expect(nid.status).toBe(201);
    expect(await sharp(await storedFile(nid.body.data.id)).metadata()).toMatchObject({ format: 'png', width: MAX_SIDE.nid, height: 500 });
    expect(MAX_SIDE.nid).toBe(2000);
    const profile = await upload(wide, 'image/png', alice);
    expect(profile.status).toBe(201);
    expect(await sharp(await storedFile(profile.body.data.id)).metadata()).toMatchObject({
      width: MAX_SIDE.profile,
      height: MAX_SIDE.profile / 4,
    });
    expect(MAX_SIDE.profile).toBeLessThan(MAX_SIDE.nid);
    const tiny = await upload(JPEG, 'image/jpeg', alice);
    expect(await sharp(await storedFile(tiny.body.data.id)).metadata()).toMatchObject({ format: 'jpeg', width: 8, height: 8 });
  });

  test('an NID photo is served no-store, to its owner, to staff and through /bff; a profile picture keeps its private cache', async () => {
    const res = await uploadNid(JPEG, alice);
    expect(res.status).toBe(201);
    for (const who of [alice, staff]) {
      const got = await fetchPicture(res.body.data.url, who);
      expect(got.status).toBe(200);
      expect(got.headers['cache-control']).toBe('no-store');
      expect(got.headers['content-type']).toBe('image/jpeg');
    }
    const u = await createUser(t, { phone: '01611000020', is_staff: true });
    const agent = await loginAs(t.url, u.phone, u.password);
    const viaBff = await agent.get(`/bff${res.body.data.url as string}`);
    expect(viaBff.status).toBe(200);
    expect(viaBff.headers['cache-control']).toBe('no-store');
    const pic = await upload(JPEG, 'image/jpeg', alice);
    expect((await fetchPicture(pic.body.data.url, alice)).headers['cache-control']).toBe('private, max-age=3600');
  });

  test('bytes that look like a picture but cannot be decoded: 400 in both languages, nothing stored', async () => {
    const before = await uploadCount();
    const broken = [
      Buffer.concat([PNG.subarray(0, 16), Buffer.from('not the rest of a PNG')]),
      JPEG.subarray(0, Math.floor(JPEG.length / 2)),
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('hello, not a JPEG')]),
      Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBP'), Buffer.alloc(20, 7)]),
    ];
    for (const body of broken) {
      const res = await upload(body, 'image/png', alice);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ image: ['The picture could not be read. Please choose another picture.'], code: 'image_unreadable' });
    }
    const bn = await uploadNid(broken[0] as Buffer, alice).set('Accept-Language', 'bn');
    expect(bn.status).toBe(400);
    expect(bn.body).toEqual({ image: ['ছবিটি পড়া যায়নি। অনুগ্রহ করে অন্য একটি ছবি বেছে নিন।'], code: 'image_unreadable' });
    expect(await uploadCount()).toBe(before);
  });
});

describe('an address that names no stored file: 404, never 500', () => {
  test('the id of an existing picture written in capital letters: 404 not found', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const upper = (body.data.url as string).toUpperCase().replace('/API/V1/UPLOADS/', '/api/v1/uploads/');
    expect(upper).not.toBe(body.data.url);
    for (const who of [alice, staff]) {
      const res = await request(t.url).get(upper).set('Authorization', `Bearer ${who.token}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
    }
  });

  test('a picture from before whose file was gone when it was moved in: 404 not found', async () => {
    const id = '00000000-0000-4000-8000-00000000f00d';
    await t.db.query(`INSERT INTO uploads (id, owner_id, kind, content_type, size) VALUES ($1, $2, 'profile', 'image/png', 70)`, [
      id,
      alice.id,
    ]);
    expect(await adoptUploadFiles(t.db, path.join(dataDir, 'uploads'))).toBe(0);
    const res = await to(t, api.getUpload, { params: { id }, as: alice });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

describe('pictures stored as files before they were kept in the database (docs/decisions/040-uploads-in-the-database.md)', () => {
  test('are moved into their rows at the start, served as before, and their files removed; a second start moves nothing', async () => {
    const dir = path.join(dataDir, 'uploads');
    mkdirSync(dir, { recursive: true });
    const ids = ['00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000b2'];
    for (const id of ids) {
      await t.db.query(`INSERT INTO uploads (id, owner_id, kind, content_type, size) VALUES ($1, $2, 'profile', 'image/png', $3)`, [
        id,
        alice.id,
        PNG.length,
      ]);
      writeFileSync(path.join(dir, id), PNG);
    }
    expect(await adoptUploadFiles(t.db, dir)).toBe(2);
    for (const id of ids) {
      expect(existsSync(path.join(dir, id))).toBe(false);
      expect((await storedFile(id)).equals(PNG)).toBe(true);
      const served = await fetchPicture(urlOf(api.getUpload, { id }), alice);
      expect(served.status).toBe(200);
      expect((served.body as Buffer).equals(PNG)).toBe(true);
    }
    expect(await adoptUploadFiles(t.db, dir)).toBe(0);
  });

  test('a second instance with a disk of its own serves the picture the first one stored', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    const otherDir = mkdtempSync(path.join(tmpdir(), 'bhagya-uploads-other-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: otherDir,
      SECRET_KEY: 'test-secret-'.padEnd(48, 'x'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      PORT: '0',
      PASSWORD_HASH_COST: '10',
    });
    const other = await createApp(config, { db: t.db, sendMessages: false });
    try {
      const served = await request(other.app)
        .get(body.data.url as string)
        .set('Authorization', `Bearer ${alice.token}`)
        .buffer(true)
        .parse((res, cb) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => cb(null, Buffer.concat(parts)));
        });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect((served.body as Buffer).equals(await storedFile(body.data.id as string))).toBe(true);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  test('a new picture never touches the disk', async () => {
    const { body } = await upload(PNG, 'image/png', alice);
    expect(existsSync(path.join(dataDir, 'uploads', body.data.id as string))).toBe(false);
    expect((await storedFile(body.data.id as string)).length).toBeGreaterThan(0);
  });
});
