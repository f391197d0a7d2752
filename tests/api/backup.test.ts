/**
 * Backups (docs/rules/operations.md#1-backups): a database with purchases, a prize and its claim, and an uploaded
 * picture is backed up, restored into an empty database elsewhere, and an app started on the copy finds them all —
 * the player logs in, sees his purchase and his picture. A restore refuses a database that is not empty, and the
 * embedded database is not backed up while an app has it. PGlite by default; PostgreSQL with TEST_DATABASE_URL
 * (pg_dump and pg_restore; the copy is a new database on the same server).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { backup, kindOf, restore, type Where } from '../../server/db/backup.ts';
import { openDb } from '../../server/db/index.ts';
import { createUser, type TestApp } from '../helpers/app.ts';
import { adminSql, copyMigratedPglite, databaseUrlFor } from '../helpers/database.ts';
import { insertLottery } from './purchase-fixtures.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const work = mkdtempSync(path.join(tmpdir(), 'bhagya-backup-'));

const made: { databases: string[]; schemas: string[] } = { databases: [], schemas: [] };
afterAll(async () => {
  if (pgUrl) {
    for (const d of made.databases) await adminSql(pgUrl, `DROP DATABASE IF EXISTS ${d} WITH (FORCE)`);
    for (const s of made.schemas) await adminSql(pgUrl, `DROP SCHEMA IF EXISTS ${s} CASCADE`);
  }
  rmSync(work, { recursive: true, force: true });
});

/** An empty place for a database: a schema on the test server, or a DATA_DIR. */
async function emptyPlace(): Promise<Where> {
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  if (!pgUrl) return { dataDir };
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await adminSql(pgUrl, `CREATE SCHEMA ${schema}`);
  made.schemas.push(schema);
  return { databaseUrl: pgUrl, schema, dataDir };
}

/** The app on that database, as production starts it (migrations included). */
async function appOn(where: Where): Promise<App> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: where.dataDir,
    SECRET_KEY: 'b'.repeat(48),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '0',
    PASSWORD_HASH_COST: '10',
  });
  const db = where.databaseUrl ? await openDb({ databaseUrl: where.databaseUrl, schema: where.schema }) : undefined;
  return createApp(config, { ...(db ? { db } : {}), sendMessages: false });
}

const picture = (app: App, url: string, access: string) =>
  request(app.app)
    .get(url)
    .set('Authorization', `Bearer ${access}`)
    .buffer(true)
    .parse((res, cb) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => cb(null, Buffer.concat(parts)));
    });

