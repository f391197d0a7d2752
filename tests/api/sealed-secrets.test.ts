/**
 * Secrets at rest (docs/decisions/049-secrets-sealed-at-rest.md, docs/rules/security.md#6-secrets-and-configuration):
 * the start-up step seals the seeds and ticket secrets kept in clear before migration 027, once per row, and seals again
 * under a new SECRET_KEY what the previous one sealed; a backup of a database with an announced draw and generated
 * tickets holds neither the seed nor a secret. PGlite by default; PostgreSQL with TEST_DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { sealAtStart } from '../../server/crypto/seal-at-start.ts';
import { keyringOf, SealError } from '../../server/crypto/sealed.ts';
import { backup, pgTool, type Where } from '../../server/db/backup.ts';
import { openDb } from '../../server/db/index.ts';
import { commitment } from '../../server/draws/verifiable.ts';
import { createUser, startTestApp, type TestApp } from '../helpers/app.ts';
import { adminSql, copyMigratedPglite } from '../helpers/database.ts';
import { storedCommitment } from '../helpers/sealed.ts';
import { to } from '../helpers/call.ts';
import { api } from '../../shared/api/contract.ts';
import { urlOf } from '../../shared/api/endpoint.ts';
import { account, insertLottery, type Player } from './purchase-fixtures.ts';

const OLD = 'old-secret-'.padEnd(48, 'o');
const NEW = 'new-secret-'.padEnd(48, 'n');
const SEED = 'ab'.repeat(32);
const REVEALED = 'cd'.repeat(32);
const pgUrl = process.env.TEST_DATABASE_URL;

describe('the start-up step', () => {
  let t: TestApp;
  let player: Player;
  beforeAll(async () => {
    t = await startTestApp({ SECRET_KEY: OLD });
    player = await account(t, { name: 'Rahim Uddin' });
  });
  afterAll(() => t.close());

  /** Rows as they were before migration 027: an undrawn and a drawn lottery's seeds, two tickets' secrets, in clear. */
  async function legacy(): Promise<{ undrawn: number; drawn: number }> {
    const undrawn = await insertLottery(t, { name: 'Undrawn' });
    const drawn = await insertLottery(t, { name: 'Drawn' });
    await t.db.query('DELETE FROM draw_commitments WHERE lottery_id = ANY($1::bigint[])', [[undrawn, drawn]]);
    await t.db.query(
      `INSERT INTO draw_commitments (lottery_id, seed, commitment, beacon_source, beacon_round, revealed_at)
       VALUES ($1, $2, $3, 'drand-quicknet', 1000, NULL), ($4, $5, $6, 'drand-quicknet', 1000, now())`,
      [undrawn, SEED, commitment(SEED), drawn, REVEALED, commitment(REVEALED)],
    );
    await t.db.query(
      `INSERT INTO generated_tickets (lottery_id, ticket_number, secret_number)
       VALUES ($1, '01-02-03-04-05-06', '1234567812345678'), ($1, '07-08-09-10-11-12', '8765432187654321')`,
      [undrawn],
    );
    return { undrawn, drawn };
  }

  test('seals the clear seeds of undrawn lotteries and the clear secrets, once; a revealed seed stays public', async () => {
    const { undrawn, drawn } = await legacy();
    // Everything else of the app is sealed already (it sealed as it made it); only these rows are in clear.
    expect(await sealAtStart(t.db, t.keys)).toEqual({ seeds: 1, secrets: 2, unopenable: 0 });
    const c = await storedCommitment(t, undrawn);
    expect(c).toMatchObject({ seed: SEED, clear: null, commitment: commitment(SEED) });
    expect(c?.seed_sealed).toMatch(new RegExp(`^v1:${t.keys.kid}:`));
    expect(await storedCommitment(t, drawn)).toMatchObject({ seed: REVEALED, clear: REVEALED, seed_sealed: null });
    const rows = await t.db.query<{ secret_number: string | null; secret_sealed: string; secret_lookup: string }>(
      `SELECT secret_number, secret_sealed, secret_lookup FROM generated_tickets WHERE lottery_id = $1 ORDER BY id`,
      [undrawn],
    );
    expect(rows.map((r) => r.secret_number)).toEqual([null, null]);
    expect(rows.map((r) => t.keys.open('generated-secret', r.secret_sealed))).toEqual(['1234567812345678', '8765432187654321']);
    expect(rows[0]?.secret_lookup).toBe(t.keys.lookup('generated-secret', '1234567812345678'));
    // Once per row: a second start finds nothing to do and changes nothing.
    const before = await t.db.query('SELECT * FROM generated_tickets ORDER BY id');
    expect(await sealAtStart(t.db, t.keys)).toEqual({ seeds: 0, secrets: 0, unopenable: 0 });
    expect(await t.db.query('SELECT * FROM generated_tickets ORDER BY id')).toEqual(before);
    // The sealed ticket still activates with its secret, and the draw's proof shows the commitment, never the seed.
    const res = await to(t, api.activateTicket, { as: player }).send({
      ticket_number: '01-02-03-04-05-06',
      secret_number: '1234 5678 1234 5678',
    });
    expect(res.status).toBe(200);
    const proof = await to(t, api.drawProof, { params: { id: undrawn } }).expect(200);
    expect(proof.body.commitment).toBe(commitment(SEED));
    expect(JSON.stringify(proof.body)).not.toContain(SEED);
  });

  test('rotation: with SECRET_KEY_PREVIOUS, start-up seals again under the new key; without it the old values are lost', async () => {
    const { undrawn } = await legacy();
    await sealAtStart(t.db, t.keys);
    const rotated = keyringOf({ SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: OLD });
    const counts = await sealAtStart(t.db, rotated);
    expect(counts.secrets).toBeGreaterThanOrEqual(2);
    expect(counts.seeds).toBeGreaterThanOrEqual(1);
    const sealed = await t.db.query<{ v: string }>(
      `SELECT seed_sealed AS v FROM draw_commitments WHERE seed_sealed IS NOT NULL
       UNION ALL SELECT secret_sealed FROM generated_tickets`,
    );
    expect(sealed.length).toBeGreaterThan(0);
    for (const { v } of sealed) expect(v.startsWith(`v1:${rotated.kid}:`)).toBe(true);
    expect(
      rotated.open(
        'draw-seed',
        (await t.db.one<{ s: string }>('SELECT seed_sealed AS s FROM draw_commitments WHERE lottery_id = $1', [undrawn]))!.s,
      ),
    ).toBe(SEED);
    const lookup = await t.db.one<{ l: string }>(
      `SELECT secret_lookup AS l FROM generated_tickets WHERE lottery_id = $1 AND ticket_number = '07-08-09-10-11-12'`,
      [undrawn],
    );
    expect(lookup?.l).toBe(rotated.lookup('generated-secret', '8765432187654321'));
    // The old key alone no longer opens them: a value names a key it does not hold.
    expect(() => t.keys.open('draw-seed', sealed[0]!.v)).toThrow(SealError);
    expect(await sealAtStart(t.db, rotated)).toEqual({ seeds: 0, secrets: 0, unopenable: 0 });
    // Another key without SECRET_KEY_PREVIOUS: nothing opens; the start goes on, counts them and changes nothing.
    const before = await t.db.query('SELECT * FROM generated_tickets ORDER BY id');
    expect(await sealAtStart(t.db, keyringOf({ SECRET_KEY: 'third-secret-'.padEnd(48, 't') }))).toEqual({
      seeds: 0,
      secrets: 0,
      unopenable: sealed.length,
    });
    expect(await t.db.query('SELECT * FROM generated_tickets ORDER BY id')).toEqual(before);
    // Back to the app's own key, rotating the other way (its SECRET_KEY is OLD).
    await sealAtStart(t.db, keyringOf({ SECRET_KEY: OLD, SECRET_KEY_PREVIOUS: NEW }));
    const res = await to(t, api.activateTicket, { as: player }).send({
      ticket_number: '07-08-09-10-11-12',
      secret_number: '8765432187654321',
    });
    expect(res.status).toBe(200);
  });
});

