/**
 * `npm start` (scripts/start.ts): rebuilds when dist/ is not a production build of the sources as they are now, and runs
 * the server with React's production build (NODE_ENV=production) while the app keeps its own mode (APP_ENV).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildState, sourceHash, STAMP_FILE, writeStamp } from '../../scripts/build-stamp.ts';
import { startEnv } from '../../scripts/start.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A project folder in miniature: a few sources, and dist/ as a production build leaves it. */
function project() {
  const root = mkdtempSync(path.join(tmpdir(), 'bhagya-start-'));
  roots.push(root);
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('server/index.ts', 'export {};\n');
  write('views/home/Home.tsx', 'export const Home = () => null;\n');
  write('locales/en/common.json', '{"hello":"Hello"}\n');
  write('package-lock.json', '{"lockfileVersion":3}\n');
  write('README.md', '# readme\n');
  const build = () => {
    const hash = sourceHash(root);
    write('dist/server/index.js', '// built\n');
    write('dist/client/manifest.json', '{}\n');
    writeStamp(root, hash);
  };
  return { root, write, build, rm: (rel: string) => rmSync(path.join(root, rel), { recursive: true, force: true }) };
}

describe('buildState: is dist/ current?', () => {
  test('no build at all: build', () => {
    const p = project();
    expect(buildState(p.root)).toEqual({ current: false, reason: `${path.join('dist', 'server', 'index.js')} is missing` });
  });

  test('just built from these sources: start as it is', () => {
    const p = project();
    p.build();
    expect(buildState(p.root)).toEqual({ current: true });
  });

  test.each([
    ['a server file changed (git pull)', (p: ReturnType<typeof project>) => p.write('server/index.ts', 'export const x = 1;\n')],
    ['a text changed', (p: ReturnType<typeof project>) => p.write('locales/en/common.json', '{"hello":"Hi"}\n')],
    ['the lockfile changed (new dependencies)', (p: ReturnType<typeof project>) => p.write('package-lock.json', '{"lockfileVersion":4}\n')],
    ['a source file was added', (p: ReturnType<typeof project>) => p.write('shared/new.ts', 'export {};\n')],
    ['a source file was removed', (p: ReturnType<typeof project>) => p.rm('views/home/Home.tsx')],
    ['a build script changed', (p: ReturnType<typeof project>) => p.write('scripts/build-config.ts', 'export {};\n')],
  ])('%s: rebuild', (_, change) => {
    const p = project();
    p.build();
    change(p);
    expect(buildState(p.root)).toEqual({ current: false, reason: 'the sources changed since the last build' });
  });

  test('a file older than the build that changed (mtimes do not matter, contents do): rebuild', () => {
    const p = project();
    p.build();
    p.write('server/index.ts', 'export const y = 2;\n');
    utimesSync(path.join(p.root, 'server/index.ts'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(buildState(p.root).current).toBe(false);
  });

  test('files touched but unchanged, or changes outside the build inputs: no rebuild', () => {
    const p = project();
    p.build();
    p.write('server/index.ts', 'export {};\n');
    p.write('README.md', '# changed readme\n');
    p.write('data/pglite/x', 'runtime data');
    expect(buildState(p.root)).toEqual({ current: true });
  });

  test('no stamp (a build from before the stamp, or the unminified client of npm run dev): rebuild', () => {
    const p = project();
    p.build();
    p.rm(STAMP_FILE);
    expect(buildState(p.root)).toMatchObject({ current: false, reason: expect.stringContaining('build-stamp.json') });
  });

  test('a built file gone: rebuild', () => {
    const p = project();
    p.build();
    p.rm('dist/client');
    expect(buildState(p.root)).toMatchObject({ current: false, reason: expect.stringContaining('manifest.json') });
  });

  test("the project's own sources hash the same twice", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(sourceHash(root)).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceHash(root)).toBe(sourceHash(root));
  });
});

describe('startEnv: React in production, the app in its own mode', () => {
  test('plain `npm start`: React production build, the app in development (plain http, no SECRET_KEY needed)', () => {
    expect(startEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', NODE_ENV: 'production', APP_ENV: 'development' });
  });

  test('`NODE_ENV=production npm start`: the app in production too', () => {
    expect(startEnv({ NODE_ENV: 'production' })).toMatchObject({ NODE_ENV: 'production', APP_ENV: 'production' });
  });

  test('APP_ENV given: kept as it is', () => {
    expect(startEnv({ APP_ENV: 'production' })).toMatchObject({ NODE_ENV: 'production', APP_ENV: 'production' });
    expect(startEnv({ NODE_ENV: 'production', APP_ENV: 'development' })).toMatchObject({ NODE_ENV: 'production', APP_ENV: 'development' });
  });
});
