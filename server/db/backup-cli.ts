/**
 * `npm run backup [-- <file>]` and `npm run restore -- <file>` (docs/rules/operations.md#1-backups). The database is the
 * app's: DATABASE_URL, else the embedded one in DATA_DIR (default ./data). Without a file name the backup is written to
 * BACKUP_DIR (default ./backups) as bhagya-<UTC time>.dump (PostgreSQL) or .tar.gz (embedded). Exit 0 when done, 1 on a
 * failure (its reason on stderr), 2 for bad arguments.
 */
import path from 'node:path';
import process from 'node:process';
import { z } from 'zod';
import { backup, restore } from './backup.ts';
import { usePrivateUmask } from './private-files.ts';

const Env = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  BACKUP_DIR: z.string().min(1).default('./backups'),
});

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

async function main(): Promise<number> {
  const [command, file, ...rest] = process.argv.slice(2);
  const env = Env.safeParse(process.env);
  if (!env.success || rest.length > 0 || (command !== 'backup' && command !== 'restore') || (command === 'restore' && !file)) {
    console.error('usage: npm run backup [-- <file>]   |   npm run restore -- <file>');
    return 2;
  }
  const where = { databaseUrl: env.data.DATABASE_URL, dataDir: path.resolve(env.data.DATA_DIR) };
  // Backups and restored files are the app's alone (docs/rules/security.md#11-the-data-folder).
  usePrivateUmask();
  if (command === 'backup') {
    const out = file ?? path.join(env.data.BACKUP_DIR, `bhagya-${stamp()}.${where.databaseUrl ? 'dump' : 'tar.gz'}`);
    const r = await backup(where, out);
    console.log(`backup written: ${out} (${r.kind}, ${r.bytes} bytes)`);
  } else {
    const r = await restore(where, file as string);
    console.log(`restored ${file} (${r.kind}) into ${where.databaseUrl ? 'the database of DATABASE_URL' : where.dataDir}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
