import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { DIR_MODE, FILE_MODE } from './private-files.ts';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { dumpPglite, loadPglite, pgliteDir } from './index.ts';

/**
 * Backups (docs/rules/operations.md#1-backups): a consistent snapshot of the whole database — the pictures are in it
 * (docs/decisions/040-uploads-in-the-database.md) — and its restore into an empty database.
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, a snapshot taken while the app runs; restored with
 *   `pg_restore`. The tools come from PG_BINDIR, the PATH, or /usr/lib/postgresql/<version>/bin.
 * - The embedded database (DATA_DIR): PGlite's dump of its files, a gzipped tar. Its files belong to the app's process
 *   while it runs, so the app is stopped for it (server/db/index.ts holdDir refuses otherwise).
 */
export type Where = { databaseUrl?: string | undefined; dataDir: string; schema?: string | undefined };
export type Kind = 'postgres' | 'pglite';

const exec = promisify(execFile);

/**
 * Runs a PostgreSQL program. Its failure is told by what it printed, never by its command line, which holds
 * DATABASE_URL and so perhaps a password.
 */
async function run(program: string, args: string[]): Promise<void> {
  try {
    await exec(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stderr?: unknown; code?: unknown };
    const said = typeof e.stderr === 'string' && e.stderr.trim() ? e.stderr.trim() : `exit code ${String(e.code)}`;
    // The cause keeps the exit code only: the caught error's message repeats the command line, DATABASE_URL with it.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${path.basename(program)} failed: ${said}`, { cause: { code: e.code } });
  }
}

/** pg_dump's custom format starts with these bytes; PGlite's gzipped dump with gzip's. */
const PG_MAGIC = Buffer.from('PGDMP');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** A PostgreSQL client program: PG_BINDIR, else the PATH, else the newest of Debian's /usr/lib/postgresql/<n>/bin. */
export function pgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string {
  if (env.PG_BINDIR) return path.join(env.PG_BINDIR, name);
  for (const dir of (env.PATH ?? '').split(path.delimiter)) if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((v) => existsSync(path.join(debian, v, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(debian, versions[0], 'bin', name);
  throw new Error(`${name} was not found: install PostgreSQL's client programs or set PG_BINDIR`);
}

/** What kind of backup a file holds, from its first bytes. */
export async function kindOf(file: string): Promise<Kind> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    await fh.read(head, 0, 5, 0);
    if (head.equals(PG_MAGIC)) return 'postgres';
    if (head.subarray(0, 2).equals(GZIP_MAGIC)) return 'pglite';
  } finally {
    await fh.close();
  }
  throw new Error(`${file} is not a backup made by npm run backup`);
}

/** Writes the backup to `file` (through a temporary file beside it: a file of that name is always a whole backup). */
export async function backup(where: Where, file: string): Promise<{ kind: Kind; bytes: number }> {
  await mkdir(path.dirname(path.resolve(file)), { recursive: true, mode: DIR_MODE });
  const partial = `${file}.partial`;
  try {
    if (where.databaseUrl) {
      const args = ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`];
      if (where.schema) args.push(`--schema=${where.schema}`);
      await run(pgTool('pg_dump'), [...args, where.databaseUrl]);
      // A backup holds every player's data: its owner's alone (docs/rules/security.md#11-the-data-folder).
      await chmod(partial, FILE_MODE);
    } else {
      const dump = await dumpPglite(pgliteDir(where.dataDir));
      await writeFile(partial, Buffer.from(await dump.arrayBuffer()), { mode: FILE_MODE });
    }
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  const bytes = (await readFile(file)).length;
  return { kind: where.databaseUrl ? 'postgres' : 'pglite', bytes };
}

/** Tables in the database (or the schema) a restore would write into: it refuses any. */
async function tablesIn(url: string, schema: string | undefined): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND ($1::text IS NULL OR table_schema = $1)`,
      [schema ?? null],
    );
    return r.rows[0]?.n ?? 0;
  } finally {
    await c.end();
  }
}

/** Restores a backup into an empty database: a PostgreSQL one (DATABASE_URL) or an empty DATA_DIR. */
export async function restore(where: Where, file: string): Promise<{ kind: Kind }> {
  const kind = await kindOf(file);
  if (kind === 'postgres') {
    if (!where.databaseUrl) throw new Error('this is a PostgreSQL backup: set DATABASE_URL to the empty database to restore it into');
    if ((await tablesIn(where.databaseUrl, where.schema)) > 0)
      throw new Error('the database already has tables: restore into an empty database');
    await run(pgTool('pg_restore'), ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${where.databaseUrl}`, file]);
  } else {
    if (where.databaseUrl)
      throw new Error('this is a backup of the embedded database: unset DATABASE_URL and set DATA_DIR to an empty folder');
    await loadPglite(pgliteDir(where.dataDir), new Blob([await readFile(file)]));
  }
  return { kind };
}
