/**
 * What the container's node_modules holds (scripts/runtime-modules.ts): the packages the server bundle leaves out and
 * everything they need, found as node finds them — a nested copy before the top-level one — each once, optional ones
 * that are not installed skipped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closure } from '../../scripts/runtime-modules.ts';
import { SERVER_EXTERNALS } from '../../scripts/build-config.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

type Pkg = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

function tree(packages: Record<string, Pkg>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'bhagya-runtime-modules-'));
  roots.push(root);
  for (const [rel, manifest] of Object.entries(packages)) {
    mkdirSync(path.join(root, rel), { recursive: true });
    writeFileSync(path.join(root, rel, 'package.json'), JSON.stringify({ name: path.basename(rel), ...manifest }));
  }
  return root;
}

const rel = (root: string, dirs: string[]) => dirs.map((d) => path.relative(root, d));

test('a package with its dependencies, a nested copy preferred to the top-level one', () => {
  const root = tree({
    'node_modules/sharp': { dependencies: { semver: '^7', 'detect-libc': '^2' }, optionalDependencies: { '@img/sharp-linux-x64': '1' } },
    'node_modules/sharp/node_modules/semver': {},
    'node_modules/semver': {},
    'node_modules/detect-libc': {},
    'node_modules/@img/sharp-linux-x64': { optionalDependencies: { '@img/sharp-libvips-linux-x64': '1' } },
    'node_modules/@img/sharp-libvips-linux-x64': {},
    'node_modules/react': {},
  });
  expect(rel(root, closure(['sharp'], root))).toEqual([
    'node_modules/sharp',
    'node_modules/sharp/node_modules/semver',
    'node_modules/detect-libc',
    'node_modules/@img/sharp-linux-x64',
    'node_modules/@img/sharp-libvips-linux-x64',
  ]);
});

test('optional packages and externals that are not installed are skipped; a cycle ends', () => {
  const root = tree({
    'node_modules/a': { dependencies: { b: '1' }, optionalDependencies: { 'a-darwin-arm64': '1' } },
    'node_modules/b': { dependencies: { a: '1' } },
  });
  expect(rel(root, closure(['pg-native', 'a'], root))).toEqual(['node_modules/a', 'node_modules/b']);
});

test('the externals of the real build are installed here, React is not among what ships', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const dirs = rel(root, closure(SERVER_EXTERNALS, root));
  expect(dirs).toContain('node_modules/sharp');
  expect(dirs.some((d) => d.startsWith('node_modules/@img/sharp-libvips-'))).toBe(true);
  expect(dirs.filter((d) => /node_modules\/(react|react-dom|express|@electric-sql\/pglite)$/.test(d))).toEqual([]);
});
