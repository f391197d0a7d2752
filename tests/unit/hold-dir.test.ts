/**
 * The embedded database's files belong to one process at a time (server/db/index.ts holdDir,
 * docs/rules/operations.md#1-backups): a second hold is refused while the first is live, a lock left by a process that
 * is gone is taken over, and a release frees it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { holdDir } from '../../server/db/index.ts';

const root = mkdtempSync(path.join(tmpdir(), 'bhagya-hold-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('one hold at a time in this process; released, it can be held again', () => {
  const dir = path.join(root, 'a', 'pglite');
  const release = holdDir(dir);
  expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
  expect(() => holdDir(dir)).toThrow(`in use by process ${process.pid}: stop it first`);
  release();
  expect(existsSync(`${dir}.lock`)).toBe(false);
  holdDir(dir)();
});

test("another live process's lock is refused; a lock whose process is gone is taken over", () => {
  const dir = path.join(root, 'b', 'pglite');
  holdDir(dir)(); // makes the folder
  writeFileSync(`${dir}.lock`, String(process.ppid));
  expect(() => holdDir(dir)).toThrow(`in use by process ${process.ppid}: stop it first`);
  const gone = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(`${dir}.lock`, String(gone));
  const release = holdDir(dir);
  expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
  release();
});
