/**
 * Identity details for payment (docs/rules/accounts-and-codes.md#13-identity-details): NID photos uploaded as kind
 * 'nid' (POST /api/v1/upload-nid/), the details given with PUT /api/v1/my-identity/, read by the player himself and by
 * staff (GET /api/v1/admin-users/{id}/identity/), the photos served to nobody else. On PGlite and PostgreSQL.
 */
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { account, type Player } from './purchase-fixtures.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let a: Player, b: Player, staff: Player;
beforeAll(async () => {
  t = await startTestApp();
  a = await account(t, { name: 'Rahim Uddin' });
  b = await account(t, { name: 'Fatema Begum' });
  staff = await account(t, { name: 'Staff', is_staff: true });
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.db.query('DELETE FROM identities');
  await t.db.query('DELETE FROM rate_limits');
});

async function nidPhoto(p: Player): Promise<string> {
  const res = await to(t, api.uploadNid, { as: p }).set('Content-Type', 'image/png').send(PNG);
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}
const save = (p: Player | null, body: unknown, lang = 'en') => to(t, api.saveIdentity, { as: p, lang }).send(body as object);
const mine = (p: Player) => to(t, api.myIdentity, { as: p });
const ofUser = (who: Player | null, id: number) => to(t, api.userIdentity, { params: { id }, as: who });
async function valid(p: Player) {
  return { nid: '1990 2611 2345 67890', nid_front: await nidPhoto(p), nid_back: await nidPhoto(p), phone: '+880 1712-345678' };
}

describe('NID photos', () => {
  test('stored as kind nid, owned by the player; anonymous uploads are refused', async () => {
    const id = await nidPhoto(a);
    expect(await t.db.one('SELECT owner_id, kind FROM uploads WHERE id = $1', [id])).toEqual({ owner_id: a.id, kind: 'nid' });
    const anon = await to(t, api.uploadNid).set('Content-Type', 'image/png').send(PNG);
    expect(anon.status).toBe(401);
  });

  test('served to the owner and to staff only; another player gets 404 as for a missing one', async () => {
    const id = await nidPhoto(a);
    const photo = (who: Player | null) => to(t, api.getUpload, { params: { id }, as: who });
    expect((await photo(a)).status).toBe(200);
    expect((await photo(staff)).status).toBe(200);
    expect((await photo(b)).status).toBe(404);
    expect((await photo(null)).status).toBe(401);
  });

  test('a file that is not an image is refused', async () => {
    const res = await to(t, api.uploadNid, { as: a }).set('Content-Type', 'image/png').send(Buffer.from('not a picture'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ image: ['The picture must be a JPEG, PNG or WebP image.'], code: 'image_type' });
  });
});