// Two apps and a whole backup and restore between them: more than the suite's 60 s beside another jest worker on a busy
// machine (a CI run at 63 s, when both databases were made from nothing). The other tests keep the suite's limit.
test('a backup restored into an empty database has the purchases, the claim and the picture', async () => {
  const source = await emptyPlace();
  // The embedded source starts as a copy of the run's migrated database (what initdb and the migrations make, without
  // their 8 s of CPU); the restored copy is started as production starts it.
  if (!pgUrl) copyMigratedPglite(source.dataDir);
  const app = await appOn(source);
  const t = { db: app.db } as TestApp;
  const u = await createUser(t, { phone: '01711000001', name: 'Backed Up' });
  const login = async (a: App) =>
    (await request(a.app).post('/api/token/').send({ phone: u.phone, password: u.password })).body.access as string;
  const access = await login(app);
  const lottery = await insertLottery(t, { name: 'Kept Draw' });
  const bought = await request(app.app).post('/api/v1/transactions-create/').set('Authorization', `Bearer ${access}`).send({
    lottery_id: lottery,
    ticket: '05-12-23-34-45-07',
    amount: 100,
    transaction_type: 'payment',
    payment_method: 'bkash',
    nid: '',
    payment_number: '01712345678',
  });
  expect(bought.status).toBe(201);
  const prize = await app.db.one<{ id: number }>(
    'INSERT INTO prizes (lottery_id, transaction_id, ticket, prize_money) VALUES ($1, $2, $3, 5000) RETURNING id',
    [lottery, bought.body.id, '05-12-23-34-45-07'],
  );
  await app.db.query(
    `INSERT INTO prize_claims (prize_id, user_id, status, payment_method, account_number, submitted_at) VALUES ($1, $2, 'payment_info_submitted', 'bkash', '01712345678', now())`,
    [prize?.id, u.id],
  );
  const uploaded = await request(app.app)
    .post('/api/v1/upload-image/')
    .set('Authorization', `Bearer ${access}`)
    .set('Content-Type', 'image/png')
    .send(PNG);
  expect(uploaded.status).toBe(201);
  const servedBefore = await picture(app, uploaded.body.data.url as string, access);
  expect(servedBefore.status).toBe(200);

  // The embedded database is not copied while an app has its files.
  const file = path.join(work, pgUrl ? 'one.dump' : 'one.tar.gz');
  if (!pgUrl) await expect(backup(source, file)).rejects.toThrow(/in use by process \d+: stop it first/);
  if (!pgUrl) expect(existsSync(file)).toBe(false);
  if (!pgUrl) await app.close();

  const made1 = await backup(source, file);
  expect(made1.kind).toBe(pgUrl ? 'postgres' : 'pglite');
  expect(made1.bytes).toBeGreaterThan(1000);
  expect(await kindOf(file)).toBe(made1.kind);
  expect(existsSync(`${file}.partial`)).toBe(false);
  if (pgUrl) await app.close();

  // Elsewhere: a new database on the same server, or a new DATA_DIR.
  let target: Where;
  if (pgUrl) {
    const name = `bk_${randomBytes(5).toString('hex')}`;
    await adminSql(pgUrl, `CREATE DATABASE ${name}`);
    made.databases.push(name);
    target = { databaseUrl: databaseUrlFor(pgUrl, name), schema: source.schema, dataDir: mkdtempSync(path.join(work, 'data-')) };
  } else {
    target = { dataDir: mkdtempSync(path.join(work, 'data-')) };
  }
  expect(await restore(target, file)).toEqual({ kind: made1.kind });

  const copy = await appOn(target);
  try {
    const again = await login(copy);
    expect(again).toEqual(expect.any(String));
    const mine = await request(copy.app).get('/api/v1/my-transactions/').set('Authorization', `Bearer ${again}`);
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain('05-12-23-34-45-07');
    expect(await copy.db.one('SELECT status, payment_method, account_number FROM prize_claims WHERE user_id = $1', [u.id])).toEqual({
      status: 'payment_info_submitted',
      payment_method: 'bkash',
      account_number: '01712345678',
    });
    expect(await copy.db.one('SELECT prize_money FROM prizes WHERE id = $1', [prize?.id])).toEqual({ prize_money: 5000 });
    const served = await picture(copy, uploaded.body.data.url as string, again);
    expect(served.status).toBe(200);
    expect((served.body as Buffer).equals(servedBefore.body as Buffer)).toBe(true);
    // New rows carry on after the restored ones (the sequences came along).
    const next = await copy.db.one<{ id: number }>(
      `INSERT INTO transactions (user_id, lottery_id, ticket, amount, payment_method, status) VALUES ($1, $2, '01-02-03-04-05-06', 100, 'bkash', 'pending') RETURNING id`,
      [u.id, lottery],
    );
    expect(next?.id).toBeGreaterThan(bought.body.id as number);
  } finally {
    await copy.close();
  }

  // A restore never writes over a database that has tables.
  await expect(restore(target, file)).rejects.toThrow(pgUrl ? /already has tables/ : /already holds a database/);
}, 180_000);

test('a file that is not a backup is refused; a backup of one kind is not restored into the other', async () => {
  const junk = path.join(work, 'junk.bin');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(junk, 'not a backup at all');
  await expect(kindOf(junk)).rejects.toThrow(/is not a backup made by npm run backup/);
  const gz = path.join(work, 'fake.tar.gz');
  writeFileSync(gz, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]));
  await expect(restore({ databaseUrl: 'postgres://nobody@127.0.0.1:9/none', dataDir: work }, gz)).rejects.toThrow(
    /backup of the embedded database: unset DATABASE_URL/,
  );
  const dump = path.join(work, 'fake.dump');
  writeFileSync(dump, 'PGDMP and then nothing');
  await expect(restore({ dataDir: mkdtempSync(path.join(work, 'data-')) }, dump)).rejects.toThrow(/PostgreSQL backup: set DATABASE_URL/);
});

test('a failed pg_dump says what it said, never the password in DATABASE_URL', async () => {
  const file = path.join(work, 'never.dump');
  const failed = backup({ databaseUrl: 'postgres://bhagya:secret-pw-123@127.0.0.1:9/bhagya', dataDir: work }, file);
  await expect(failed).rejects.toThrow(/pg_dump/);
  await expect(failed).rejects.not.toThrow(/secret-pw-123/);
  expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
});
