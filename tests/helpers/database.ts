import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDb, pgliteDir, type Db, type PoolOptions } from '../../server/db/index.ts';
import { TEMPLATE_DATA_DIR, TEMPLATE_ENV } from './pglite-template.ts';

/**
 * Puts a copy of the migrated embedded database of Jest's global setup (tests/helpers/pglite-template.ts) in
 * `dataDir`, where the app keeps its embedded database; false (nothing copied) outside a Jest run that made one.
 */
export function copyMigratedPglite(dataDir: string): boolean {
  const run = process.env[TEMPLATE_ENV];
  if (!run) return false;
  cpSync(pgliteDir(path.join(run, TEMPLATE_DATA_DIR)), pgliteDir(dataDir), { recursive: true });
  return true;
}

/**
 * A new embedded database with every migration applied: a copy of the one Jest's global setup made, removed when it is
 * closed; without it an in-memory one made from nothing (the app's start migrates it).
 */
export async function freshPglite(): Promise<Db> {
  const run = process.env[TEMPLATE_ENV];
  if (!run) return openDb({ inMemory: true });
  const dir = mkdtempSync(path.join(run, 'db-'));
  try {
    copyMigratedPglite(dir);
    const db = await openDb({ dataDir: dir });
    const close = db.close;
    db.close = () => close().finally(() => rmSync(dir, { recursive: true, force: true }));
    return db;
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export type TestDatabase = {
  /** A new handle on the one database (a pool of its own on PostgreSQL; the same embedded database on PGlite). */
  open(pool?: PoolOptions): Promise<Db>;
  /** Closes what open() opened and removes the schema. */
  drop(): Promise<void>;
};

/**
 * One fresh database that several app instances can share, as instances started together on one server do: a fresh
 * schema in the PostgreSQL of TEST_DATABASE_URL, or one in-memory PGlite (one connection: its transactions take turns).
 */
export async function testDatabase(): Promise<TestDatabase> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const handles: Db[] = [];
  if (!pgUrl) {
    const lite = await freshPglite();
    handles.push(lite);
    return {
      open: async () => lite,
      drop: () => lite.close(),
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = (sql: string) => adminSql(pgUrl, sql);
  await admin(`CREATE SCHEMA ${schema}`);
  return {
    async open(pool) {
      const db = await openDb({ databaseUrl: pgUrl, schema, ...(pool ? { pool } : {}) });
      handles.push(db);
      return db;
    },
    async drop() {
      for (const db of handles) await db.close();
      await admin(`DROP SCHEMA ${schema} CASCADE`);
    },
  };
}

/** Runs one statement on the PostgreSQL server of `url`, on a connection of its own (a schema or a database made or dropped). */
export async function adminSql(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** The URL of another database `name` on the same server as `url`. */
export function databaseUrlFor(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