describe('PUT /api/v1/my-identity/', () => {
  test('good details: 200, stored normalised (NID digits, phone 01…); the player reads them back', async () => {
    const body = await valid(a);
    const res = await save(a, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user_id: a.id,
      nid: '19902611234567890',
      phone: '01712345678',
      nid_front_url: `/api/v1/uploads/${body.nid_front}/`,
      nid_back_url: `/api/v1/uploads/${body.nid_back}/`,
      updated_at: expect.any(String),
    });
    expect((await mine(a)).body).toEqual(res.body);
  });

  test('NIDs of 10 and 13 digits, in Bengali digits too; giving them again replaces them', async () => {
    const first = await save(a, { ...(await valid(a)), nid: '১২৩৪৫৬৭৮৯০' });
    expect(first.body.nid).toBe('1234567890');
    const second = await save(a, { ...(await valid(a)), nid: '1234567890123' });
    expect(second.status).toBe(200);
    expect(second.body.nid).toBe('1234567890123');
    expect(await t.db.query('SELECT nid FROM identities WHERE user_id = $1', [a.id])).toEqual([{ nid: '1234567890123' }]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a blank NID', { nid: ' ' }, { nid: ['Please fill in all the fields before proceeding'] }],
    ['a blank phone', { phone: '' }, { phone: ['Please fill in all the fields before proceeding'] }],
    ['no front photo', { nid_front: '' }, { nid_front: ['Please fill in all the fields before proceeding'] }],
    ['an NID of 12 digits', { nid: '123456789012' }, { nid: ['Invalid NID number'] }],
    ['an NID with letters', { nid: '12345678AB' }, { nid: ['Invalid NID number'] }],
    ['an NID of 18 digits', { nid: '123456789012345678' }, { nid: ['Invalid NID number'] }],
    ['a phone of 10 digits', { phone: '0171234567' }, { phone: ['Invalid phone number'] }],
    ['a photo id that is not an id', { nid_back: 'front.jpg' }, { nid_back: ['Invalid value.'] }],
    ['a NUL in the NID', { nid: '1234567890\u0000' }, { nid: ['This field contains characters that are not allowed.'] }],
    [
      'a control character in the phone',
      { phone: '0171234\u00075678' },
      { phone: ['This field contains characters that are not allowed.'] },
    ],
    ['an unknown field', { dob: '1990-01-01' }, { dob: ['Unknown field.'] }],
    ['an NID as a number', { nid: 1234567890 }, { nid: ['Expected a string.'] }],
  ])('%s: 400 with its message, nothing stored', async (_name, change, errors) => {
    const res = await save(a, { ...(await valid(a)), ...change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
    expect(await t.db.query('SELECT user_id FROM identities')).toEqual([]);
  });

  test('missing fields are named each; messages in Bengali', async () => {
    const res = await save(a, {});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['nid', 'nid_back', 'nid_front', 'phone']);
    const bn = await save(a, { nid: '', nid_front: '', nid_back: '', phone: '1' }, 'bn');
    expect(bn.body).toMatchObject({ nid: ['এগিয়ে যাওয়ার আগে অনুগ্রহ করে সব ঘর পূরণ করুন'], phone: ['ফোন নম্বর সঠিক নয়'] });
  });

  test('photos must be the player’s own NID uploads, two different ones', async () => {
    const body = await valid(a);
    const theirs = await nidPhoto(b);
    const profile = (await to(t, api.uploadImage, { as: a }).set('Content-Type', 'image/png').send(PNG)).body.data.id as string;
    const invalid = 'This photo could not be used. Please take or choose it again.';
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ nid_front: theirs }, { nid_front: [invalid], code: 'nid_front_invalid' }],
      [{ nid_back: profile }, { nid_back: [invalid], code: 'nid_back_invalid' }],
      [
        { nid_back: body.nid_front },
        { nid_back: ['The front and the back of the NID card must be two different photos.'], code: 'nid_photos_same' },
      ],
      [{ nid_front: '6f1c1a3e-8b2a-4c1e-9d2f-0a1b2c3d4e5f' }, { nid_front: [invalid], code: 'nid_front_invalid' }],
      // Both refused at once: each under its field, the code the first's.
      [
        { nid_front: theirs, nid_back: theirs },
        {
          nid_back: ['The front and the back of the NID card must be two different photos.', invalid],
          nid_front: [invalid],
          code: 'nid_photos_same',
        },
      ],
    ];
    for (const [change, errors] of cases) {
      const res = await save(a, { ...body, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errors);
    }
    expect(await t.db.query('SELECT user_id FROM identities')).toEqual([]);
  });

  test('anonymous: 401, for giving and for reading', async () => {
    expect((await save(null, { nid: '1234567890' })).status).toBe(401);
    expect((await to(t, api.myIdentity)).status).toBe(401);
  });
});

describe('who reads identity details', () => {
  test('a player reads only his own: before giving them 404, and never another player’s', async () => {
    const before = await mine(a);
    expect(before.status).toBe(404);
    expect(before.body.code).toBe('not_found');
    expect((await save(b, await valid(b))).status).toBe(200);
    // a's own endpoint has no id to name b with; the staff endpoint is closed to him.
    const mineA = await mine(a);
    expect(mineA.status).toBe(404);
    expect(JSON.stringify(mineA.body)).not.toContain('19902611234567890');
    const asPlayer = await ofUser(a, b.id);
    expect(asPlayer.status).toBe(403);
    expect(JSON.stringify(asPlayer.body)).not.toContain('19902611234567890');
    expect((await ofUser(null, b.id)).status).toBe(401);
  });

  test('staff read a player’s details and his photos; 404 for a player without them', async () => {
    const body = await valid(b);
    await save(b, body);
    const res = await ofUser(staff, b.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: b.id, nid: '19902611234567890', phone: '01712345678' });
    expect(
      (
        await request(t.url)
          .get(res.body.nid_front_url)
          .set(...staff.auth)
      ).status,
    ).toBe(200);
    expect(
      (
        await request(t.url)
          .get(res.body.nid_front_url)
          .set(...a.auth)
      ).status,
    ).toBe(404);
    const none = await ofUser(staff, a.id);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'No identity details have been given yet.', code: 'not_found' });
    expect((await ofUser(staff, 0)).status).toBe(404);
  });
});
