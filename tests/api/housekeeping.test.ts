import { housekeep } from '../../server/db/housekeeping.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

test('prunes only what can no longer matter', async () => {
  const u = await createUser(t);
  await t.db.query(`INSERT INTO rate_limits (key, window_start, hits) VALUES ('old', now() - interval '2 days', 3), ('fresh', now(), 1)`);
  await t.db.query(
    `INSERT INTO one_time_codes (user_id, purpose, code_hash, expires_at, consumed_at) VALUES
      ($1, 'account', 'h1', now() - interval '2 days', NULL),
      ($1, 'account', 'h2', now() + interval '5 minutes', NULL),
      ($1, 'reset', 'h3', now() + interval '5 minutes', now() - interval '3 days')`,
    [u.id],
  );
  await t.db.query(
    `INSERT INTO refresh_tokens (jti, user_id, expires_at, revoked_at) VALUES
      ('00000000-0000-4000-8000-000000000001', $1, now() - interval '2 days', NULL),
      ('00000000-0000-4000-8000-000000000002', $1, now() + interval '5 days', NULL),
      ('00000000-0000-4000-8000-000000000003', $1, now() + interval '5 days', now() - interval '2 days')`,
    [u.id],
  );
  await t.db.query(
    `INSERT INTO uploads (id, owner_id, kind, content_type, size, created_at) VALUES
      ('00000000-0000-4000-8000-0000000000a1', NULL, 'profile', 'image/png', 1, now() - interval '2 days'),
      ('00000000-0000-4000-8000-0000000000a2', NULL, 'profile', 'image/png', 1, now()),
      ('00000000-0000-4000-8000-0000000000a3', $1, 'profile', 'image/png', 1, now() - interval '9 days')`,
    [u.id],
  );
  const n = await housekeep(t.db);
  expect(n).toEqual({ rateLimits: 1, codes: 2, refreshTokens: 2, uploads: 1 });
  expect((await t.db.query('SELECT key FROM rate_limits ORDER BY key')).map((r) => r.key)).toEqual(['fresh']);
  expect((await t.db.query('SELECT code_hash FROM one_time_codes WHERE user_id = $1', [u.id])).map((r) => r.code_hash)).toEqual(['h2']);
  expect((await t.db.query('SELECT jti FROM refresh_tokens WHERE user_id = $1', [u.id])).map((r) => r.jti)).toEqual([
    '00000000-0000-4000-8000-000000000002',
  ]);
  expect((await t.db.query('SELECT id FROM uploads ORDER BY id')).map((r) => r.id)).toEqual([
    '00000000-0000-4000-8000-0000000000a2',
    '00000000-0000-4000-8000-0000000000a3',
  ]);
});
