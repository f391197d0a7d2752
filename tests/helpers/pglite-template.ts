/**
 * Jest's global setup: one migrated embedded database, dumped to a file that every test file's fresh database starts
 * from (tests/helpers/database.ts `freshPglite`): 0.3 s each instead of PGlite's initdb and the migrations (1.5 s),
 * about a hundred times a run. On PostgreSQL (TEST_DATABASE_URL) each test makes a schema instead; nothing to do.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pgliteTemplate } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';

export const TEMPLATE_ENV = 'BHAGYA_TEST_PGLITE_TEMPLATE';

export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const dump = await pgliteTemplate(migrate);
  const file = path.join(tmpdir(), `bhagya-jest-pglite-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  // The workers Jest starts next inherit this.
  process.env[TEMPLATE_ENV] = file;
}
