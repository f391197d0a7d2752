/** Jest's global teardown: the migrated database's dump made by tests/helpers/pglite-template.ts goes. */
import { rmSync } from 'node:fs';
import { TEMPLATE_ENV } from './pglite-template.ts';

export default function teardown(): void {
  const file = process.env[TEMPLATE_ENV];
  if (file) rmSync(file, { force: true });
}
