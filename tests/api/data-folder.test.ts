/**
 * The data folder is the app's alone (docs/rules/security.md#11-the-data-folder): after a start on the embedded
 * database every folder in DATA_DIR is 0700 and every file 0600 — PGlite's own files, a stray upload left
 * world-writable, the lock — and so are the files it creates while it runs, a backup, and a restored database.
 */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { backup, restore } from '../../server/db/backup.ts';
import { makePrivate } from '../../server/db/private-files.ts';

const work = mkdtempSync(path.join(tmpdir(), 'bhagya-modes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every folder and file under `root` (itself too) whose mode is not the private one, and how many were looked at. */
function notPrivate(root: string): { wrong: string[]; files: number } {
  const wrong: string[] = [];
  let files = 0;
  const visit = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    const mode = st.mode & 0o7777;
    if (st.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${p} ${mode.toString(8)}`);
      for (const n of readdirSync(p)) visit(path.join(p, n));
    } else {
      files++;
      if (mode !== 0o600) wrong.push(`${p} ${mode.toString(8)}`);
    }
  };
  visit(root);
  return { wrong, files };
}

const configFor = (dataDir: string) =>
  loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SECRET_KEY: 'm'.repeat(48),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    PORT: '0',
    PASSWORD_HASH_COST: '10',
  });

// A start on a new embedded database (initdb and every migration) and a backup and restore: slow on a busy machine.
test('after a start, while running, after a backup and after a restore: folders 0700, files 0600', async () => {
  const dataDir = path.join(work, 'data');
  // What an older version or another tool left there, open to everyone.
  mkdirSync(path.join(dataDir, 'uploads', 'old'), { recursive: true });
  writeFileSync(path.join(dataDir, 'uploads', 'old', 'picture.png'), 'x');
  chmodSync(path.join(dataDir, 'uploads', 'old', 'picture.png'), 0o666);
  chmodSync(path.join(dataDir, 'uploads', 'old'), 0o777);
  chmodSync(path.join(dataDir, 'uploads'), 0o755);
  chmodSync(dataDir, 0o755);
  expect(notPrivate(dataDir).wrong.length).toBeGreaterThan(0);

  const app = await createApp(configFor(dataDir), { sendMessages: false });
  try {
    const started = notPrivate(dataDir);
    expect(started.wrong).toEqual([]);
    // PGlite's whole cluster was looked at, not an empty folder.
    expect(started.files).toBeGreaterThan(100);
    // Files the database makes while the app runs are private too (the app's umask).
    await app.db.query('CREATE TABLE mode_probe (x text)');
    await app.db.query(`INSERT INTO mode_probe SELECT repeat('x', 1000) FROM generate_series(1, 2000)`);
    await app.db.query('CHECKPOINT');
    expect(notPrivate(dataDir).wrong).toEqual([]);
  } finally {
    await app.close();
  }

  // A backup (its folder made by it) and a database restored from it.
  const file = path.join(work, 'backups', 'b.tar.gz');
  await backup({ dataDir }, file);
  expect(notPrivate(path.join(work, 'backups')).wrong).toEqual([]);
  const elsewhere = path.join(work, 'restored');
  await restore({ dataDir: elsewhere }, file);
  const restored = notPrivate(elsewhere);
  expect(restored.wrong).toEqual([]);
  expect(restored.files).toBeGreaterThan(100);
}, 300_000);

test('makePrivate leaves symbolic links alone and does not follow them', () => {
  const root = path.join(work, 'links');
  const outside = path.join(work, 'outside.txt');
  mkdirSync(root, { recursive: true });
  chmodSync(root, 0o755);
  writeFileSync(outside, 'x');
  chmodSync(outside, 0o644);
  symlinkSync(outside, path.join(root, 'link'));
  writeFileSync(path.join(root, 'inside.txt'), 'x');
  chmodSync(path.join(root, 'inside.txt'), 0o666);
  expect(makePrivate(root)).toBe(2);
  expect(lstatSync(outside).mode & 0o777).toBe(0o644);
  expect(notPrivate(root).wrong).toEqual([]);
  expect(makePrivate(root)).toBe(0);
  expect(makePrivate(path.join(work, 'none'))).toBe(0);
});
