/**
 * Copies into `<target>/node_modules` the packages the built server still loads from node_modules — those its bundle
 * leaves out (SERVER_EXTERNALS in scripts/build-config.ts) — with everything they depend on, as installed here. The
 * Dockerfile's build stage runs it after `npm run build`; the runtime stage takes that folder and nothing else of
 * node_modules (docs/decisions/042-server-bundle-with-its-libraries.md).
 *   node scripts/runtime-modules.ts <target>
 * An external that is not installed (pg's optional native driver) is skipped, as node would skip it; an optional
 * dependency that is not installed (sharp's binaries for other platforms) likewise.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root, SERVER_EXTERNALS } from './build-config.ts';

type Manifest = { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };

/** Where node would find `name` from the package folder `from`: its own node_modules, then each parent's. */
export function resolvePackage(name: string, from: string, top: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === top || path.dirname(dir) === dir) return null;
  }
}

/** The package folders `names` need, found from `top`, each once, in the order met. */
export function closure(names: readonly string[], top: string): string[] {
  const found: string[] = [];
  const visit = (name: string, from: string) => {
    const dir = resolvePackage(name, from, top);
    if (!dir || found.includes(dir)) return;
    found.push(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(dep, dir);
  };
  for (const name of names) visit(name, top);
  return found;
}

if (import.meta.main) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: node scripts/runtime-modules.ts <target folder>');
    process.exit(2);
  }
  const out = path.resolve(target);
  mkdirSync(out, { recursive: true });
  for (const dir of closure(SERVER_EXTERNALS, root)) {
    const rel = path.relative(root, dir);
    cpSync(dir, path.join(out, rel), { recursive: true });
    console.log(`[runtime-modules] ${rel}`);
  }
}
