/** Jest's global teardown: the folder of the migrated database made by tests/helpers/pglite-template.ts goes, with what a test left there. */
import { rmSync } from 'node:fs';
import { TEMPLATE_ENV } from './pglite-template.ts';

export default function teardown(): void {
  const run = process.env[TEMPLATE_ENV];
  if (run) rmSync(run, { recursive: true, force: true });
}
