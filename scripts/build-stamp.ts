/**
 * Whether dist/ was built from the sources as they are now: scripts/build.ts writes a hash of every input of the
 * build into dist/build-stamp.json, and `npm start` (scripts/start.ts) rebuilds when the hash of the sources today
 * differs (a `git pull`, an edit, a changed lockfile), when the stamp is missing (no build, an old one, or the
 * unminified client of `npm run dev`) or when a built file is gone.
 * Plain TypeScript that Node runs as it is (type stripping): no enums, no parameter properties.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything the build reads (relative to the project root): folders are taken whole. */
export const BUILD_INPUTS = [
  'server',
  'shared',
  'views',
  'client',
  'locales',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'scripts/build.ts',
  'scripts/build-config.ts',
  'scripts/build-stamp.ts',
  'scripts/bkash-simulator',
] as const;

/** Written last by a successful production build; its absence means "not a current production build". */
export const STAMP_FILE = path.join('dist', 'build-stamp.json');

/** What a production build leaves behind (start needs all of it). */
const BUILT = [path.join('dist', 'server', 'index.js'), path.join('dist', 'client', 'manifest.json')];

function filesUnder(root: string, rel: string): string[] {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** sha256 over the path and the bytes of every build input, in a fixed order (a removed or renamed file counts). */
export function sourceHash(root: string, inputs: readonly string[] = BUILD_INPUTS): string {
  const h = createHash('sha256');
  const files = inputs.flatMap((rel) => filesUnder(root, rel)).sort();
  for (const rel of files) {
    h.update(rel.split(path.sep).join('/'));
    h.update('\0');
    h.update(readFileSync(path.join(root, rel)));
    h.update('\0');
  }
  return h.digest('hex');
}

export function writeStamp(root: string, hash: string): void {
  writeFileSync(path.join(root, STAMP_FILE), JSON.stringify({ sourceHash: hash, builtAt: new Date().toISOString() }, null, 1));
}

export type BuildState = { current: true } | { current: false; reason: string };

/** Whether dist/ under root is a production build of the sources as they are now, and if not, why. */
export function buildState(root: string, inputs: readonly string[] = BUILD_INPUTS): BuildState {
  const missing = BUILT.find((f) => !existsSync(path.join(root, f)));
  if (missing) return { current: false, reason: `${missing} is missing` };
  let stamp: { sourceHash?: unknown };
  try {
    stamp = JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8')) as { sourceHash?: unknown };
  } catch {
    return { current: false, reason: `${STAMP_FILE} is missing or unreadable (no production build yet)` };
  }
  if (stamp.sourceHash !== sourceHash(root, inputs)) return { current: false, reason: 'the sources changed since the last build' };
  return { current: true };
}
