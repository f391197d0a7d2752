/**
 * Jest's global setup: one migrated embedded database in a folder of its own, which every test file's fresh database
 * is a copy of (tests/helpers/database.ts `freshPglite`): a copy of its files and PGlite's start, 0.5 s of CPU, where
 * loading PGlite's dump of it (42 MB) took 0.85 s and PGlite's initdb and the migrations 1.5 s, about a hundred times a
 * run (docs/decisions/067-jest-in-a-fraction.md). The folder is on the memory filesystem where there is one
 * (tests/helpers/scratch.ts). On PostgreSQL (TEST_DATABASE_URL) each test makes a schema instead; nothing to do.
 */
import path from 'node:path';
import { openDb } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { scratchDir } from './scratch.ts';

/** The folder of this run: the migrated database in `template/`, each test's copy beside it. */
export const TEMPLATE_ENV = 'BHAGYA_TEST_PGLITE_RUN';
export const TEMPLATE_DATA_DIR = 'template';

export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const run = scratchDir('bhagya-jest-');
  const db = await openDb({ dataDir: path.join(run, TEMPLATE_DATA_DIR) });
  await migrate(db);
  await db.close();
  // The workers Jest starts next inherit this.
  process.env[TEMPLATE_ENV] = run;
}
