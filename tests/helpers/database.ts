import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openDb, type Db, type PoolOptions } from '../../server/db/index.ts';
import { TEMPLATE_ENV } from './pglite-template.ts';

let template: Blob | undefined;

/**
 * A new in-memory embedded database with every migration applied: from the dump Jest's global setup made
 * (tests/helpers/pglite-template.ts) when there is one, else made from nothing (the app's start migrates it).
 */
export function freshPglite(): Promise<Db> {
  const file = process.env[TEMPLATE_ENV];
  if (file && !template) template = new Blob([readFileSync(file)]);
  return openDb({ inMemory: true, template });
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
