import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The data folder is the app's alone (docs/rules/security.md#11-the-data-folder): its folders 0700, its files 0600,
 * whatever made them (PGlite creates its files readable and writable by everyone).
 */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;
/** The app's umask: what it creates (PGlite's files, the lock, the generated secret, backups) is its own user's only. */
export const APP_UMASK = 0o077;

/** Sets the app's umask; a worker thread, which cannot, keeps its own (the modes are set at start all the same). */
export function usePrivateUmask(): void {
  try {
    process.umask(APP_UMASK);
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION
  }
}

/**
 * Makes `root` and everything in it private: folders DIR_MODE, files FILE_MODE. Symbolic links are left as they are
 * and not followed; something removed meanwhile is skipped. Returns how many modes it changed.
 */
export function makePrivate(root: string): number {
  if (!existsSync(root)) return 0;
  let changed = 0;
  const visit = (p: string): void => {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return; // gone meanwhile
    }
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? DIR_MODE : FILE_MODE;
    if ((st.mode & 0o7777) !== want) {
      chmodSync(p, want);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(root);
  return changed;
}