const work = mkdtempSync(path.join(tmpdir(), 'bhagya-sealed-'));
const schemas: string[] = [];
afterAll(async () => {
  if (pgUrl) for (const s of schemas) await adminSql(pgUrl, `DROP SCHEMA IF EXISTS ${s} CASCADE`);
  rmSync(work, { recursive: true, force: true });
});

/** The backup's contents as text to search: PostgreSQL's archive written out as SQL, PGlite's files unzipped. */
async function readable(file: string): Promise<string> {
  if (!pgUrl) return gunzipSync(readFileSync(file)).toString('latin1');
  const { stdout } = await promisify(execFile)(pgTool('pg_restore'), ['--file=-', file], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

test('a backup of a database with an announced draw and generated tickets holds neither the seed nor a secret', async () => {
  const where: Where = { dataDir: mkdtempSync(path.join(work, 'data-')) };
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await adminSql(pgUrl, `CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    Object.assign(where, { databaseUrl: pgUrl, schema });
  } else copyMigratedPglite(where.dataDir); // the run's migrated database, not initdb and every migration again
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: where.dataDir,
    SECRET_KEY: OLD,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '0',
    PASSWORD_HASH_COST: '10',
  });
  const db = where.databaseUrl ? await openDb({ databaseUrl: where.databaseUrl, schema: where.schema }) : undefined;
  const app = await createApp(config, { ...(db ? { db } : {}), sendMessages: false });
  const t = { db: app.db, keys: keyringOf(config) } as TestApp;
  const staff = await createUser(t, { phone: '01711000009', is_staff: true });
  const token = (await request(app.app).post(urlOf(api.login)).send({ phone: staff.phone, password: staff.password })).body
    .access as string;
  const lottery = await insertLottery(t, { name: 'Sealed Draw' });
  // The proof announces the draw of a published lottery that has none yet (a commitment to a fresh seed).
  const announced = await request(app.app).get(urlOf(api.drawProof, { id: lottery }));
  expect(announced.status).toBe(200);
  const made = await request(app.app)
    .post(urlOf(api.generateTickets))
    .set('Authorization', `Bearer ${token}`)
    .send({ lottery_id: lottery, quantity: 5 });
  expect(made.status).toBe(201);
  const tickets = made.body as { ticket_number: string; secret_number: string }[];
  const c = await storedCommitment(t, lottery);
  await app.close();
  if (db) await db.close();

  const file = path.join(work, pgUrl ? 'sealed.dump' : 'sealed.tar.gz');
  await backup(where, file);
  const text = await readable(file);
  // What the backup must carry is there: the commitment, the sealed seed, the ticket numbers...
  expect(text).toContain(announced.body.commitment as string);
  expect(text).toContain(c!.seed_sealed as string);
  for (const g of tickets) expect(text).toContain(g.ticket_number);
  // ...and never the seed nor a secret, in any form.
  expect(c!.seed).toMatch(/^[0-9a-f]{64}$/);
  expect(text).not.toContain(c!.seed);
  expect(text).not.toContain(Buffer.from(c!.seed, 'hex').toString('latin1'));
  for (const g of tickets) expect(text).not.toContain(g.secret_number);
}, 120_000);
